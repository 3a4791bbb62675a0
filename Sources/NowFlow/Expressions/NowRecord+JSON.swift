import NowData

extension NowRecord {
    /// The record as expressions, `outputs:` and the JSON report see it: its members as the instance sent them
    /// (with the job's dates), wrapped, not copied.
    var jsonValue: JSONValue { .object(json) }

    /// The sys_id of a record as JSON, whether plain or as `{value, display_value}`; `""` without one.
    static func sysID(of record: JSONValue) -> String {
        record["sys_id"].flatMap(Field.init(member:))?.value ?? ""
    }
}
