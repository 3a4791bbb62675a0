/// `delete`: one record, or every match of a filter (at most `max`, else nothing is deleted).
struct DeleteStep: Sendable, Hashable {
    var table: Template
    var target: RecordTarget
}
