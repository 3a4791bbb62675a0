extension TableDictionary {
    /// The built-in tables: users and their preferences, departments, groups and roles, locations, cost centers,
    /// companies, the task tables of the ITSM core (incident, problem, change and their tasks, the catalog's
    /// requests), standard-change templates, approvals, the CMDB with its common classes, models and relationships,
    /// knowledge bases and articles, assets, the system log, charts, business rules, the read-only dictionary tables,
    /// the attachments and the field-level history (`sys_audit`).
    static let builtIn = TableDictionary([
        sysUser, cmnDepartment, sysUserGroup, sysUserGroupMember, sysUserRole, sysUserHasRole, sysGroupHasRole,
        sysUserPreference, cmnLocation, cmnCostCenter, coreCompany, task, incident, problem, problemTask, incidentTask,
        changeRequest, changeTask, chgModel, stdChangeProducerVersion, stdChangeRecordProducer, conflict, scRequest,
        scReqItem, scTask, cmdbCI, cmdbCIHardware,
        cmdbCIComputer, cmdbCIServer, cmdbCILinuxServer, cmdbCIWinServer, cmdbCIVMObject, cmdbCIVMInstance,
        cmdbCIEC2Instance, cmdbCIDatabase, cmdbCIAppl, cmdbCIService, cmdbModel, cmdbRelType, cmdbRelCI,
        sysApprovalApprover, almAsset, syslog, bsmChart, sysScript, sysMetadata, sysDBObject, sysDictionary,
        sysDocumentation, sysChoice, sysAttachment, sysAudit, sysTinyURL, oauthEntity, oauthJWT, sysAPIKey,
        sysUserCertificate, sysCertificate, jwtVerifierMap, sysRateLimitRules, sysUIView, sysUISection, sysUIElement,
    ] + scheduleTables + importSetTables + catalogTables + knowledgeTables)

    private static let impactChoices = [
        FieldChoice("1", "1 - High"), FieldChoice("2", "2 - Medium"), FieldChoice("3", "3 - Low"),
    ]
    private static let priorityChoices = [
        FieldChoice("1", "1 - Critical"), FieldChoice("2", "2 - High"), FieldChoice("3", "3 - Moderate"),
        FieldChoice("4", "4 - Low"), FieldChoice("5", "5 - Planning"),
    ]

    /// The fields every task table shares (task, incident, problem, change_request).
    static func taskFields(state: [FieldChoice], stateDefault: String) -> [FieldDefinition] {
        [
            FieldDefinition("number"),
            FieldDefinition("short_description"),
            FieldDefinition("description"),
            FieldDefinition("state", .integer, choices: state, defaultValue: stateDefault),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            FieldDefinition("impact", .integer, choices: impactChoices, defaultValue: "3"),
            FieldDefinition("urgency", .integer, choices: impactChoices, defaultValue: "3"),
            FieldDefinition("priority", .integer, choices: priorityChoices, defaultValue: "5"),
            FieldDefinition("assignment_group", .reference(table: "sys_user_group")),
            FieldDefinition("assigned_to", .reference(table: "sys_user")),
            FieldDefinition("opened_at", .dateTime, label: "Opened"),
            FieldDefinition("opened_by", .reference(table: "sys_user")),
            FieldDefinition("closed_at", .dateTime, label: "Closed"),
            FieldDefinition("closed_by", .reference(table: "sys_user")),
            FieldDefinition("due_date", .dateTime, label: "Due date"),
            FieldDefinition("cmdb_ci", .reference(table: "cmdb_ci"), label: "Configuration item"),
            FieldDefinition("close_notes"),
            FieldDefinition("work_notes"),
            FieldDefinition("comments", label: "Additional comments"),
            FieldDefinition("user_input"),
            FieldDefinition(
                "approval", .choice,
                choices: [
                    FieldChoice("not requested", "Not Yet Requested"), FieldChoice("requested", "Requested"),
                    FieldChoice("approved", "Approved"), FieldChoice("rejected", "Rejected"),
                    FieldChoice("cancelled", "Cancelled"), FieldChoice("not_required", "No Longer Required"),
                    FieldChoice("duplicate", "Duplicate"),
                ], defaultValue: "not requested"),
        ] + pdiTaskFields
    }

    /// `task.priority` as a PDI declares it: 4 - Low by default (incident's and problem's follow impact and urgency:
    /// 5 for 3 and 3), also on the task tables that do not compute it (problem_task).
    static let taskPriority = FieldDefinition(
        "priority", .integer, choices: priorityChoices, defaultValue: "4")

    /// The other fields of a PDI's task records (docs/reference/pdi-fields/task.json): durations, journal lists
    /// and glide lists are text; `sys_domain` is `global` and `sys_tags` empty, as a PDI answers them.
    private static let pdiTaskFields: [FieldDefinition] = [
        FieldDefinition("activity_due", .dateTime),
        FieldDefinition("additional_assignee_list"),
        FieldDefinition("approval_history"),
        FieldDefinition("approval_set", .dateTime),
        FieldDefinition("business_duration"),
        FieldDefinition("business_service", .reference(table: "cmdb_ci_service")),
        FieldDefinition("calendar_duration"),
        FieldDefinition("comments_and_work_notes"),
        FieldDefinition("company", .reference(table: "core_company")),
        FieldDefinition(
            "contact_type", .choice,
            choices: [
                FieldChoice("email", "Email"), FieldChoice("phone", "Phone"),
                FieldChoice("self-service", "Self-service"), FieldChoice("walk-in", "Walk-in"),
            ]),
        FieldDefinition("contract", .reference(table: "ast_contract")),
        FieldDefinition("correlation_display"),
        FieldDefinition("correlation_id"),
        FieldDefinition("delivery_plan", .reference(table: "sc_cat_item_delivery_plan")),
        FieldDefinition("delivery_task", .reference(table: "sc_cat_item_delivery_task")),
        FieldDefinition(
            "escalation", .integer,
            choices: [
                FieldChoice("0", "Normal"), FieldChoice("1", "Moderate"), FieldChoice("2", "High"),
                FieldChoice("3", "Overdue"),
            ], defaultValue: "0"),
        FieldDefinition("expected_start", .dateTime),
        FieldDefinition("follow_up", .dateTime),
        FieldDefinition("group_list"),
        FieldDefinition("knowledge", .boolean, defaultValue: "false"),
        FieldDefinition("location", .reference(table: "cmn_location")),
        FieldDefinition("made_sla", .boolean, defaultValue: "true"),
        FieldDefinition("order", .integer),
        FieldDefinition("parent", .reference(table: "task")),
        FieldDefinition("reassignment_count", .integer, defaultValue: "0"),
        FieldDefinition("route_reason", .integer),
        FieldDefinition("service_offering", .reference(table: "service_offering")),
        FieldDefinition("sla_due", .dateTime),
        FieldDefinition.domain,
        FieldDefinition("sys_domain_path", defaultValue: "/"),
        FieldDefinition("sys_tags"),
        FieldDefinition("task_effective_number"),
        FieldDefinition("time_worked"),
        FieldDefinition("universal_request", .reference(table: "task")),
        FieldDefinition(
            "upon_approval", .choice,
            choices: [
                FieldChoice("proceed", "Proceed to Next Task"),
                FieldChoice("do_nothing", "Wait for a User to Close this task"),
            ], defaultValue: "proceed"),
        FieldDefinition(
            "upon_reject", .choice,
            choices: [
                FieldChoice("cancel", "Cancel all future Tasks"), FieldChoice("goto", "Go to a previous Task"),
            ], defaultValue: "cancel"),
        FieldDefinition("watch_list"),
        FieldDefinition("work_end", .dateTime),
        FieldDefinition("work_notes_list"),
        FieldDefinition("work_start", .dateTime),
    ]

    static let sysUser = TableDefinition(
        name: "sys_user", label: "User", application: "User Administration", displayField: "name",
        fields: [
            FieldDefinition("user_name", label: "User ID"),
            FieldDefinition("name"),
            FieldDefinition("first_name"),
            FieldDefinition("last_name"),
            FieldDefinition("email"),
            FieldDefinition("title"),
            FieldDefinition("department", .reference(table: "cmn_department")),
            FieldDefinition("location", .reference(table: "cmn_location")),
            FieldDefinition("phone", label: "Business phone"),
            FieldDefinition("mobile_phone"),
            FieldDefinition("manager", .reference(table: "sys_user")),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            FieldDefinition("locked_out", .boolean, defaultValue: "false"),
            FieldDefinition("vip", .boolean, label: "VIP", defaultValue: "false"),
            FieldDefinition("user_password", label: "Password", isPassword: true),
            FieldDefinition("time_zone", label: "Time zone"),
            FieldDefinition(
                "date_format", .choice,
                choices: UserDateDisplay.dateFormats.map { FieldChoice($0, $0) }),
            // The other fields of a PDI's users (docs/reference/pdi-fields/sys_user.json).
            FieldDefinition("avatar"),
            FieldDefinition("building", .reference(table: "cmn_building")),
            FieldDefinition(
                "calendar_integration", .integer,
                choices: [
                    FieldChoice("1", "Outlook"),
                ], defaultValue: "1"),
            FieldDefinition("city"),
            FieldDefinition("company", .reference(table: "core_company")),
            FieldDefinition("cost_center", .reference(table: "cmn_cost_center")),
            FieldDefinition("country"),
            FieldDefinition("default_perspective", .reference(table: "sys_perspective")),
            FieldDefinition("employee_number"),
            FieldDefinition("enable_multifactor_authn", .boolean, defaultValue: "false"),
            FieldDefinition("failed_attempts", .integer),
            FieldDefinition(
                "gender", .choice,
                choices: [
                    FieldChoice("Male", "Male"), FieldChoice("Female", "Female"),
                    FieldChoice("Not Specified", "Not Specified"),
                ]),
            FieldDefinition("home_phone"),
            FieldDefinition("internal_integration_user", .boolean, defaultValue: "false"),
            FieldDefinition("introduction"),
            FieldDefinition("last_login", .date),
            FieldDefinition("last_login_time", .dateTime),
            FieldDefinition("ldap_server", .reference(table: "ldap_server_config")),
            FieldDefinition("middle_name"),
            FieldDefinition(
                "notification", .integer,
                choices: [
                    FieldChoice("1", "Disable"), FieldChoice("2", "Enable"),
                ], defaultValue: "2"),
            FieldDefinition("password_needs_reset", .boolean, defaultValue: "false"),
            FieldDefinition("photo"),
            FieldDefinition("preferred_language"),
            FieldDefinition("roles"),
            FieldDefinition("schedule", .reference(table: "cmn_schedule")),
            FieldDefinition("source"),
            FieldDefinition("state"),
            FieldDefinition("street"),
            FieldDefinition.domain,
            FieldDefinition("sys_domain_path", defaultValue: "/"),
            FieldDefinition("sys_tags"),
            FieldDefinition("time_format"),
            FieldDefinition("web_service_access_only", .boolean, defaultValue: "false"),
            FieldDefinition("zip"),
        ], rules: TableRules(writeRole: "user_admin"))

    static let cmnDepartment = TableDefinition(
        name: "cmn_department", label: "Department", application: "Organization", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("id", label: "ID"),
            FieldDefinition("description"),
            FieldDefinition("dept_head", .reference(table: "sys_user"), label: "Department head"),
            FieldDefinition("parent", .reference(table: "cmn_department")),
            FieldDefinition("cost_center"),
            FieldDefinition("head_count", .integer),
            // The other fields of a PDI's departments (docs/reference/pdi-fields/cmn_department.json).
            FieldDefinition("business_unit", .reference(table: "business_unit")),
            FieldDefinition("code"),
            FieldDefinition("company", .reference(table: "core_company")),
            FieldDefinition("primary_contact", .reference(table: "sys_user")),
            FieldDefinition("sys_tags"),
        ], rules: TableRules(writeRole: "user_admin"))

    /// `cmn_location`: the locations (docs/reference/pdi-fields/cmn_location.json).
    static let cmnLocation = TableDefinition(
        name: "cmn_location", label: "Location", application: "Organization", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("full_name"),
            FieldDefinition("street"),
            FieldDefinition("city"),
            FieldDefinition("state", label: "State / Province"),
            FieldDefinition("zip", label: "Zip / Postal code"),
            FieldDefinition("country"),
            FieldDefinition("parent", .reference(table: "cmn_location")),
            FieldDefinition("company", .reference(table: "core_company")),
            FieldDefinition("contact", .reference(table: "sys_user")),
            FieldDefinition("phone"),
            FieldDefinition("fax_phone"),
            FieldDefinition("phone_territory", .reference(table: "sys_phone_territory")),
            FieldDefinition("latitude", .decimal),
            FieldDefinition("longitude", .decimal),
            FieldDefinition("lat_long_error"),
            FieldDefinition("time_zone"),
            FieldDefinition("stock_room", .boolean, defaultValue: "false"),
            FieldDefinition("cmn_location_source", label: "Location source"),
            FieldDefinition("cmn_location_type", label: "Location type"),
            FieldDefinition("coordinates_retrieved_on", .dateTime),
            FieldDefinition("duplicate", .boolean, defaultValue: "false"),
            FieldDefinition("life_cycle_stage", .reference(table: "life_cycle_stage")),
            FieldDefinition("life_cycle_stage_status", .reference(table: "life_cycle_stage_status")),
            FieldDefinition("managed_by_group", .reference(table: "sys_user_group")),
            FieldDefinition("primary_location", .reference(table: "cmn_location")),
            FieldDefinition("sys_tags"),
        ], rules: TableRules(writeRole: "admin"))

    /// `cmn_cost_center`: the cost centers (docs/reference/pdi-fields/cmn_cost_center.json).
    static let cmnCostCenter = TableDefinition(
        name: "cmn_cost_center", label: "Cost Center", application: "Organization", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("code"),
            FieldDefinition("account_number"),
            FieldDefinition("manager", .reference(table: "sys_user")),
            FieldDefinition("parent", .reference(table: "cmn_cost_center")),
            FieldDefinition("location", .reference(table: "cmn_location")),
            FieldDefinition("valid_from", .date),
            FieldDefinition("valid_to", .date),
            FieldDefinition("sys_tags"),
        ], rules: TableRules(writeRole: "admin"))

    /// `sys_user_preference`: a user's settings by name (or a system-wide one: `system`, no `user`), which clients
    /// such as ServiceNow's WorkArena set through the Table API (docs/reference/pdi-fields/sys_user_preference.json).
    static let sysUserPreference = TableDefinition(
        name: "sys_user_preference", label: "User Preference", application: "User Administration", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("value"),
            FieldDefinition("user", .reference(table: "sys_user")),
            FieldDefinition("description"),
            FieldDefinition("system", .boolean, defaultValue: "false"),
            FieldDefinition("type", defaultValue: "string"),
            FieldDefinition("sys_tags"),
        ])

    static let sysUserGroup = TableDefinition(
        name: "sys_user_group", label: "Group", application: "User Administration", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("description"),
            FieldDefinition("email", label: "Group email"),
            FieldDefinition("manager", .reference(table: "sys_user")),
            FieldDefinition("parent", .reference(table: "sys_user_group")),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            // The other fields of a PDI's groups (docs/reference/pdi-fields/sys_user_group.json).
            FieldDefinition("cost_center", .reference(table: "cmn_cost_center")),
            FieldDefinition("default_assignee", .reference(table: "sys_user")),
            FieldDefinition("exclude_manager", .boolean, defaultValue: "false"),
            FieldDefinition("include_members", .boolean, defaultValue: "false"),
            FieldDefinition("roles"),
            FieldDefinition("source"),
            FieldDefinition("sys_tags"),
            FieldDefinition("type"),
        ], rules: TableRules(writeRole: "user_admin"))

    static let sysUserGroupMember = TableDefinition(
        name: "sys_user_grmember", label: "Group Member", application: "User Administration", displayField: "user",
        fields: [
            FieldDefinition("user", .reference(table: "sys_user")),
            FieldDefinition("group", .reference(table: "sys_user_group")),
            // As a PDI answers it (docs/reference/pdi-fields/sys_user_grmember.json).
            FieldDefinition("sys_tags"),
        ], rules: TableRules(writeRole: "user_admin"))

    /// Task states as the platform defines them (on `task`, and on the tables that keep them, such as
    /// `incident_task`).
    static let taskStates = [
        FieldChoice("-5", "Pending"), FieldChoice("1", "Open"), FieldChoice("2", "Work in Progress"),
        FieldChoice("3", "Closed Complete"), FieldChoice("4", "Closed Incomplete"), FieldChoice("7", "Closed Skipped"),
    ]

    static let task = TableDefinition(
        name: "task", label: "Task", application: "Service Desk",
        displayField: "number", numberPrefix: "TASK", numberStart: 10001,
        fields: taskFields(state: taskStates, stateDefault: "1") + [taskPriority], rules: TableRules(
            writeRole: "itil", stateEffects: .init(inactive: ["3", "4", "7"], closed: ["3", "4", "7"]),
            stampsOpening: true))

    /// Incident states as the platform defines them.
    static let incidentStates = [
        FieldChoice("1", "New"), FieldChoice("2", "In Progress"), FieldChoice("3", "On Hold"),
        FieldChoice("6", "Resolved"), FieldChoice("7", "Closed"), FieldChoice("8", "Canceled"),
    ]

    static let incident = TableDefinition(
        name: "incident", label: "Incident", application: "Incident",
        displayField: "number", numberPrefix: "INC", numberStart: 10001,
        extends: "task",
        fields: taskFields(state: incidentStates, stateDefault: "1") + [
            FieldDefinition("caller_id", .reference(table: "sys_user"), label: "Caller"),
            FieldDefinition(
                "category", .choice,
                choices: [
                    FieldChoice("inquiry", "Inquiry / Help"), FieldChoice("software", "Software"),
                    FieldChoice("hardware", "Hardware"), FieldChoice("network", "Network"),
                    FieldChoice("database", "Database"),
                ], defaultValue: "inquiry"),
            FieldDefinition(
                "subcategory", .choice,
                choices: [
                    FieldChoice("antivirus", "Antivirus"), FieldChoice("email", "Email"),
                    FieldChoice("internal application", "Internal Application"), FieldChoice("os", "Operating System"),
                    FieldChoice("cpu", "CPU"), FieldChoice("disk", "Disk"), FieldChoice("keyboard", "Keyboard"),
                    FieldChoice("memory", "Memory"), FieldChoice("monitor", "Monitor"), FieldChoice("mouse", "Mouse"),
                    FieldChoice("dhcp", "DHCP"), FieldChoice("dns", "DNS"), FieldChoice("vpn", "VPN"),
                    FieldChoice("wireless", "Wireless"), FieldChoice("db2", "DB2"), FieldChoice("oracle", "Oracle"),
                    FieldChoice("sql server", "MS SQL Server"),
                ]),
            FieldDefinition(
                "contact_type", .choice, label: "Channel",
                choices: [
                    FieldChoice("chat", "Chat"), FieldChoice("email", "Email"), FieldChoice("phone", "Phone"),
                    FieldChoice("self-service", "Self-service"), FieldChoice("virtual_agent", "Virtual Agent"),
                    FieldChoice("walk-in", "Walk-in"),
                ]),
            FieldDefinition(
                "hold_reason", .integer, label: "On hold reason",
                choices: [
                    FieldChoice("1", "Awaiting Caller"), FieldChoice("3", "Awaiting Problem"),
                    FieldChoice("4", "Awaiting Vendor"), FieldChoice("5", "Awaiting Change"),
                ]),
            FieldDefinition(
                "close_code", .choice, label: "Resolution code",
                choices: [
                    "Duplicate", "Known error", "No resolution provided", "Resolved by caller",
                    "Resolved by change", "Resolved by problem", "Resolved by request", "Solution provided",
                    "Workaround provided", "User error",
                ].map { FieldChoice($0, $0) }),
            FieldDefinition("resolved_at", .dateTime, label: "Resolved"),
            FieldDefinition("resolved_by", .reference(table: "sys_user")),
            FieldDefinition("problem_id", .reference(table: "problem"), label: "Problem"),
            FieldDefinition("rfc", .reference(table: "change_request"), label: "Change Request"),
            FieldDefinition("reopen_count", .integer, defaultValue: "0"),
            FieldDefinition("business_impact"),
            FieldDefinition("business_stc", .integer),
            FieldDefinition("calendar_stc", .integer),
            FieldDefinition("cause"),
            FieldDefinition("caused_by", .reference(table: "change_request")),
            FieldDefinition("child_incidents", .integer, defaultValue: "0"),
            FieldDefinition(
                "incident_state", .integer,
                choices: [
                    FieldChoice("1", "New"), FieldChoice("2", "In Progress"), FieldChoice("3", "On Hold"),
                    FieldChoice("6", "Resolved"), FieldChoice("7", "Closed"), FieldChoice("8", "Canceled"),
                ], defaultValue: "1"),
            FieldDefinition(
                "notify", .integer,
                choices: [
                    FieldChoice("1", "Do Not Notify"), FieldChoice("2", "Send Email"),
                ], defaultValue: "1"),
            FieldDefinition("origin_id"),
            FieldDefinition("origin_table"),
            FieldDefinition("parent_incident", .reference(table: "incident")),
            FieldDefinition("reopened_by", .reference(table: "sys_user")),
            FieldDefinition("reopened_time", .dateTime),
            FieldDefinition(
                "severity", .integer,
                choices: [
                    FieldChoice("1", "1 - High"), FieldChoice("2", "2 - Medium"), FieldChoice("3", "3 - Low"),
                ], defaultValue: "3"),
        ], rules: TableRules(
            stateEffects: .init(inactive: ["7", "8"], resolved: ["6", "7"], closed: ["7"]),
            priorityFromImpactAndUrgency: true))

    /// Problem states as the platform defines them.
    static let problemStates = [
        FieldChoice("101", "New"), FieldChoice("102", "Assess"), FieldChoice("103", "Root Cause Analysis"),
        FieldChoice("104", "Fix in Progress"), FieldChoice("106", "Resolved"), FieldChoice("107", "Closed"),
    ]

    static let problem = TableDefinition(
        name: "problem", label: "Problem", application: "Problem",
        displayField: "number", numberPrefix: "PRB", numberStart: 40001,
        extends: "task",
        fields: taskFields(state: problemStates, stateDefault: "101") + [
            FieldDefinition(
                "category", .choice,
                choices: [
                    FieldChoice("software", "Software"), FieldChoice("hardware", "Hardware"),
                    FieldChoice("network", "Network"), FieldChoice("database", "Database"),
                ]),
            FieldDefinition(
                "subcategory", .choice,
                choices: [
                    FieldChoice("email", "Email"), FieldChoice("os", "Operating System"), FieldChoice("cpu", "CPU"),
                    FieldChoice("disk", "Disk"), FieldChoice("memory", "Memory"), FieldChoice("dns", "DNS"),
                    FieldChoice("vpn", "VPN"), FieldChoice("wireless", "Wireless"), FieldChoice("oracle", "Oracle"),
                    FieldChoice("sql server", "MS SQL Server"),
                ]),
            FieldDefinition("duplicate_of", .reference(table: "problem")),
            FieldDefinition("known_error", .boolean, defaultValue: "false"),
            FieldDefinition("cause_notes"),
            FieldDefinition("fix_notes"),
            FieldDefinition("workaround"),
            FieldDefinition(
                "resolution_code", .choice,
                choices: [
                    FieldChoice("fix_applied", "Fix Applied"), FieldChoice("risk_accepted", "Risk Accepted"),
                    FieldChoice("duplicate", "Duplicate"), FieldChoice("canceled", "Canceled"),
                ]),
            FieldDefinition("resolved_at", .dateTime, label: "Resolved"),
            FieldDefinition("resolved_by", .reference(table: "sys_user")),
            FieldDefinition("confirmed_at", .dateTime),
            FieldDefinition("confirmed_by", .reference(table: "sys_user")),
            FieldDefinition("first_reported_by_task", .reference(table: "task")),
            FieldDefinition("fix_at", .dateTime),
            FieldDefinition("fix_by", .reference(table: "sys_user")),
            FieldDefinition("fix_communicated_at", .dateTime),
            FieldDefinition("fix_communicated_by", .reference(table: "sys_user")),
            FieldDefinition("major_problem", .boolean, defaultValue: "false"),
            FieldDefinition(
                "problem_state", .integer,
                choices: [
                    FieldChoice("101", "New"), FieldChoice("102", "Assess"), FieldChoice("103", "Root Cause Analysis"),
                    FieldChoice("104", "Fix in Progress"), FieldChoice("106", "Resolved"),
                    FieldChoice("107", "Closed"),
                ], defaultValue: "101"),
            FieldDefinition("related_incidents", .integer, defaultValue: "0"),
            FieldDefinition("reopen_count", .integer, defaultValue: "0"),
            FieldDefinition("reopened_at", .dateTime),
            FieldDefinition("reopened_by", .reference(table: "sys_user")),
            FieldDefinition("review_outcome"),
            FieldDefinition("rfc", .reference(table: "change_request")),
            FieldDefinition("workaround_applied", .boolean, defaultValue: "false"),
            FieldDefinition("workaround_communicated_at", .dateTime),
            FieldDefinition("workaround_communicated_by", .reference(table: "sys_user")),
        ], rules: TableRules(
            stateModel: problemStateModel,
            stateEffects: .init(inactive: ["107"], resolved: ["106", "107"], closed: ["107"])))

    /// The problem state model: New and Assess go on to Root Cause Analysis, Fix in Progress leads to Resolved,
    /// and a problem can be closed (canceled, or closed as a duplicate) from any open state.
    static let problemStateModel = TableRules.StateModel.transitions([
        "101": ["102", "103", "107"], "102": ["101", "103", "107"], "103": ["102", "104", "106", "107"],
        "104": ["103", "106", "107"], "106": ["103", "104", "107"], "107": ["103"],
    ])

    /// The change request state models, by `type`: the moves of each ``ChangeModel`` (state values: -5 New,
    /// -4 Assess, -3 Authorize, -2 Scheduled, -1 Implement, 0 Review, 3 Closed, 4 Canceled). A change of another
    /// type (or none) has no model.
    static let changeStateModels = ChangeModel.stateModel

    /// Change request states as the platform defines them.
    static let changeStates = [
        FieldChoice("-5", "New"), FieldChoice("-4", "Assess"), FieldChoice("-3", "Authorize"),
        FieldChoice("-2", "Scheduled"), FieldChoice("-1", "Implement"), FieldChoice("0", "Review"),
        FieldChoice("3", "Closed"), FieldChoice("4", "Canceled"),
    ]

    static let changeRequest = TableDefinition(
        name: "change_request", label: "Change Request", application: "Change",
        displayField: "number", numberPrefix: "CHG",
        numberStart: 30001, extends: "task",
        fields: taskFields(state: changeStates, stateDefault: "-5") + [
            FieldDefinition(
                "type", .choice,
                choices: [
                    FieldChoice("standard", "Standard"), FieldChoice("normal", "Normal"),
                    FieldChoice("emergency", "Emergency"),
                ], defaultValue: "normal"),
            FieldDefinition(
                "risk", .integer,
                choices: [
                    FieldChoice("1", "Very High"), FieldChoice("2", "High"), FieldChoice("3", "Moderate"),
                    FieldChoice("4", "Low"),
                ], defaultValue: "3"),
            changeCategory,
            FieldDefinition("requested_by", .reference(table: "sys_user")),
            FieldDefinition("start_date", .dateTime, label: "Planned start date"),
            FieldDefinition("end_date", .dateTime, label: "Planned end date"),
            FieldDefinition("justification"),
            FieldDefinition("implementation_plan"),
            FieldDefinition("backout_plan"),
            FieldDefinition("test_plan"),
            FieldDefinition(
                "close_code", .choice,
                choices: [
                    FieldChoice("successful", "Successful"),
                    FieldChoice("successful_issues", "Successful with issues"),
                    FieldChoice("unsuccessful", "Unsuccessful"),
                ]),
            FieldDefinition("on_hold", .boolean, defaultValue: "false"),
            FieldDefinition("on_hold_reason"),
            FieldDefinition("chg_model", .reference(table: "chg_model"), label: "Model"),
            FieldDefinition(
                "std_change_producer_version", .reference(table: "std_change_producer_version"),
                label: "Standard change template version"),
        ] + pdiChangeRequestFields, rules: TableRules(
            stateModel: changeStateModels, stateEffects: .init(inactive: ["3", "4"], closed: ["3", "4"]),
            fillsFromTemplate: true, requestsModelApprovals: true))

    static let ciFields: [FieldDefinition] = [
        FieldDefinition("name"),
        FieldDefinition("short_description", label: "Description"),
        FieldDefinition("asset_tag"),
        FieldDefinition("serial_number"),
        FieldDefinition("manufacturer"),
        FieldDefinition("model_number"),
        FieldDefinition("category"),
        FieldDefinition("location", .reference(table: "cmn_location")),
        FieldDefinition("ip_address", label: "IP Address"),
        FieldDefinition("install_date", .dateTime, label: "Installed"),
        FieldDefinition(
            "install_status", .integer, label: "Status",
            choices: [
                FieldChoice("1", "Installed"), FieldChoice("2", "On Order"), FieldChoice("3", "In Maintenance"),
                FieldChoice("4", "Pending Install"), FieldChoice("5", "Pending Repair"), FieldChoice("6", "In Stock"),
                FieldChoice("7", "Retired"), FieldChoice("100", "Absent"),
            ], defaultValue: "1"),
        FieldDefinition(
            "operational_status", .integer,
            choices: [
                FieldChoice("1", "Operational"), FieldChoice("2", "Non-Operational"),
                FieldChoice("3", "Repair in Progress"), FieldChoice("4", "DR Standby"), FieldChoice("5", "Ready"),
                FieldChoice("6", "Retired"),
            ], defaultValue: "1"),
        FieldDefinition("assigned_to", .reference(table: "sys_user")),
        FieldDefinition("managed_by", .reference(table: "sys_user")),
        FieldDefinition("owned_by", .reference(table: "sys_user")),
        FieldDefinition("support_group", .reference(table: "sys_user_group")),
        FieldDefinition("mac_address", label: "MAC Address"),
        FieldDefinition(
            "environment", .choice,
            choices: [
                FieldChoice("development", "Development"), FieldChoice("production", "Production"),
                FieldChoice("test", "Test"),
            ]),
        FieldDefinition("company", .reference(table: "core_company")),
        FieldDefinition(
            "discovery_source", .choice,
            choices: [
                "ServiceNow", "Manual Entry", "ImportSet", "SCCM", "Altiris", "LANDesk", "OpenView", "Other Automated",
            ].map { FieldChoice($0, $0) }),
        FieldDefinition("first_discovered", .dateTime),
        FieldDefinition("last_discovered", .dateTime, label: "Most recent discovery"),
        // The other fields of a PDI's CIs (docs/reference/pdi-fields/cmdb_ci.json).
        FieldDefinition("asset", .reference(table: "alm_asset")),
        FieldDefinition("assigned", .dateTime),
        FieldDefinition("assignment_group", .reference(table: "sys_user_group")),
        FieldDefinition("attestation_score", .integer),
        FieldDefinition("attested", .boolean, defaultValue: "false"),
        FieldDefinition("attested_by", .reference(table: "sys_user")),
        FieldDefinition("attested_date", .dateTime),
        FieldDefinition("attributes"),
        FieldDefinition("can_print", .boolean, defaultValue: "false"),
        FieldDefinition("change_control", .reference(table: "sys_user_group")),
        FieldDefinition("checked_in", .dateTime),
        FieldDefinition("checked_out", .dateTime),
        FieldDefinition("comments"),
        FieldDefinition("correlation_id"),
        FieldDefinition("cost", .decimal),
        FieldDefinition("cost_cc", defaultValue: "USD"),
        FieldDefinition("cost_center", .reference(table: "cmn_cost_center")),
        FieldDefinition("delivery_date", .dateTime),
        FieldDefinition("department", .reference(table: "cmn_department")),
        FieldDefinition("dns_domain"),
        FieldDefinition("due", .dateTime),
        FieldDefinition("due_in"),
        FieldDefinition("duplicate_of", .reference(table: "cmdb_ci")),
        FieldDefinition("fault_count", .integer, defaultValue: "0"),
        FieldDefinition("fqdn"),
        FieldDefinition("gl_account"),
        FieldDefinition("invoice_number"),
        FieldDefinition("justification"),
        FieldDefinition("lease_id"),
        FieldDefinition("life_cycle_stage", .reference(table: "life_cycle_stage")),
        FieldDefinition("life_cycle_stage_status", .reference(table: "life_cycle_stage_status")),
        FieldDefinition("maintenance_schedule", .reference(table: "cmn_schedule")),
        FieldDefinition("managed_by_group", .reference(table: "sys_user_group")),
        // A new CI's model is "Unknown", as on a PDI.
        FieldDefinition("model_id", .reference(table: "cmdb_model"), defaultValue: DemoData.unknownModel),
        FieldDefinition("monitor", .boolean, defaultValue: "false"),
        FieldDefinition("order_date", .dateTime),
        FieldDefinition("po_number"),
        FieldDefinition("purchase_date", .date),
        FieldDefinition("schedule", .reference(table: "cmn_schedule")),
        FieldDefinition("skip_sync", .boolean, defaultValue: "false"),
        FieldDefinition("start_date", .dateTime),
        FieldDefinition("subcategory"),
        FieldDefinition("supported_by", .reference(table: "sys_user")),
        FieldDefinition("sys_class_path"),
        FieldDefinition.domain,
        FieldDefinition("sys_domain_path", defaultValue: "/"),
        FieldDefinition("sys_tags"),
        FieldDefinition("unverified", .boolean, defaultValue: "false"),
        FieldDefinition("vendor", .reference(table: "core_company")),
        FieldDefinition("warranty_expiration", .date),
    ]

    static let cmdbCI = TableDefinition(
        name: "cmdb_ci", label: "Configuration Item", application: "Configuration",
        displayField: "name", fields: ciFields,
        rules: TableRules(writeRole: "itil"))

    /// The fields of `cmdb_ci_hardware` and the tables that extend it (docs/reference/pdi-fields).
    static let hardwareFields: [FieldDefinition] = ciFields + [
        FieldDefinition("default_gateway"),
        FieldDefinition("hardware_status", defaultValue: "installed"),
        FieldDefinition("hardware_substatus"),
    ]

    /// `cmdb_ci_hardware`: the hardware CIs, `cmdb_ci_computer`'s parent on a PDI.
    static let cmdbCIHardware = TableDefinition(
        name: "cmdb_ci_hardware", label: "Hardware", displayField: "name", extends: "cmdb_ci", fields: hardwareFields)

    /// The fields of `cmdb_ci_computer` and the tables that extend it.
    static let computerFields: [FieldDefinition] = hardwareFields + [
        FieldDefinition("host_name"),
        FieldDefinition("fqdn", label: "Fully qualified domain name"),
        FieldDefinition("os", label: "Operating System"),
        FieldDefinition("os_version", label: "OS Version"),
        FieldDefinition("cpu_count", .integer, label: "CPU count"),
        FieldDefinition("cpu_speed", .decimal, label: "CPU speed (MHz)"),
        FieldDefinition("ram", .integer, label: "RAM (MB)"),
        FieldDefinition("disk_space", .decimal, label: "Disk space (GB)"),
        FieldDefinition("virtual", .boolean, defaultValue: "false"),
        FieldDefinition("cpu_name", label: "CPU name"),
        FieldDefinition(
            "firewall_status", .choice,
            choices: ["Intranet", "Internet", "DMZ"].map { FieldChoice($0, $0) }),
        // The other fields of a PDI's computers (docs/reference/pdi-fields/cmdb_ci_computer.json).
        FieldDefinition("cd_rom", .boolean, label: "CD ROM", defaultValue: "false"),
        FieldDefinition("cd_speed", .integer, label: "CD speed (X)"),
        FieldDefinition("chassis_type"),
        FieldDefinition("cpu_core_count", .integer, label: "CPU core count"),
        FieldDefinition("cpu_core_thread", .integer, label: "CPU core thread"),
        FieldDefinition("cpu_manufacturer", .reference(table: "core_company"), label: "CPU manufacturer"),
        FieldDefinition("cpu_type", label: "CPU type"),
        FieldDefinition("floppy"),
        FieldDefinition("form_factor"),
        FieldDefinition("object_id", label: "Object ID"),
        FieldDefinition("os_address_width", .integer, label: "OS Address Width (bits)"),
        FieldDefinition("os_domain", label: "OS Domain"),
        FieldDefinition("os_service_pack", label: "OS Service Pack"),
    ]

    static let cmdbCIComputer = TableDefinition(
        name: "cmdb_ci_computer", label: "Computer", displayField: "name", extends: "cmdb_ci_hardware",
        fields: computerFields)

    /// What a CI is used for (`used_for` of servers, applications and services).
    static let usedForChoices = [
        "Production", "Staging", "QA", "Test", "Development", "Demonstration", "Training", "Disaster recovery",
    ].map { FieldChoice($0, $0) }

    /// The fields of `cmdb_ci_server` and the tables that extend it (docs/reference/pdi-fields/cmdb_ci_server.json).
    static let serverFields: [FieldDefinition] = computerFields + [
        FieldDefinition(
            "classification", .choice,
            choices: ["Production", "Development", "Test", "Staging", "QA", "Disaster recovery"].map {
                FieldChoice($0, $0)
            }, defaultValue: "Production"),
        FieldDefinition("dr_backup", .reference(table: "cmdb_ci"), label: "DR backup"),
        FieldDefinition(
            "firewall_status", .choice,
            choices: ["Intranet", "Internet", "DMZ"].map { FieldChoice($0, $0) }, defaultValue: "Intranet"),
        FieldDefinition("internet_facing", .boolean, defaultValue: "false"),
        FieldDefinition("used_for", .choice, choices: usedForChoices, defaultValue: "Production"),
    ]

    static let cmdbCIServer = TableDefinition(
        name: "cmdb_ci_server", label: "Server", displayField: "name", extends: "cmdb_ci_computer",
        fields: serverFields)
}

extension TableDictionary {
    static let almAsset = TableDefinition(
        name: "alm_asset", label: "Asset", application: "Asset", displayField: "display_name",
        fields: [
            FieldDefinition("display_name"),
            FieldDefinition("asset_tag"),
            FieldDefinition("serial_number"),
            FieldDefinition("model_category"),
            FieldDefinition("ci", .reference(table: "cmdb_ci"), label: "Configuration Item"),
            FieldDefinition("assigned_to", .reference(table: "sys_user")),
            FieldDefinition("department", .reference(table: "cmn_department")),
            FieldDefinition(
                "install_status", .integer, label: "State",
                choices: [
                    FieldChoice("1", "In use"), FieldChoice("2", "On order"), FieldChoice("6", "In stock"),
                    FieldChoice("7", "Retired"),
                ], defaultValue: "1"),
            FieldDefinition("cost", .decimal),
        ])

    /// `syslog`: the system log, read by scripts and clients that page through many rows.
    static let syslog = TableDefinition(
        name: "syslog", label: "System Log", application: "System Logs", displayField: "message",
        fields: [
            FieldDefinition(
                "level", .integer,
                choices: [
                    FieldChoice("-1", "Debug"), FieldChoice("0", "Information"), FieldChoice("1", "Warning"),
                    FieldChoice("2", "Error"),
                ], defaultValue: "0"),
            FieldDefinition("source"),
            FieldDefinition("message"),
        ], rules: TableRules(writeRole: "admin"))

    static let bsmChart = TableDefinition(
        name: "bsm_chart", label: "Chart", application: "System Definition", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("title"),
            FieldDefinition("table"),
        ])
}
