/// How a table's form view arranges its fields, as the platform's default form layouts do: sections, each with
/// two columns of fields and the wide fields (descriptions, journals) below them across the page.
///
/// The built-in tables the platform's users open most have the layouts of a PDI's default forms
/// (``builtIn``); any other table gets ``generic(_:)``. A field a layout does not name (or that the table does not
/// have) is not lost: the form lists the rest under "Other fields".
struct FormLayout: Sendable, Hashable {
    /// One section of a form: a title (none for the first), two columns and the wide fields below them.
    struct Section: Sendable, Hashable {
        var title: String?
        var left: [String]
        var right: [String]
        var wide: [String]

        init(_ title: String? = nil, left: [String] = [], right: [String] = [], wide: [String] = []) {
            self.title = title
            self.left = left
            self.right = right
            self.wide = wide
        }

        /// Every field the section names, in the order the form shows them.
        var fieldNames: [String] { left + right + wide }
    }

    var sections: [Section]

    /// The layout of `table`'s form: its declared one, else ``generic(_:)``.
    static func of(_ table: TableDefinition) -> FormLayout {
        builtIn[table.name] ?? generic(table)
    }

    /// The fields written across the page rather than in a column, when a layout does not say.
    static let wideFieldNames: Set<String> = ["description", "work_notes", "comments", "close_notes"]

    /// A table without a declared layout: one section, its fields (not the system fields) in two columns in
    /// dictionary order, the first half on the left, and the descriptions and journals across the page below.
    static func generic(_ table: TableDefinition) -> FormLayout {
        let fields = table.fields.map(\.name).filter { !TableDefinition.systemFieldNames.contains($0) }
        let columns = fields.filter { !wideFieldNames.contains($0) }
        let half = (columns.count + 1) / 2
        return FormLayout(sections: [
            Section(
                left: Array(columns.prefix(half)), right: Array(columns.dropFirst(half)),
                wide: fields.filter { wideFieldNames.contains($0) })
        ])
    }
}
