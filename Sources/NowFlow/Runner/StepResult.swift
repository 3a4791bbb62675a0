import NowData

/// What a step gives `steps.<id>`: one case for each result the JSON report documents (`results`). Rendering,
/// reports, `ensure`, `:undo` and the records-touched summary switch on it; `outputs:` and the report see it as
/// JSON (``json``), in the shapes `docs/job-files.md` lists, and expressions too, the records it holds keeping their
/// type (``member(_:)``).
///
/// The records a step read or wrote are ``NowData/NowRecord``s, their dates in the job's format
/// (``JobDates/incoming(_:)``); their JSON is the members as the instance sent them, so ``json`` wraps them and
/// copies nothing.
enum StepResult: Sendable {
    /// A step's id and its result.
    typealias Named = (id: String, result: StepResult)

    /// A query's records: `records` and `count`.
    case records([NowRecord])
    /// A query whose records were streamed, not kept: `count`, `streamed` and `to`.
    case streamed(StreamedRecords)
    /// A get's record (null when the instance gave none): `record` and `sys_id`.
    case record(NowRecord?, sysID: String)
    /// A create, update or delete.
    case written(RecordWrite)
    /// What an ensure step found and did.
    case ensured(EnsureOutcome)
    /// An aggregate's `stats`, or its `groups` and `count`.
    case aggregate(JSONValue)
    /// An attach's or a download's `attachment` (and `sys_id`, `path`), or an attachments step's `attachments` and
    /// `count`.
    case attachments(JSONValue)
    /// An HTTP answer: `status`, `headers` and `body` (all null for a write a dry run did not send).
    case http(status: JSONValue, headers: JSONValue, body: JSONValue)
    /// A foreach's items, each the results of its steps with an id, in order (nil for an item a stop left unrun),
    /// and how many items it had: `results` and `count`. A foreach that does not keep its results
    /// (``ForeachStep/keepsResults``) has those of its first ``ForeachStep/listedItems`` items only.
    case foreach([[StepResult.Named]?], count: Int)
    /// A REPL write that Ctrl-C interrupted and that may have gone through: `table`, `possibly_written` and
    /// `sys_id` (or `sys_ids` for a write by query).
    case possiblyWritten(table: String, sysIDs: [String], byQuery: Bool)
    /// What an extract gives: the value at its path, one record or records keeping their type
    /// (``ExpressionValue/kept``).
    case extracted(ExpressionValue)
    /// What a set, assert or include gives: a plain value.
    case value(JSONValue)

    /// The result as expressions, `outputs:` and the JSON report see it.
    var json: JSONValue {
        switch self {
        case .records(let records):
            return ["records": .array(records.map(\.jsonValue)), "count": .number(JSONNumber(records.count))]
        case .streamed(let streamed):
            return streamed.json
        case .record(let record, let sysID):
            return ["record": record?.jsonValue ?? .null, "sys_id": .string(sysID)]
        case .written(let write):
            return write.json
        case .ensured(let outcome):
            return outcome.value
        case .aggregate(let value), .attachments(let value), .value(let value):
            return value
        case .extracted(let value):
            return value.json
        case .http(let status, let headers, let body):
            return ["status": status, "headers": headers, "body": body]
        case .foreach(let items, let count):
            let results = items.map { item in
                item.map { JSONValue.object(JSONObject($0.map { ($0.id, $0.result.json) })) } ?? .null
            }
            return ["results": .array(results), "count": .number(JSONNumber(count))]
        case .possiblyWritten(let table, let sysIDs, let byQuery):
            var result: JSONObject = ["table": .string(table), "possibly_written": true]
            if byQuery {
                result["sys_ids"] = .array(sysIDs.map(JSONValue.string))
            } else {
                result["sys_id"] = .string(sysIDs.first ?? "")
            }
            return .object(result)
        }
    }

    /// The records the result holds: a query's, a get's, a create's or an update's; none for the others.
    var records: [NowRecord] {
        switch self {
        case .records(let records): records
        case .record(let record, _): record.map { [$0] } ?? []
        case .written(let write): write.records?.values.compactMap { $0 } ?? []
        default: []
        }
    }

    /// The value at `path` in the result (``json``), the records it holds keeping their type (``member(_:)``):
    /// the whole result for an empty path, what an extract gave for an extract.
    func value(at path: DotPath) throws(DotPathError) -> ExpressionValue {
        if case .extracted(let value) = self { return try value.value(at: path) }
        guard let first = path.components.first else { return .result(self) }
        if let sysID = sysID(first) { return .json(try sysID.value(at: path, from: 1)) }
        guard let member = member(first) else { return .json(try json.value(at: path)) }
        return try member.value(at: path, from: 1)
    }

    /// The member `key` of the result (``json``) when it is the `sys_id` of a get or of a write by sys_id, read
    /// without making the rest of the result (`${steps.create.sys_id}`, the most common reference); nil otherwise.
    private func sysID(_ key: String) -> JSONValue? {
        guard key == "sys_id" else { return nil }
        switch self {
        case .record(_, let sysID): return .string(sysID)
        case .written(let write) where !write.byQuery: return .string(write.sysIDs.first ?? "")
        default: return nil
        }
    }

    /// The records the member `key` of the result (``json``) holds, typed: a query's `records`, the `record` of a
    /// get, a create, an update by sys_id or an ensure; nil for the other members, which are plain JSON.
    func member(_ key: String) -> ExpressionValue? {
        switch (self, key) {
        case (.records(let records), "records"): .records(records)
        case (.record(let record?, _), "record"): .record(record)
        case (.written(let write), "record") where !write.byQuery: write.record.map(ExpressionValue.record)
        case (.ensured(let outcome), "record"): outcome.record.map(ExpressionValue.record)
        default: nil
        }
    }

    /// Whether the result is a REPL write that may have gone through, not looked up yet.
    var isPossiblyWritten: Bool {
        if case .possiblyWritten = self { true } else { false }
    }
}
