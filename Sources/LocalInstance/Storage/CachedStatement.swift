/// A prepared statement in a ``SQLiteConnection``'s cache, with the layout of its result once worked out. Like the
/// connection, it is only used with the connection's exclusive use.
final class CachedStatement {
    let handle: OpaquePointer
    var layout: ColumnLayout?

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }
}
