import NowData

extension RecordWrite {
    /// The write's records as the REPL shows them, and the columns: the identifying fields, then `fields`, the
    /// fields the step set.
    func shown(setting fields: [NamedTemplate]) -> ([NowRecord], [String]) {
        let records = (self.records?.values ?? []).compactMap { $0 }
        let present = Set(records.flatMap(\.json.keys))
        let leading = RecordTable.leadingFields.filter(present.contains)
        let names = leading + fields.map(\.name).filter { !leading.contains($0) }
        return (records, names)
    }
}
