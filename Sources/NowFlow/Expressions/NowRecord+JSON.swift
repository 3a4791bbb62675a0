import NowData

extension NowRecord {
    /// The record as expressions, `outputs:` and the JSON report see it: its members as the instance sent them
    /// (with the job's dates), wrapped, not copied.
    var jsonValue: JSONValue { .object(json) }
}
