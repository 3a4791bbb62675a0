/// `update`: `fields` written to one record, or to every match of a filter (at most `max`).
struct UpdateStep: Sendable, Hashable {
    var table: Template
    var target: RecordTarget
    var fields: [NamedTemplate]
    var settings = WriteSettings()
}
