import NowData

/// A create, update or delete a step made: what it did, to which records, and the records as the instance answered
/// after the write.
///
/// The answers of a write by query stay as the instance sent them until something reads them (an expression, the
/// report, the lines shown under the step): a bulk update whose result no one reads decodes none of them.
struct RecordWrite: Sendable {
    /// Created, updated or deleted (never `possiblyCreated`).
    var action: TouchedRecord.Action
    /// The records written: the one of a write by sys_id, the matched ones of a write by query.
    var sysIDs: [String]
    /// Whether the step chose its records by a query (`sys_ids`, and `records` for an update), not by sys_id.
    var byQuery: Bool
    /// The records after the write, as the job sees them; none for a delete.
    var records: WrittenRecords?

    /// `steps.<id>`: a create's `record` and `sys_id`; an update's `record`, `sys_id` and `count` (1), or by query
    /// its `sys_ids`, `count` and `records`; a delete's `sys_id` and `count` (1), or by query its `sys_ids` and
    /// `count`.
    var json: JSONValue {
        if byQuery {
            var result: JSONObject = [
                "sys_ids": .array(sysIDs.map(JSONValue.string)), "count": .number(JSONNumber(sysIDs.count)),
            ]
            if let records { result["records"] = .array(records.values.map { $0?.jsonValue ?? .null }) }
            return .object(result)
        }
        let sysID = JSONValue.string(sysIDs.first ?? "")
        let record = self.record?.jsonValue ?? .null
        switch action {
        case .created, .possiblyCreated: return .object(["record": record, "sys_id": sysID])
        case .updated: return .object(["record": record, "sys_id": sysID, "count": 1])
        case .deleted: return .object(["sys_id": sysID, "count": 1])
        }
    }

    /// The one record of a write by sys_id; nil when the write has none.
    var record: NowRecord? { records?.values.first ?? nil }
}
