/// The form views of the platform's UI as records, which the JSONv2 processor's `sysparm_view` reads
/// (``JSONv2Handler``): a view (`sys_ui_view`), a table's form section in a view (`sys_ui_section`) and the fields
/// of a section in order (`sys_ui_element`). None are seeded; the local instance's web forms use their declared
/// ``FormLayout``s, not these records.
extension TableDictionary {
    /// `sys_ui_view`: a view by `name` (`ess`, `itil`), with the `title` a user sees.
    static let sysUIView = TableDefinition(
        name: "sys_ui_view", label: "View", application: "System UI", displayField: "title",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("title"),
        ], rules: TableRules(writeRole: "admin"))

    /// `sys_ui_section`: the form section of the table `name` in the view `view`, with its `caption` (none for
    /// the first section).
    static let sysUISection = TableDefinition(
        name: "sys_ui_section", label: "Form Section", application: "System UI", displayField: "caption",
        fields: [
            FieldDefinition("name", label: "Table"),
            FieldDefinition("view", .reference(table: "sys_ui_view")),
            FieldDefinition("caption"),
        ], rules: TableRules(writeRole: "admin"))

    /// `sys_ui_element`: one field of a form section (`element`, a field name or a dot-walk such as
    /// `caller_id.email`) at its `position`; `type` names the other elements (`.split`, formatters).
    static let sysUIElement = TableDefinition(
        name: "sys_ui_element", label: "Section Element", application: "System UI", displayField: "element",
        fields: [
            FieldDefinition("sys_ui_section", .reference(table: "sys_ui_section"), label: "Section"),
            FieldDefinition("element"),
            FieldDefinition("position", .integer, defaultValue: "0"),
            FieldDefinition("type"),
        ], rules: TableRules(writeRole: "admin"))
}
