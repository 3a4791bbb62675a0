/// `create`: a new record with `fields`.
struct CreateStep: Sendable, Hashable {
    var table: Template
    var fields: [NamedTemplate]
    var settings = WriteSettings()
}
