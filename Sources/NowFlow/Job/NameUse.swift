/// A table or field name a job file writes literally (`table: incident`, a `where:` key, an item of `fields:`,
/// `order_by:`), with where it is written: what the name check looks up in the instance's dictionary. A name
/// given by a `${...}` template is known only at run time and is not checked.
struct NameUse: Sendable, Hashable {
    /// A table name, or a field name or dot-walk (`caller_id.department.name`).
    var name: String
    /// The table of a field; nil when the name is a table's.
    var table: String?
    var mark: YAMLMark
    /// The file the name is written in (an included file's, for the steps of an `include`).
    var file: String?

    /// The names written in the steps and `finally` (foreach bodies included) of a job file's tree.
    static func uses(in root: YAMLNode?) -> [NameUse] {
        var uses: [NameUse] = []
        for pair in root?.pairs ?? [] where pair.name == "steps" || pair.name == "finally" {
            collectSteps(pair.value, into: &uses)
        }
        return uses
    }

    private static func collectSteps(_ node: YAMLNode, into uses: inout [NameUse]) {
        for step in node.items ?? [] {
            for pair in step.pairs ?? [] {
                switch pair.name {
                case "steps": collectSteps(pair.value, into: &uses)
                case "query", "get", "create", "update", "delete": collectRecordStep(pair.value, into: &uses)
                default: break
                }
            }
        }
    }

    private static func literal(_ node: YAMLNode) -> String? {
        guard let text = node.scalarText, !text.contains("${"), !text.isEmpty else { return nil }
        return text
    }

    private static func collectRecordStep(_ node: YAMLNode, into uses: inout [NameUse]) {
        guard let pairs = node.pairs, let tableNode = pairs.first(where: { $0.name == "table" })?.value,
            let table = literal(tableNode)
        else { return }
        uses.append(NameUse(name: table, table: nil, mark: tableNode.mark))
        func field(_ name: String, _ mark: YAMLMark) {
            uses.append(NameUse(name: name, table: table, mark: mark))
        }
        for pair in pairs {
            switch pair.name {
            case "where":
                for condition in pair.value.pairs ?? [] { field(condition.name, condition.key.mark) }
            case "fields":
                if let items = pair.value.items {
                    for item in items { if let name = literal(item) { field(name, item.mark) } }
                } else if let members = pair.value.pairs {
                    for member in members where member.name != "sys_id" { field(member.name, member.key.mark) }
                } else if let text = literal(pair.value) {
                    for name in text.split(separator: ",") {
                        field(name.trimmingCharacters(in: .whitespaces), pair.value.mark)
                    }
                }
            case "order_by", "order_by_desc":
                if let name = literal(pair.value) { field(name, pair.value.mark) }
            default:
                break
            }
        }
    }
}
