/// How a job file uses the records of its steps, read as its expressions are checked, to choose whether each
/// `query` keeps its records (``QueryStep/Delivery``).
///
/// A query keeps them when it says `collect: true`, or when an expression uses `steps.<id>` or
/// `steps.<id>.records` as anything but the items of one `foreach` (`steps.q.records.0`, `len(steps.q.records)`,
/// an output of `steps.q`); `steps.<id>.count` needs no records. Otherwise a query whose records are the items of
/// one foreach streams them to it, and any other streams them through, keeping its count.
///
/// Likewise a `foreach` keeps every item's results (``ForeachStep/keepsResults``) when an expression uses
/// `steps.<id>.results` or `steps.<id>` as a whole; `steps.<id>.count` needs none of them.
struct RecordUses {
    /// The ids whose records are used as a whole.
    private var whole: Set<String> = []
    /// The ids whose per-item results (a foreach's `results`) are used.
    private var results: Set<String> = []
    /// How deep in foreach bodies (0: not in one) each foreach that takes `steps.<id>.records` as its items is, by
    /// id.
    private var foreachItems: [String: [Int]] = [:]

    /// Notes the uses of `expression`, `depth` foreach bodies deep: the items of a foreach when `asForeachItems`.
    mutating func note(_ expression: Expression, asForeachItems: Bool, depth: Int) {
        if asForeachItems, case .reference(let reference) = expression, let id = Self.recordsID(reference) {
            foreachItems[id, default: []].append(depth)
            return
        }
        for reference in expression.references where reference.root == "steps" {
            let names = Array(reference.names)
            guard let id = names.first else { continue }
            if names.count == 1 || names[1] == "records" { whole.insert(id) }
            if names.count == 1 || names[1] == "results" { results.insert(id) }
        }
    }

    /// `steps` (`depth` foreach bodies deep) with the delivery of each query and what each foreach keeps set, in
    /// foreach bodies too.
    func delivering(_ steps: [Step], depth: Int = 0) -> [Step] {
        steps.map { step in
            var step = step
            switch step.kind {
            case .query(var query):
                query.delivery = delivery(of: query, id: step.id, depth: depth)
                step.kind = .query(query)
            case .foreach(var foreach):
                foreach.steps = delivering(foreach.steps, depth: depth + 1)
                foreach.keepsResults = step.id.map(results.contains) ?? false
                step.kind = .foreach(foreach)
            default:
                break
            }
            return step
        }
    }

    /// A foreach deeper than its query (in a foreach body after it) would read the records once per item of the
    /// foreach around it: they are kept.
    private func delivery(of query: QueryStep, id: String?, depth: Int) -> QueryStep.Delivery {
        guard !query.collect else { return .collect }
        guard let id else { return .stream }
        if whole.contains(id) { return .collect }
        switch foreachItems[id] ?? [] {
        case []: return .stream
        case [depth]: return .foreach
        default: return .collect
        }
    }

    /// The id of `steps.<id>.records`, exactly; nil for another reference.
    private static func recordsID(_ reference: Reference) -> String? {
        let names = Array(reference.names)
        guard reference.root == "steps", names.count == 2, names[1] == "records" else { return nil }
        return names[0]
    }
}
