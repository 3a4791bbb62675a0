/// The ITSM tables beyond incident, problem and change_request: their tasks, standard-change templates, the
/// CMDB's common classes and relationships, companies and change models (the service catalog's requests are in
/// `TableDictionary+Catalog.swift`).
extension TableDictionary {
    static let problemTask = TableDefinition(
        name: "problem_task", label: "Problem Task", application: "Problem",
        displayField: "number", numberPrefix: "PTASK",
        numberStart: 10001, extends: "task",
        fields: taskFields(
            state: [
                FieldChoice("151", "New"), FieldChoice("152", "Assess"), FieldChoice("154", "Work in Progress"),
                FieldChoice("157", "Closed"),
            ], stateDefault: "151") + [
                taskPriority,
                FieldDefinition("problem", .reference(table: "problem")),
                FieldDefinition(
                    "problem_task_type", .choice, label: "Type",
                    choices: [FieldChoice("general", "General"), FieldChoice("rca", "Root cause analysis")],
                    defaultValue: "general"),
                FieldDefinition(
                    "close_code", .choice,
                    choices: [FieldChoice("completed", "Completed"), FieldChoice("canceled", "Canceled")]),
                FieldDefinition("cause_code"),
                FieldDefinition("fix_notes"),
                FieldDefinition("other_reason"),
                FieldDefinition("work_start", .dateTime, label: "Work start"),
                FieldDefinition("work_end", .dateTime, label: "Work end"),
                // The other fields of a PDI's problem tasks (docs/reference/pdi-fields/problem_task.json).
                FieldDefinition("cause_notes"),
                FieldDefinition("reopen_count", .integer, defaultValue: "0"),
                FieldDefinition("reopened_at", .dateTime),
                FieldDefinition("reopened_by", .reference(table: "sys_user")),
                FieldDefinition("started_at", .dateTime),
                FieldDefinition("started_by", .reference(table: "sys_user")),
                FieldDefinition("vendor", .reference(table: "core_company")),
                FieldDefinition("workaround"),
            ], rules: TableRules(stateEffects: .init(inactive: ["157"], closed: ["157"])))

    /// `incident_task`: the tasks an incident hands to other groups, numbered `TASK0010001` and up as a PDI numbers
    /// them. Its own field is `incident`; state, priority and the rest are task's, choices and rules included
    /// (docs/reference/pdi-fields/incident_task.json).
    static let incidentTask = TableDefinition(
        name: "incident_task", label: "Incident Task", application: "Incident", displayField: "number",
        numberPrefix: "TASK", numberStart: 10001, extends: "task",
        fields: taskFields(state: taskStates, stateDefault: "1") + [
            taskPriority,
            FieldDefinition("incident", .reference(table: "incident")),
        ])

    static let changeTask = TableDefinition(
        name: "change_task", label: "Change Task", application: "Change", displayField: "number", numberPrefix: "CTASK",
        numberStart: 10001, extends: "task",
        fields: taskFields(
            state: [
                FieldChoice("-5", "Pending"), FieldChoice("1", "Open"), FieldChoice("2", "In Progress"),
                FieldChoice("3", "Closed"), FieldChoice("4", "Canceled"),
            ], stateDefault: "1") + [
                FieldDefinition("change_request", .reference(table: "change_request")),
                FieldDefinition(
                    "change_task_type", .choice, label: "Type",
                    choices: [
                        FieldChoice("planning", "Planning"), FieldChoice("implementation", "Implementation"),
                        FieldChoice("testing", "Testing"), FieldChoice("review", "Review"),
                    ], defaultValue: "planning"),
                FieldDefinition("planned_start_date", .dateTime),
                FieldDefinition("planned_end_date", .dateTime),
                FieldDefinition("on_hold", .boolean, defaultValue: "false"),
                FieldDefinition("on_hold_reason"),
                FieldDefinition(
                    "close_code", .choice,
                    choices: [
                        FieldChoice("successful", "Successful"),
                        FieldChoice("successful_issues", "Successful with issues"),
                        FieldChoice("unsuccessful", "Unsuccessful"),
                    ]),
            ] + pdiChangeTaskFields)

    /// `std_change_producer_version`: the versions of the standard-change templates a change is created from.
    static let stdChangeProducerVersion = TableDefinition(
        name: "std_change_producer_version", label: "Standard Change Template Version", application: "Change",
        displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("std_change_producer", label: "Standard change template"),
            FieldDefinition("version", .integer, defaultValue: "1"),
            FieldDefinition("template", label: "Template values"),
            FieldDefinition("short_description"),
        ], rules: TableRules(writeRole: "admin"))

    static let chgModel = TableDefinition(
        name: "chg_model", label: "Change Model", application: "Change", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("description"),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            // What the Change Management API answers of a model besides (its ChangeModel declares its states).
            FieldDefinition("default_change_model", .boolean, defaultValue: "false"),
            FieldDefinition("table_name", defaultValue: "change_request"),
            FieldDefinition("state_field", defaultValue: "state"),
            FieldDefinition("record_preset"),
            FieldDefinition("available_in_ui", .boolean, defaultValue: "true"),
            FieldDefinition("color"),
        ], rules: TableRules(writeRole: "admin"))

    static let cmdbCILinuxServer = TableDefinition(
        name: "cmdb_ci_linux_server", label: "Linux Server", displayField: "name", extends: "cmdb_ci_server",
        fields: serverFields + [FieldDefinition("kernel_release")])

    static let cmdbCIWinServer = TableDefinition(
        name: "cmdb_ci_win_server", label: "Windows Server", displayField: "name", extends: "cmdb_ci_server",
        fields: serverFields)

    /// `cmdb_ci_vm_object`: the virtual machine objects (cmdb_ci_vm_instance's parent on a PDI); no own fields.
    static let cmdbCIVMObject = TableDefinition(
        name: "cmdb_ci_vm_object", label: "Virtual Machine Object", displayField: "name", extends: "cmdb_ci",
        fields: ciFields)

    /// The fields of `cmdb_ci_vm_instance` and the tables that extend it (docs/reference/pdi-fields).
    private static let vmFields: [FieldDefinition] = ciFields + [
        FieldDefinition("cpus", .integer, label: "CPUs"),
        FieldDefinition("memory", .integer, label: "Memory (MB)"),
        FieldDefinition("disks", .integer),
        FieldDefinition("object_id", label: "Object ID"),
        FieldDefinition(
            "state", .choice,
            choices: [
                FieldChoice("on", "On"), FieldChoice("off", "Off"), FieldChoice("paused", "Paused"),
                FieldChoice("terminated", "Terminated"), FieldChoice("standby", "Standby"),
                FieldChoice("materializing", "Materializing"), FieldChoice("error", "Error"),
            ]),
        FieldDefinition("disks_size", .decimal, label: "Disks size (GB)"),
        FieldDefinition("nics", .integer, label: "Network adapters"),
        FieldDefinition("termination_protection", .boolean, defaultValue: "false"),
        FieldDefinition("vm_inst_id", label: "Instance ID"),
    ]

    static let cmdbCIVMInstance = TableDefinition(
        name: "cmdb_ci_vm_instance", label: "Virtual Machine Instance", displayField: "name",
        extends: "cmdb_ci_vm_object",
        fields: vmFields)

    static let cmdbCIEC2Instance = TableDefinition(
        name: "cmdb_ci_ec2_instance", label: "EC2 Instance", displayField: "name", extends: "cmdb_ci_vm_instance",
        fields: vmFields + [
            FieldDefinition("instance_type", label: "Instance type"),
            FieldDefinition("availability_zone"),
        ])

    static let cmdbCIDatabase = TableDefinition(
        name: "cmdb_ci_database", label: "Database", displayField: "name", extends: "cmdb_ci",
        fields: ciFields + [
            FieldDefinition("type"),
            FieldDefinition("version"),
        ])

    static let cmdbCIAppl = TableDefinition(
        name: "cmdb_ci_appl", label: "Application", displayField: "name", extends: "cmdb_ci",
        fields: ciFields + [
            FieldDefinition("version"),
            FieldDefinition("vendor", .reference(table: "core_company")),
            FieldDefinition("running_process", label: "Running process"),
            // The other fields of a PDI's applications (docs/reference/pdi-fields/cmdb_ci_appl.json).
            FieldDefinition("config_directory"),
            FieldDefinition("config_file"),
            FieldDefinition("edition"),
            FieldDefinition("install_directory"),
            FieldDefinition("is_clustered", .boolean, defaultValue: "false"),
            FieldDefinition("pid", .integer, label: "PID"),
            FieldDefinition("rp_command_hash"),
            FieldDefinition("rp_key_parameters_hash"),
            FieldDefinition("running_process_command"),
            FieldDefinition("running_process_key_parameters"),
            FieldDefinition("tcp_port", label: "TCP port(s)"),
            FieldDefinition("used_for", .choice, choices: usedForChoices, defaultValue: "Production"),
        ])

    /// `cmdb_ci_service`: the services tasks name in `business_service`
    /// (docs/reference/pdi-fields/cmdb_ci_service.json).
    static let cmdbCIService = TableDefinition(
        name: "cmdb_ci_service", label: "Service", displayField: "name", extends: "cmdb_ci",
        fields: ciFields + [
            FieldDefinition("aliases"),
            FieldDefinition(
                "busines_criticality", .choice, label: "Business criticality",
                choices: ["1 - most critical", "2 - somewhat critical", "3 - less critical", "4 - not critical"].map {
                    FieldChoice($0, $0)
                }, defaultValue: "1 - most critical"),
            FieldDefinition("business_contact", .reference(table: "sys_user")),
            FieldDefinition("business_need"),
            FieldDefinition("business_relation_manager", .reference(table: "sys_user")),
            FieldDefinition("business_unit", .reference(table: "business_unit")),
            FieldDefinition("checkout"),
            FieldDefinition("compatibility_dependencies"),
            FieldDefinition("consumer_type"),
            FieldDefinition("delivery_manager", .reference(table: "sys_user")),
            FieldDefinition("end_date", .dateTime),
            FieldDefinition("last_review_date", .dateTime),
            FieldDefinition("monitoring_requirements"),
            FieldDefinition("number"),
            FieldDefinition("parent", .reference(table: "cmdb_ci_service")),
            FieldDefinition("portfolio_status", defaultValue: "pipeline"),
            FieldDefinition("prerequisites"),
            FieldDefinition("price_model", defaultValue: "fixed"),
            FieldDefinition("price_unit"),
            FieldDefinition("published_ref", .reference(table: "sc_cat_item")),
            FieldDefinition(
                "service_classification", .choice,
                choices: ["Business Service", "Technical Service", "Application Service", "Shared Service"].map {
                    FieldChoice($0, $0)
                }, defaultValue: "Business Service"),
            FieldDefinition("service_level_requirement"),
            FieldDefinition("service_owner_delegate", .reference(table: "sys_user")),
            FieldDefinition("service_status", defaultValue: "requirements"),
            FieldDefinition("sla", label: "SLA"),
            FieldDefinition("spm_service_portfolio", .reference(table: "spm_service_portfolio")),
            FieldDefinition("spm_taxonomy_node", .reference(table: "spm_taxonomy_node")),
            FieldDefinition("stakeholders"),
            FieldDefinition("state"),
            FieldDefinition("unit_description"),
            FieldDefinition("used_for", .choice, choices: usedForChoices, defaultValue: "Production"),
            FieldDefinition("user_group", .reference(table: "sys_user_group")),
            FieldDefinition("version"),
        ])

    /// `cmdb_rel_type`: the kinds of relationship (`Depends on::Used by`); `sys_name` repeats the name, and is what
    /// servicenow.itsm's `configuration_item_relations` looks a type up by.
    static let cmdbRelType = TableDefinition(
        name: "cmdb_rel_type", label: "CI Relationship Type", application: "Configuration", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("sys_name", label: "System name"),
            FieldDefinition("parent_descriptor"),
            FieldDefinition("child_descriptor"),
        ], rules: TableRules(writeRole: "admin"))

    /// `cmdb_rel_ci`: one relationship between two CIs.
    static let cmdbRelCI = TableDefinition(
        name: "cmdb_rel_ci", label: "CI Relationship", application: "Configuration", displayField: "type",
        fields: [
            FieldDefinition("parent", .reference(table: "cmdb_ci")),
            FieldDefinition("child", .reference(table: "cmdb_ci")),
            FieldDefinition("type", .reference(table: "cmdb_rel_type")),
            FieldDefinition("connection_strength", defaultValue: "always"),
            FieldDefinition("port"),
            // The other fields of a PDI's relationships (docs/reference/pdi-fields/cmdb_rel_ci.json).
            FieldDefinition("percent_outage", .integer),
            FieldDefinition("sys_tags"),
        ], rules: TableRules(writeRole: "itil"))

    static let coreCompany = TableDefinition(
        name: "core_company", label: "Company", application: "Organization", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("city"),
            FieldDefinition("country"),
            FieldDefinition("phone"),
            FieldDefinition("website"),
            FieldDefinition("vendor", .boolean, defaultValue: "false"),
            FieldDefinition("manufacturer", .boolean, defaultValue: "false"),
            FieldDefinition("customer", .boolean, defaultValue: "false"),
            // The other fields of a PDI's companies (docs/reference/pdi-fields/core_company.json).
            FieldDefinition("apple_icon"),
            FieldDefinition("banner_image"),
            FieldDefinition("banner_image_light"),
            FieldDefinition("banner_text"),
            FieldDefinition("contact", .reference(table: "sys_user")),
            FieldDefinition("discount", .decimal),
            FieldDefinition("fax_phone"),
            FieldDefinition("fiscal_year", .date),
            FieldDefinition("lat_long_error"),
            FieldDefinition("latitude", .decimal),
            FieldDefinition("longitude", .decimal),
            FieldDefinition("market_cap", .decimal, defaultValue: "0"),
            FieldDefinition("notes"),
            FieldDefinition("num_employees", .integer),
            FieldDefinition("parent", .reference(table: "core_company")),
            FieldDefinition("primary", .boolean, defaultValue: "false"),
            FieldDefinition("profits", .decimal, defaultValue: "0"),
            FieldDefinition("publicly_traded", .boolean, defaultValue: "false"),
            FieldDefinition("rank_tier"),
            FieldDefinition("revenue_per_year", .decimal, defaultValue: "0"),
            FieldDefinition("state"),
            FieldDefinition("stock_price"),
            FieldDefinition("stock_symbol"),
            FieldDefinition("street"),
            FieldDefinition("sys_tags"),
            FieldDefinition("theme", .reference(table: "sys_ui_theme")),
            FieldDefinition("vendor_manager"),
            FieldDefinition("vendor_type"),
            FieldDefinition("zip"),
        ], rules: TableRules(writeRole: "user_admin"))
}

extension TableDictionary {
    /// `cmdb_model`: the product models of CIs and assets; a fresh instance has the model "Unknown"
    /// (``DemoData/unknownModel``), which a new CI gets when it names none.
    static let cmdbModel = TableDefinition(
        name: "cmdb_model", label: "Product Model", application: "Configuration", displayField: "display_name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("display_name"),
            FieldDefinition("manufacturer", .reference(table: "core_company")),
            FieldDefinition("model_number"),
            FieldDefinition("short_description", label: "Description"),
            FieldDefinition("status", .choice, choices: [
                FieldChoice("In Production", "In Production"), FieldChoice("Retired", "Retired"),
            ], defaultValue: "In Production"),
            FieldDefinition("sys_tags"),
        ], rules: TableRules(writeRole: "admin"))

    /// `sysapproval_approver`: one approval a user is asked for on a record (`sysapproval`, a task; `document_id`
    /// and `source_table` name any record), its `state` moving from requested to approved or rejected
    /// (docs/reference/pdi-fields/sysapproval_approver.json). An `itil` user reads every approval, anyone else only
    /// their own.
    static let sysApprovalApprover = TableDefinition(
        name: "sysapproval_approver", label: "Approval", application: "Self-Service", displayField: "approver",
        fields: [
            FieldDefinition("approver", .reference(table: "sys_user")),
            FieldDefinition(
                "state", .choice,
                choices: [
                    FieldChoice("not requested", "Not Yet Requested"), FieldChoice("requested", "Requested"),
                    FieldChoice("approved", "Approved"), FieldChoice("rejected", "Rejected"),
                    FieldChoice("cancelled", "Cancelled"), FieldChoice("not_required", "No Longer Required"),
                    FieldChoice("duplicate", "Duplicate"),
                ], defaultValue: "requested"),
            FieldDefinition("sysapproval", .reference(table: "task"), label: "Approval for"),
            FieldDefinition("document_id", label: "Approving"),
            FieldDefinition("source_table"),
            FieldDefinition("comments"),
            FieldDefinition("due_date", .dateTime),
            FieldDefinition("expected_start", .dateTime),
            FieldDefinition("group", .reference(table: "sysapproval_group")),
            FieldDefinition("order", .integer),
            FieldDefinition("iteration", .integer),
            FieldDefinition("approval_column"),
            FieldDefinition("approval_journal_column"),
            FieldDefinition("approval_reason"),
            FieldDefinition("approval_source"),
            FieldDefinition("process_step", .reference(table: "process_step")),
            FieldDefinition("state_binding", .reference(table: "state_binding")),
            FieldDefinition("wf_activity", .reference(table: "wf_activity"), label: "Workflow activity"),
            FieldDefinition("sys_tags"),
        ], rules: TableRules(readRole: "itil", writeRole: "approver_user", ownerField: "approver"))
}
