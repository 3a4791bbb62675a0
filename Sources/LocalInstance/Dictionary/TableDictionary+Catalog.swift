/// The Service Catalog's tables: catalogs, categories, items and their variables (`item_option_new`, with
/// `question_choice` for the choices of a select box), the carts, the ordered variables (`sc_item_option`, tied to
/// a requested item by `sc_item_option_mtom`), and the records an order creates: `sc_request`, `sc_req_item` and
/// `sc_task`, with the fields of a PDI's (docs/reference/pdi-fields; `priority` is 4 - Low by default, as on
/// `task`).
///
/// What an order creates is declared here too (``CatalogFulfillment``): the Service Catalog API
/// (`ServiceCatalogAPIHandler`) only translates between HTTP and ``ServiceCatalog``, which applies it.
extension TableDictionary {
    /// The catalog's tables, beside the built-in ones.
    static let catalogTables = [
        scCatalog, scCategory, scCatItem, itemOptionNew, questionChoice, scItemOption, scItemOptionMtom, scCart,
        scCartItem,
    ]

    /// What an order creates: an approved request in process, approved items at `request_approved`
    /// (`fulfillment` once a catalog task is open for them) and open tasks.
    static let catalogFulfillment = CatalogFulfillment(
        request: ["request_state": "in_process", "approval": "approved", "state": "1"],
        requestedItem: ["approval": "approved", "stage": "request_approved", "state": "1"],
        stageWithTask: "fulfillment", task: ["state": "1"])

    /// `sc_catalog`: a catalog ("Service Catalog", "Technical Catalog").
    static let scCatalog = TableDefinition(
        name: "sc_catalog", label: "Catalog", application: "Service Catalog", displayField: "title",
        fields: [
            FieldDefinition("title"),
            FieldDefinition("description"),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            FieldDefinition("desktop_image"),
            FieldDefinition("manager", .reference(table: "sys_user")),
            FieldDefinition("editors"),
        ], rules: TableRules(writeRole: "catalog_admin"))

    /// `sc_category`: a category of a catalog, under another category (`parent`) or at the top.
    static let scCategory = TableDefinition(
        name: "sc_category", label: "Category", application: "Service Catalog", displayField: "title",
        fields: [
            FieldDefinition("title"),
            FieldDefinition("description"),
            FieldDefinition("full_description"),
            FieldDefinition("sc_catalog", .reference(table: "sc_catalog"), label: "Catalog"),
            FieldDefinition("parent", .reference(table: "sc_category")),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            FieldDefinition("order", .integer, defaultValue: "0"),
            FieldDefinition("icon"),
            FieldDefinition("header_icon"),
            FieldDefinition("homepage_image"),
        ], rules: TableRules(writeRole: "catalog_admin"))

    /// `sc_cat_item`: an orderable item. `sc_catalogs` lists its catalogs (comma-separated sys_ids), `roles` the
    /// roles one of which a user needs to order it (empty: everyone), `group` the group that fulfils it: an
    /// ordered item with a group gets a catalog task for it (``CatalogFulfillment``).
    static let scCatItem = TableDefinition(
        name: "sc_cat_item", label: "Catalog Item", application: "Service Catalog", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("short_description"),
            FieldDefinition("description"),
            FieldDefinition("sc_catalogs", label: "Catalogs"),
            FieldDefinition("category", .reference(table: "sc_category")),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            FieldDefinition("order", .integer, defaultValue: "0"),
            FieldDefinition("price", .decimal, defaultValue: "0"),
            FieldDefinition("recurring_price", .decimal, defaultValue: "0"),
            FieldDefinition(
                "recurring_frequency", .choice,
                choices: [
                    FieldChoice("daily", "Daily"), FieldChoice("weekly", "Weekly"), FieldChoice("monthly", "Monthly"),
                    FieldChoice("yearly", "Annually"),
                ]),
            FieldDefinition(
                "type", .choice,
                choices: [
                    FieldChoice("item", "Item"), FieldChoice("bundle", "Bundle"), FieldChoice("package", "Package"),
                    FieldChoice("template", "Template"),
                ], defaultValue: "item"),
            FieldDefinition("delivery_time", label: "Delivery time"),
            FieldDefinition("picture"),
            FieldDefinition("icon"),
            FieldDefinition("mandatory_attachment", .boolean, defaultValue: "false"),
            FieldDefinition("no_quantity", .boolean, defaultValue: "false"),
            FieldDefinition("request_method", defaultValue: "order"),
            FieldDefinition("availability", defaultValue: "on_desktop"),
            FieldDefinition("roles"),
            FieldDefinition("group", .reference(table: "sys_user_group"), label: "Fulfillment group"),
        ], rules: TableRules(writeRole: "catalog_admin"))

    /// `item_option_new`: a variable of an item, by `type` (the platform's numbers).
    static let itemOptionNew = TableDefinition(
        name: "item_option_new", label: "Variable", application: "Service Catalog", displayField: "question_text",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("question_text", label: "Question"),
            FieldDefinition("cat_item", .reference(table: "sc_cat_item"), label: "Catalog item"),
            FieldDefinition("type", .integer, choices: CatalogVariableType.allCases.map(\.choice), defaultValue: "6"),
            FieldDefinition("order", .integer, defaultValue: "100"),
            FieldDefinition("mandatory", .boolean, defaultValue: "false"),
            FieldDefinition("read_only", .boolean, defaultValue: "false"),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            FieldDefinition("default_value"),
            FieldDefinition("help_text"),
            FieldDefinition("reference"),
        ], rules: TableRules(writeRole: "catalog_admin"))

    /// `question_choice`: a choice of a select box or multiple-choice variable.
    static let questionChoice = TableDefinition(
        name: "question_choice", label: "Question Choice", application: "Service Catalog", displayField: "text",
        fields: [
            FieldDefinition("question", .reference(table: "item_option_new")),
            FieldDefinition("text"),
            FieldDefinition("value"),
            FieldDefinition("order", .integer, defaultValue: "100"),
        ], rules: TableRules(writeRole: "catalog_admin"))

    /// `sc_item_option`: one variable's value, of a cart item (`cart_item`) or, through `sc_item_option_mtom`, of a
    /// requested item.
    static let scItemOption = TableDefinition(
        name: "sc_item_option", label: "Options", application: "Service Catalog", displayField: "value",
        fields: [
            FieldDefinition("item_option_new", .reference(table: "item_option_new"), label: "Question"),
            FieldDefinition("value"),
            FieldDefinition("order", .integer),
            FieldDefinition("cart_item", .reference(table: "sc_cart_item")),
        ], rules: TableRules(writeRole: "itil"))

    /// `sc_item_option_mtom`: ties an ordered variable to its requested item.
    static let scItemOptionMtom = TableDefinition(
        name: "sc_item_option_mtom", label: "Variable Ownership", application: "Service Catalog",
        displayField: "sc_item_option",
        fields: [
            FieldDefinition("request_item", .reference(table: "sc_req_item"), label: "Parent Item"),
            FieldDefinition("sc_item_option", .reference(table: "sc_item_option"), label: "Dependent Item"),
        ], rules: TableRules(writeRole: "itil"))

    /// `sc_cart`: a user's cart; the Service Catalog API keeps one active cart per user. Emptying another user's
    /// cart is a write to it, which takes `catalog_admin`.
    static let scCart = TableDefinition(
        name: "sc_cart", label: "Cart", application: "Service Catalog", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("user", .reference(table: "sys_user")),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            FieldDefinition("requested_for", .reference(table: "sys_user")),
            FieldDefinition("special_instructions"),
            FieldDefinition("delivery_address"),
        ], rules: TableRules(readRole: "catalog_admin", writeRole: "catalog_admin"))

    /// `sc_cart_item`: an item in a cart, with its quantity; its variables are `sc_item_option` records.
    static let scCartItem = TableDefinition(
        name: "sc_cart_item", label: "Item", application: "Service Catalog", displayField: "cat_item",
        fields: [
            FieldDefinition("cart", .reference(table: "sc_cart")),
            FieldDefinition("cat_item", .reference(table: "sc_cat_item"), label: "Item"),
            FieldDefinition("quantity", .integer, defaultValue: "1"),
            FieldDefinition("requested_for", .reference(table: "sys_user")),
            FieldDefinition("active", .boolean, defaultValue: "true"),
        ], rules: TableRules(readRole: "catalog_admin", writeRole: "catalog_admin"))

    static let scRequest = TableDefinition(
        name: "sc_request", label: "Request", application: "Service Catalog",
        displayField: "number", numberPrefix: "REQ", numberStart: 10001,
        extends: "task",
        fields: taskFields(state: requestStates, stateDefault: "1") + [
            taskPriority,
            FieldDefinition("calendar_stc", .integer),
            FieldDefinition("delivery_address"),
            FieldDefinition("parent_interaction", .reference(table: "interaction")),
            FieldDefinition("price", .decimal, defaultValue: "0"),
            FieldDefinition(
                "request_state", .choice,
                choices: [
                    FieldChoice("requested", "Pending Approval"), FieldChoice("in_process", "Approved"),
                    FieldChoice("closed_complete", "Closed Complete"),
                    FieldChoice("closed_incomplete", "Closed Incomplete"),
                    FieldChoice("closed_cancelled", "Closed Cancelled"),
                    FieldChoice("closed_rejected", "Closed Rejected"), FieldChoice("closed_skipped", "Closed Skipped"),
                ], defaultValue: "requested"),
            FieldDefinition("requested_date", .date),
            FieldDefinition("requested_for", .reference(table: "sys_user")),
            FieldDefinition("special_instructions"),
            FieldDefinition("stage", defaultValue: "requested"),
        ], rules: TableRules(automaticValues: ["request_state": ["submitted": "in_process"]]))

    static let scReqItem = TableDefinition(
        name: "sc_req_item", label: "Requested Item", application: "Service Catalog",
        displayField: "number", numberPrefix: "RITM",
        numberStart: 10001, extends: "task",
        fields: taskFields(state: requestStates, stateDefault: "1") + [
            taskPriority,
            FieldDefinition("backordered", .boolean, defaultValue: "false"),
            FieldDefinition("billable", .boolean, defaultValue: "false"),
            FieldDefinition("cat_item", .reference(table: "sc_cat_item"), label: "Item"),
            FieldDefinition("configuration_item", .reference(table: "cmdb_ci")),
            FieldDefinition("context", .reference(table: "wf_context")),
            FieldDefinition("estimated_delivery", .dateTime),
            FieldDefinition("order_guide", .reference(table: "sc_cat_item_guide")),
            FieldDefinition("price", .decimal, defaultValue: "0"),
            FieldDefinition("quantity", .integer, defaultValue: "1"),
            FieldDefinition("recurring_frequency"),
            FieldDefinition("recurring_price", .decimal, defaultValue: "0"),
            FieldDefinition("request", .reference(table: "sc_request")),
            FieldDefinition("requested_for", .reference(table: "sys_user")),
            FieldDefinition("sc_catalog", .reference(table: "sc_catalog"), label: "Catalog"),
            FieldDefinition("stage", defaultValue: "request_approved"),
        ])

    static let scTask = TableDefinition(
        name: "sc_task", label: "Catalog Task", application: "Service Catalog",
        displayField: "number", numberPrefix: "SCTASK", numberStart: 10001,
        extends: "task",
        fields: taskFields(state: requestStates, stateDefault: "1") + [
            taskPriority,
            FieldDefinition("calendar_stc", .integer),
            FieldDefinition("request", .reference(table: "sc_request")),
            FieldDefinition("request_item", .reference(table: "sc_req_item"), label: "Request item"),
            FieldDefinition("sc_catalog", .reference(table: "sc_catalog"), label: "Catalog"),
        ])

    /// The states of the catalog's requests, items and tasks.
    private static let requestStates = [
        FieldChoice("-5", "Pending"), FieldChoice("1", "Open"), FieldChoice("2", "Work in Progress"),
        FieldChoice("3", "Closed Complete"), FieldChoice("4", "Closed Incomplete"), FieldChoice("7", "Closed Skipped"),
    ]
}
