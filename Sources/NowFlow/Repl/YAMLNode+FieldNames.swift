/// The field names a typed step names, which the REPL checks against the instance's dictionary before sending it.
extension YAMLNode {
    /// The field names this mapping of a `kind` (the value of `query:`) names, with their columns: `fields` (a
    /// list, a comma-separated text or, in a create or update, the mapping of values), the keys of `where`, the
    /// orderings, and an aggregate's fields.
    func fieldNames(ofKind kind: String) -> [(String, Int)] {
        var names: [(String, Int)] = []
        for pair in pairs ?? [] {
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
