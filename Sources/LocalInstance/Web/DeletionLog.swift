import Synchronization

/// The last records deleted through the Table API (the Batch API's deletes included), newest last, for the web
/// view of what changed: the platform keeps them in `sys_audit_delete`; the local instance keeps the last
/// ``capacity`` in memory, so a restart forgets them.
final class DeletionLog: Sendable {
    /// One deleted record.
    struct Entry: Sendable, Hashable {
        /// The table the record was stored in (its class).
        var table: String
        var sysID: String
        /// The value of the table's display field when it was deleted.
        var displayValue: String
        /// UTC `yyyy-MM-dd HH:mm:ss`.
        var deletedOn: String
        /// The `user_name` of who deleted it.
        var deletedBy: String
    }

    /// How many deletions are kept.
    static let capacity = 1000

    private let entries = Mutex<[Entry]>([])

    /// Notes a deletion, forgetting the oldest past ``capacity``.
    func add(_ entry: Entry) {
        entries.withLock { entries in
            entries.append(entry)
            if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        }
    }

    /// The deletions on or after `since` (UTC `yyyy-MM-dd HH:mm:ss`), oldest first.
    func entries(since: String) -> [Entry] {
        entries.withLock { $0.filter { $0.deletedOn >= since } }
    }
}
