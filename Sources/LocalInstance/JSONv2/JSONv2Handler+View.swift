import NowData

/// `sysparm_view`: a `get` or `getRecords` answers only the fields of the table's form in that view, dot-walks
/// included (`caller_id.email`), as the platform's JSONv2 documentation says (`c_ActionParameters.md`); a view that
/// does not exist, or has no form section for the table, answers every field.
extension JSONv2Handler {
    /// The fields of `table`'s form in the view named `view` (`sys_ui_view.name`), sections in the order they were
    /// made and each section's elements by `position`; nil when there are none. An element that is no field of the
    /// table, directly or through references (a split, a formatter), and a password field, which no one reads, are
    /// left out.
    func viewFields(_ view: String, of table: TableDefinition) throws -> [String]? {
        guard !view.isEmpty, let views = tables.dictionary.table("sys_ui_view"),
            let sections = tables.dictionary.table("sys_ui_section"),
            let elements = tables.dictionary.table("sys_ui_element")
        else { return nil }
        let fields = try tables.database.read { db -> [String] in
            let viewIDs = try tables.store.select(
                views, where: "\"name\" = ?", [.text(view)], orderBy: "", limit: -1, offset: 0, db
            ).compactMap { $0["sys_id"] }
            var names: [String] = []
            for viewID in viewIDs {
                for section in try tables.store.select(
                    sections, where: "\"name\" = ? AND \"view\" = ?", [.text(table.name), .text(viewID)],
                    orderBy: "\"sys_created_on\"", limit: -1, offset: 0, db)
                {
                    names += try tables.store.select(
                        elements, where: "\"sys_ui_section\" = ?", [.text(section["sys_id"] ?? "")],
                        orderBy: "\"position\"", limit: -1, offset: 0, db
                    ).compactMap { $0["element"] }
                }
            }
            return names
        }
        let known = fields.filter { name in
            guard let walked = tables.dictionary.walk(FieldPath(name), from: table.name) else { return false }
            return !walked.field.isPassword
        }
        var seen = Set<String>()
        let unique = known.filter { seen.insert($0).inserted }
        return unique.isEmpty ? nil : unique
    }
}
