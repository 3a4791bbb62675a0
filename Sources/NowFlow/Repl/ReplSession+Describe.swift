import NowData

/// `:describe TABLE`: a table's shape as the instance's dictionary lists it.
extension ReplSession {
    /// The table's line of ancestry (`incident extends task`), then a row per field, sorted by name: its type, the
    /// table a reference points to, its choices (`value label` pairs) and the table that defines it (the table
    /// itself or one it extends). Read from `sys_db_object`, `sys_dictionary` and `sys_choice` as completion
    /// reads them (once per table).
    func describe(table: String) async -> ReplReply {
        guard !table.isEmpty else { return .rejection(":describe needs a table, as in :describe incident", column: 0) }
        guard NameUse.isTableName(table) else { return .rejection("'\(table)' is not a table name", column: 0) }
        await CancellableWait.value(of: tableLoad())
        let (known, tables) = catalog.withLock { ($0.instanceTables, $0.tables) }
        if known, !tables.contains(table) {
            let hint = table.closest(among: tables).map { "; did you mean '\($0)'?" } ?? ""
            return .rejection("the instance has no table '\(table)'\(hint)", column: 0)
        }
        await CancellableWait.value(of: dictionaryLoad(for: table))
        let schema = catalog.withLock { $0.schema }
        let lineage = schema.lineage(of: table)
        var rows: [JSONValue] = []
        var seen: Set<String> = []
        for owner in lineage {
            for (name, reference) in schema.fields[owner] ?? [:] where seen.insert(name).inserted {
                let choices = schema.choices(of: table, field: name)?.map { $0.label.isEmpty || $0.label == $0.value ? $0.value : "\($0.value) \($0.label)" }
                rows.append(.object([
                    "field": .string(name), "type": .string(schema.type(of: table, field: name) ?? ""),
                    "reference": .string(reference), "choices": .string(choices?.joined(separator: ", ") ?? ""),
                    "table": .string(owner),
                ]))
            }
        }
        guard !rows.isEmpty else {
            return ReplReply(ReplReply.errorText("the instance's dictionary lists no fields for \(table) (or cannot be read)", column: 0))
        }
        rows.sort { ($0.object?["field"]?.string ?? "") < ($1.object?["field"]?.string ?? "") }
        let heading = lineage.count > 1
            ? "\(table) extends \(lineage.dropFirst().joined(separator: ", which extends ")): \(rows.count) fields"
            : "\(table): \(rows.count) fields"
        let records = rows.compactMap { try? NowRecord($0) }
        let columns = ["field", "type", "reference", "choices", "table"]
        return ReplReply(heading + "\n" + renderer.render(records, single: false, fields: columns) { .array(rows) })
    }
}
