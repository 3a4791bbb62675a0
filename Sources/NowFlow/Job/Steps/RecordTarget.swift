/// The records an update or delete changes: one by `sys_id`, or every match of a filter, at most `max`.
enum RecordTarget: Sendable, Hashable {
    case sysID(Template)
    case filter(RecordFilter, max: CountSetting)
}
