extension DemoData {
    /// The sys_ids a fresh PDI gives the catalog records ServiceNow's Service Catalog API documentation shows.
    static let catalogSysIDs: [String: String] = [
        "sc_catalog:Service Catalog": "e0d08b13c3330100c8b837659bba8fb4",
        "sc_catalog:Technical Catalog": "742ce428d7211100f2d224837e61036d",
        "sc_category:Hardware": "d258b953c611227a0146101fb1be7c31",
        "sc_category:Tablets": "b06546f23731300054b6a3549dbe5dd8",
        "sc_category:Desktops": "900682363731300054b6a3549dbe5d5f",
        "sc_category:Can We Help You?": "e15706fc0a0a0aa7007fc21e1ab70c2f",
        "sc_category:Office": "109cdff8c6112276003b17991a09ad65",
        "sc_category:Infrastructure": "803e95e1c3732100fca206e939ba8f2a",
        "sc_category:Services": "d67c446ec0a80165000335aa37eafbc1",
        "sc_cat_item:Apple iPad 3": "060f3afa3731300054b6a3549dbe5d3e",
    ]

    /// The catalogs (`sc_catalog`).
    static let catalogs: [(title: String, description: String)] = [
        ("Service Catalog", "Service Catalog - IT Now"),
        ("Technical Catalog", "Products and services for the IT department"),
    ]

    /// The categories (`sc_category`), each in its catalog, under its parent category (or at the top).
    static let categories: [(title: String, catalog: String, parent: String, description: String)] = [
        ("Hardware", "Service Catalog", "", "Order from a variety of hardware to meet your business needs."),
        ("Laptops", "Service Catalog", "Hardware", "Laptops for your work, at the office or away."),
        ("Tablets", "Service Catalog", "Hardware", "Tablets for the road."),
        ("Desktops", "Service Catalog", "Hardware", "Desktop computers for your work area."),
        ("Can We Help You?", "Service Catalog", "", "Your IT gateway. Report issues and submit requests."),
        ("Office", "Service Catalog", "", "Office services such as printing, supplies and document delivery."),
        ("Infrastructure", "Technical Catalog", "", "Datacenter hardware and services to support business systems."),
        ("Services", "Technical Catalog", "Infrastructure", "Request for IT services to be performed"),
    ]

    /// A demo item's variable (`item_option_new`): its name, question, type, whether it is mandatory, its default
    /// and its choices (`question_choice`, value and text).
    struct CatalogVariable {
        var name: String
        var question: String
        var type: CatalogVariableType
        var mandatory = false
        var defaultValue = ""
        var choices: [(value: String, text: String)] = []
    }

    /// The orderable items (`sc_cat_item`): catalogs, category, price, the roles one of which orders it (empty:
    /// everyone), the fulfilment group and the variables.
    static let catalogItems:
        [(
            name: String, catalogs: [String], category: String, price: String, roles: String, group: String,
            description: String, variables: [CatalogVariable]
        )] = [
            (
                "Standard Laptop", ["Service Catalog"], "Laptops", "1100", "", "Hardware",
                "Lenovo - Carbon x1", [
                    CatalogVariable(name: "acrobat", question: "Adobe Acrobat", type: .checkBox),
                    CatalogVariable(name: "photoshop", question: "Adobe Photoshop", type: .checkBox),
                    CatalogVariable(
                        name: "Additional_software_requirements", question: "Additional software requirements",
                        type: .multiLineText),
                ]
            ),
            ("Apple iPad 3", ["Service Catalog"], "Tablets", "600", "", "Hardware", "Apple iPad 3", []),
            (
                "Standard Desktop", ["Service Catalog"], "Desktops", "800", "", "Hardware", "Dell OptiPlex desktop",
                [
                    CatalogVariable(
                        name: "monitor", question: "Monitor size", type: .selectBox, defaultValue: "24",
                        choices: [("24", "24 inch"), ("27", "27 inch")])
                ]
            ),
            (
                "New Email Account", ["Service Catalog"], "Can We Help You?", "0", "", "Service Desk",
                "Request a new email account", [
                    CatalogVariable(
                        name: "new_email", question: "New email address", type: .singleLineText, mandatory: true)
                ]
            ),
            (
                "File Share Access", ["Service Catalog"], "Can We Help You?", "0", "", "Service Desk",
                "Request access to a shared folder", [
                    CatalogVariable(name: "share", question: "Share path", type: .singleLineText, mandatory: true),
                    CatalogVariable(
                        name: "access", question: "Access", type: .selectBox, defaultValue: "read",
                        choices: [("read", "Read"), ("write", "Read and write")]),
                ]
            ),
            (
                "Provision a Virtual Server", ["Technical Catalog"], "Services", "250", "itil", "Hardware",
                "A virtual server in the datacenter, for IT staff", [
                    CatalogVariable(name: "server_name", question: "Server name", type: .singleLineText, mandatory: true),
                    CatalogVariable(
                        name: "cpus", question: "CPUs", type: .selectBox, defaultValue: "2",
                        choices: [("2", "2"), ("4", "4"), ("8", "8")]),
                    CatalogVariable(
                        name: "environment", question: "Environment", type: .selectBox, defaultValue: "development",
                        choices: [("development", "Development"), ("test", "Test"), ("production", "Production")]),
                ]
            ),
            (
                "Rack a Network Switch", ["Technical Catalog"], "Infrastructure", "0", "itil", "Network",
                "Install a switch in a datacenter cabinet", [
                    CatalogVariable(name: "cabinet", question: "Cabinet", type: .singleLineText, mandatory: true)
                ]
            ),
        ]

    /// Catalogs, categories, items with their variables and choices, and two requests with their item and task.
    static func seedCatalog(_ insert: Inserter) throws {
        for (index, catalog) in catalogs.enumerated() {
            try insert.record(
                "sc_catalog", catalog.title, created: date(Double(-2400 + index)),
                ["title": catalog.title, "description": catalog.description])
        }
        for (index, category) in categories.enumerated() {
            try insert.record(
                "sc_category", category.title, created: date(Double(-2390 + index)),
                [
                    "title": category.title, "description": category.description, "order": String(index * 100),
                    "sc_catalog": sysID("sc_catalog", category.catalog),
                    "parent": category.parent.isEmpty ? "" : sysID("sc_category", category.parent),
                ])
        }
        for (index, item) in catalogItems.enumerated() {
            try insert.record(
                "sc_cat_item", item.name, created: date(Double(-2380 + index)),
                [
                    "name": item.name, "short_description": item.description, "description": item.description,
                    "sc_catalogs": item.catalogs.map { sysID("sc_catalog", $0) }.joined(separator: ","),
                    "category": sysID("sc_category", item.category), "price": item.price, "roles": item.roles,
                    "order": String(index * 10), "delivery_time": "2 Days",
                    "group": sysID("sys_user_group", item.group),
                ])
            for (position, variable) in item.variables.enumerated() {
                let key = "\(item.name)/\(variable.name)"
                try insert.record(
                    "item_option_new", key, created: date(Double(-2380 + index)),
                    [
                        "name": variable.name, "question_text": variable.question,
                        "cat_item": sysID("sc_cat_item", item.name), "type": String(variable.type.rawValue),
                        "order": String((position + 1) * 100), "mandatory": variable.mandatory ? "true" : "false",
                        "default_value": variable.defaultValue,
                    ])
                for (order, choice) in variable.choices.enumerated() {
                    try insert.record(
                        "question_choice", "\(key)/\(choice.value)", created: date(Double(-2380 + index)),
                        [
                            "question": sysID("item_option_new", key), "value": choice.value, "text": choice.text,
                            "order": String((order + 1) * 100),
                        ])
                }
            }
        }
        let requests = [
            ("New laptop", "abel.tuter", "Standard Laptop"),
            ("Access to the finance share", "joe.employee", "File Share Access"),
        ]
        for (index, request) in requests.enumerated() {
            let opened = date(Double(700 + index * 10))
            try insert.record(
                "sc_request", "REQ\(index)", created: opened,
                [
                    "short_description": request.0, "requested_for": sysID("sys_user", request.1),
                    "opened_by": sysID("sys_user", request.1), "opened_at": opened, "request_state": "in_process",
                    "approval": "approved", "state": "2",
                ])
            try insert.record(
                "sc_req_item", "RITM\(index)", created: opened,
                [
                    "short_description": request.0, "request": sysID("sc_request", "REQ\(index)"),
                    "cat_item": sysID("sc_cat_item", request.2), "sc_catalog": sysID("sc_catalog", "Service Catalog"),
                    "requested_for": sysID("sys_user", request.1), "opened_by": sysID("sys_user", request.1),
                    "opened_at": opened, "state": "2", "approval": "approved", "stage": "fulfillment",
                ])
            try insert.record(
                "sc_task", "SCTASK\(index)", created: opened,
                [
                    "short_description": "Fulfil: \(request.0.lowercased())",
                    "request_item": sysID("sc_req_item", "RITM\(index)"), "request": sysID("sc_request", "REQ\(index)"),
                    "sc_catalog": sysID("sc_catalog", "Service Catalog"),
                    "assignment_group": sysID("sys_user_group", "Service Desk"), "opened_at": opened, "state": "1",
                ])
        }
    }
}
