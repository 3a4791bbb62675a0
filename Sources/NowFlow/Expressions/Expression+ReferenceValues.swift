import NowData

extension Expression {
    /// ` (steps.wait.count = 0, vars.want = 1)`: the value of each of the expression's references in `scope`, as a
    /// `retry.until` that stayed false reports them; empty without references.
    func referenceValues(in scope: Scope) -> String {
        var seen: Set<String> = []
        let shown = references.compactMap { reference -> String? in
            guard seen.insert(reference.description).inserted else { return nil }
            let value = (try? reference.resolve(in: scope)).map { $0.sortingKeys().jsonText() } ?? "(no value)"
            return "\(reference) = \(value)"
        }
        return shown.isEmpty ? "" : " (" + shown.joined(separator: ", ") + ")"
    }
}
