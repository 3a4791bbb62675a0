extension TableDictionary {
    /// The knowledge tables: knowledge bases, their categories and articles, as the MCP server for ServiceNow and
    /// other clients write and read them (docs/reference/pdi-fields/kb_*.json).
    static let knowledgeTables = [kbKnowledgeBase, kbCategory, kbKnowledge]

    /// `kb_knowledge_base`: the knowledge bases.
    static let kbKnowledgeBase = TableDefinition(
        name: "kb_knowledge_base", label: "Knowledge Base", application: "Knowledge", displayField: "title",
        fields: [
            FieldDefinition("title"),
            FieldDefinition("description"),
            FieldDefinition("owner", .reference(table: "sys_user")),
            FieldDefinition("kb_managers", label: "Managers"),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            FieldDefinition("kb_version", .choice, label: "Version", choices: [
                FieldChoice("2", "2"), FieldChoice("3", "3"),
            ], defaultValue: "3"),
            FieldDefinition("workflow_publish", label: "Publish workflow"),
            FieldDefinition("workflow_retire", label: "Retire workflow"),
            // The other fields of a knowledge base's record (docs/reference/pdi-fields/kb_knowledge_base.json).
            FieldDefinition("table", defaultValue: "kb_knowledge"),
            FieldDefinition("order", .integer),
            FieldDefinition("icon"),
            FieldDefinition("card_color"),
            FieldDefinition("template"),
            FieldDefinition("mandatory_fields"),
            FieldDefinition("question_annotation"),
            FieldDefinition("approval_description"),
            FieldDefinition("enable_socialqa", .boolean, label: "Enable Social Q&A", defaultValue: "false"),
            FieldDefinition("disable_commenting", .boolean, defaultValue: "false"),
            FieldDefinition("disable_suggesting", .boolean, defaultValue: "true"),
            FieldDefinition("disable_category_editing", .boolean, defaultValue: "true"),
            FieldDefinition.domain,
            FieldDefinition("sys_tags"),
        ], rules: TableRules(writeRole: "knowledge_admin"))

    /// `kb_category`: the categories of a knowledge base, a tree under it (`parent_table` names the parent's
    /// table: `kb_knowledge_base` at the top, `kb_category` below).
    static let kbCategory = TableDefinition(
        name: "kb_category", label: "Category", application: "Knowledge", displayField: "label",
        fields: [
            FieldDefinition("label"),
            FieldDefinition("value"),
            FieldDefinition("parent_table"),
            FieldDefinition("parent_id", label: "Parent"),
            FieldDefinition("full_category"),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            FieldDefinition("sys_tags"),
        ], rules: TableRules(writeRole: "knowledge"))

    /// `kb_knowledge`: the knowledge articles, numbered `KB0010001` and up; `author` defaults to the user who creates
    /// the article, as on a PDI.
    static let kbKnowledge = TableDefinition(
        name: "kb_knowledge", label: "Knowledge", application: "Knowledge",
        displayField: "number", numberPrefix: "KB", numberStart: 10001,
        fields: [
            FieldDefinition("number"),
            FieldDefinition("short_description"),
            FieldDefinition("text", label: "Article body"),
            FieldDefinition("kb_knowledge_base", .reference(table: "kb_knowledge_base"), label: "Knowledge base"),
            FieldDefinition("kb_category", .reference(table: "kb_category"), label: "Category"),
            FieldDefinition(
                "workflow_state", .choice,
                choices: [
                    FieldChoice("draft", "Draft"), FieldChoice("review", "Review"),
                    FieldChoice("published", "Published"), FieldChoice("pending_retirement", "Pending retirement"),
                    FieldChoice("retired", "Retired"), FieldChoice("outdated", "Outdated"),
                ], defaultValue: "draft"),
            FieldDefinition(
                "article_type", .choice, choices: [FieldChoice("text", "HTML"), FieldChoice("wiki", "Wiki")],
                defaultValue: "text"),
            FieldDefinition("author", .reference(table: "sys_user")),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            FieldDefinition("published", .date),
            FieldDefinition("valid_to", .date),
            FieldDefinition("retired", .date),
            FieldDefinition("meta", label: "Meta"),
            FieldDefinition("meta_description"),
            FieldDefinition("topic", defaultValue: "General"),
            FieldDefinition("category"),
            FieldDefinition("cmdb_ci", .reference(table: "cmdb_ci"), label: "Configuration item"),
            FieldDefinition("source", .reference(table: "task")),
            FieldDefinition("description"),
            FieldDefinition("roles"),
            FieldDefinition("wiki"),
            FieldDefinition("image"),
            FieldDefinition("rating", .decimal),
            FieldDefinition("use_count", .integer, defaultValue: "0"),
            FieldDefinition("sys_view_count", .integer, label: "View count", defaultValue: "0"),
            FieldDefinition("direct", .boolean, defaultValue: "false"),
            FieldDefinition("flagged", .boolean, defaultValue: "false"),
            FieldDefinition("disable_commenting", .boolean, defaultValue: "false"),
            FieldDefinition("disable_suggesting", .boolean, defaultValue: "false"),
            FieldDefinition("display_attachments", .boolean, defaultValue: "false"),
            FieldDefinition("can_read_user_criteria"),
            FieldDefinition("cannot_read_user_criteria"),
            FieldDefinition.domain,
            FieldDefinition("sys_domain_path", defaultValue: "/"),
            FieldDefinition("sys_tags"),
        ], rules: TableRules(writeRole: "knowledge", userDefaults: ["author"]))
}
