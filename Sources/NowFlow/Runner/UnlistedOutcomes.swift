import NowData

/// What a run counted but did not list: the items of a `foreach` past its first ``ForeachStep/listedItems``, when
/// no expression uses the foreach's per-item results (``ForeachStep/keepsResults``), whose steps all passed or were
/// skipped. Their step outcomes and the records they wrote are counted here, by status and action, instead of
/// being kept one by one, so that a foreach over millions of records holds as much as one over a thousand. An item
/// with a step that failed (or did not run) is listed in full wherever it is: a failure is never only counted.
public struct UnlistedOutcomes: Sendable, Hashable {
    /// How many items ran and are not listed.
    public var items = 0
    /// How many of their steps ended in each status (passed, skipped).
    public var steps: [StepStatus: Int] = [:]
    /// How many records they created, updated or deleted, by action (a record written twice counts twice).
    public var records: [TouchedRecord.Action: Int] = [:]

    /// The report's counts: nothing was left unlisted.
    public init() {}

    /// Whether every item was listed.
    public var isEmpty: Bool { items == 0 }

    /// Counts an item's `outcomes` and `touched` records.
    mutating func count(_ outcomes: [StepOutcome], _ touched: [TouchedRecord]) {
        items += 1
        for outcome in outcomes { steps[outcome.status, default: 0] += 1 }
        for record in touched { records[record.action, default: 0] += 1 }
    }

    /// Adds `other`'s counts to these.
    mutating func add(_ other: UnlistedOutcomes) {
        items += other.items
        steps.merge(other.steps, uniquingKeysWith: +)
        records.merge(other.records, uniquingKeysWith: +)
    }

    /// Whether an item whose steps ended in `outcomes` may be counted instead of listed: all passed or skipped.
    static func countable(_ outcomes: [StepOutcome]) -> Bool {
        outcomes.allSatisfy { $0.status == .passed || $0.status == .skipped }
    }

    /// `998000 items not listed (past the first 1000): steps 998000 passed, 12 skipped; records 998000 updated`.
    public var summary: String {
        var text = "\(items) item\(items == 1 ? "" : "s") not listed (past the first \(ForeachStep.listedItems))"
        let stepCounts = StepStatus.allCases.compactMap { status in steps[status].map { "\($0) \(status.rawValue)" } }
        if !stepCounts.isEmpty { text += ": steps " + stepCounts.joined(separator: ", ") }
        let recordCounts = TouchedRecord.Action.allCases.compactMap { action in records[action].map { "\($0) \(action.rawValue)" } }
        if !recordCounts.isEmpty { text += "; records " + recordCounts.joined(separator: ", ") }
        return text
    }

    /// `{"items", "steps": {status: count}, "records": {action: count}}`, as the JSON report has it.
    public var jsonValue: JSONValue {
        [
            "items": .number(JSONNumber(items)),
            "steps": .object(JSONObject(steps.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key.rawValue, .number(JSONNumber($0.value))) })),
            "records": .object(JSONObject(records.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key.rawValue, .number(JSONNumber($0.value))) })),
        ]
    }
}
