import NowData

/// The second opinion's verdict on the records an instance returned for a write by query
/// (``JobExecution/verifiedMatches(_:query:max:verb:)``): a record that does not satisfy the query fails the step.
extension RecordPredicate {
    /// Fails, naming the condition and the record (by the first of `naming` it has with a text, ``RecordName``,
    /// else by its sys_id), when one of `records` does not satisfy the predicate.
    func check(_ records: [JSONValue], naming: [String], _ nothing: String) throws(StepFailure) {
        for case .object(let record) in records {
            let unmet: RecordPredicate.Unmet?
            do {
                unmet = try self.unmet(in: record)
            } catch {
                throw StepFailure("\(error)\(nothing)", fromInstance: true)
            }
            if let unmet { throw Self.ignored(unmet, record: record, naming: naming, nothing) }
        }
    }

    /// The failure for a record the instance returned that does not satisfy `unmet`: `the instance ignored the
    /// condition 'state=Resolved' (state is an integer field, 'Resolved' is not an integer): it returned
    /// INC0010001, whose state is '2'`.
    private static func ignored(
        _ unmet: Unmet, record: JSONObject, naming: [String], _ nothing: String
    ) -> StepFailure {
        let name = naming.lazy.compactMap { RecordPredicate.text(of: $0, in: record) }.first { !$0.isEmpty }
        let shown = name ?? NowRecord.sysID(of: .object(record))
        let values = unmet.keys.map { key in "\(key) is '\(RecordPredicate.text(of: key, in: record) ?? "")'" }
        let whose =
            switch values.count {
            case 0: ""
            case 1: ", whose \(values[0])"
            default: ", whose \(values.dropLast().joined(separator: ", ")) and \(values[values.count - 1])"
            }
        let because = unmet.ignoredBecause.map { " (\($0))" } ?? ""
        return StepFailure(
            "the instance ignored the condition '\(unmet.text)'\(because): it returned \(shown)\(whose)\(nothing)",
            fromInstance: true)
    }
}
