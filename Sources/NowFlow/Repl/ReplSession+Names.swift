import Foundation

/// Table and field names checked before a typed step is sent: a name the instance does not have is answered with
/// the closest one it has, from its `sys_db_object` and `sys_dictionary` (the same lists completion offers), rather
/// than with the instance's 400 or an empty result. An instance that refuses those tables is not checked.
extension ReplSession {
    /// The error for the first table or field of the step (a record step whose table is written out) that the
    /// instance does not have; nil when all are known, or cannot be checked.
    func unknownName(in node: YAMLNode) async -> String? {
        guard
            let pair = node.pairs?.first(where: {
                [.records, .attachments].contains(JobSchema.kind($0.name)?.group)
            }),
            let tableNode = pair.value.pairs?.first(where: { $0.name == "table" })?.value,
            let table = tableNode.scalarText, NameUse.isTableName(table)
        else { return nil }
        await CancellableWait.value(of: tableLoad())
        guard !Task.isCancelled else { return nil }
        let (known, tables) = catalog.withLock { ($0.instanceTables, $0.tables) }
        if known, !tables.contains(table) {
            let hint = table.closest(among: tables).map { "; did you mean '\($0)'?" } ?? ""
            return Self.errorText("the instance has no table '\(table)'\(hint)", column: tableNode.mark.column)
        }
        await CancellableWait.value(of: dictionaryLoad(for: table))
        guard !Task.isCancelled, let fields = catalog.withLock({ $0.checkedFields(of: table) }) else {
            return nil
        }
        for (name, column) in Self.fieldNames(in: pair.value, kind: pair.name) {
            // A dot-walked name (`caller_id.name`) is checked up to its first part.
            let field = String(name.prefix { $0 != "." })
            guard NameUse.isFieldName(field), !fields.contains(field) else { continue }
            let hint = field.closest(among: fields).map { "; did you mean '\($0)'?" } ?? ""
            return Self.errorText("\(table) has no field '\(field)'\(hint)", column: column)
        }
        return nil
    }

    /// The field names a step's mapping names, with their columns: `fields` (a list, a comma-separated text or, in
    /// a create or update, the mapping of values), the keys of `where`, the orderings, and an aggregate's fields.
    private static func fieldNames(in mapping: YAMLNode, kind: String) -> [(String, Int)] {
        var names: [(String, Int)] = []
        for pair in mapping.pairs ?? [] {
            switch pair.name {
            case "fields" where kind == "create" || kind == "update", "where":
                names += (pair.value.pairs ?? []).map { ($0.name, $0.key.mark.column) }
            case "order_by" where kind == "aggregate", "max" where kind != "aggregate":
                // An aggregate's order_by is COUNT^DESC or a group field; an update's max is a number.
                break
            case "fields", "order_by", "order_by_desc", "group_by", "sum", "avg", "min", "max":
                if let text = pair.value.scalarText, !text.contains("${") {
                    names += text.split(separator: ",").map { (String($0).trimmingCharacters(in: .whitespaces), pair.value.mark.column) }
                } else if case .sequence(let items) = pair.value.content {
                    names += items.compactMap { item in item.scalarText.map { ($0, item.mark.column) } }
                }
            default: break
            }
        }
        return names
    }
}
