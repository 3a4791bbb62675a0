import NowData

extension RecordWrite {
    /// A write's records as the REPL shows them.
    struct Shown {
        /// The records written.
        var records: [NowRecord]
        /// The columns of the table: the identifying fields, then the fields the step set.
        var fields: [String]

        /// The records as the JSON and YAML formats write them: `{"records": [...]}`.
        var json: JSONValue {
            .object(["records": .array(records.map(\.jsonValue))])
        }
    }

    /// The write's records as the REPL shows them, with the identifying fields, then `fields`, the fields the step
    /// set, as the table's columns.
    func shown(setting fields: [NamedTemplate]) -> Shown {
        let records = (self.records?.values ?? []).compactMap { $0 }
        let present = Set(records.flatMap(\.json.keys))
        let leading = RecordTable.leadingFields.filter(present.contains)
        let names = leading + fields.map(\.name).filter { !leading.contains($0) }
        return Shown(records: records, fields: names)
    }
}
