extension DemoData {
    /// The standard-change templates of a fresh PDI (`std_change_producer_version`, version 1 of each), with the
    /// description each gives a change.
    static let standardChangeTemplates: [(name: String, description: String)] = [
        (
            "Clear BGP sessions on a Cisco router",
            "Resend the complete BGP table to neighboring routers by clearing the BGP sessions (soft reset)."
        ),
        ("Reboot Windows Server", "Reboot a Windows server during its maintenance window."),
        ("Add network switch to datacenter cabinet", "Install, cable and configure a new switch in a cabinet."),
        ("Decommission a server", "Remove a server from service and retire its CI."),
        ("Patch a Linux server", "Apply the monthly operating system patches to a Linux server."),
        ("Renew an SSL certificate", "Replace an expiring certificate with a renewed one."),
    ]

    /// The CI relationship types (`cmdb_rel_type`), as `parent::child` descriptors.
    static let relationshipTypes = [
        ("Depends on", "Used by"), ("Runs on", "Runs"), ("Hosted on", "Hosts"), ("Contains", "Contained by"),
        ("Connects to", "Connected by"), ("Members", "Member of"), ("Cools", "Cooled By"),
        ("Exchanges data with", "Exchanges data with"),
    ]

    /// The CIs of the classes beyond `cmdb_ci_server`, by class.
    static let classifiedCIs: [(table: String, name: String, fields: [String: String])] = [
        ("cmdb_ci_linux_server", "lnx-app-01", ["os": "Linux Red Hat", "ip_address": "10.0.7.11", "ram": "16384"]),
        ("cmdb_ci_linux_server", "lnx-app-02", ["os": "Linux Ubuntu", "ip_address": "10.0.7.12", "ram": "16384"]),
        ("cmdb_ci_win_server", "win-ad-01", ["os": "Windows 2022 Standard", "ip_address": "10.0.8.11", "ram": "8192"]),
        ("cmdb_ci_computer", "LT-ABEL-01", ["os": "Windows 11", "assigned_to": "abel.tuter", "ram": "16384"]),
        ("cmdb_ci_computer", "LT-BETH-01", ["os": "macOS 15", "assigned_to": "beth.anglin", "ram": "32768"]),
        ("cmdb_ci_ec2_instance", "i-0a1b2c3d4e5f60718", ["instance_type": "t3.large", "cpus": "2", "memory": "8192"]),
        ("cmdb_ci_database", "ERP Oracle DB", ["type": "Oracle", "version": "19c"]),
        ("cmdb_ci_appl", "SAP ERP Application", ["version": "7.5"]),
    ]

    /// The companies (`core_company`).
    static let companies: [(name: String, vendor: Bool, manufacturer: Bool)] = [
        ("ACME North America", false, false), ("Dell Inc.", true, true), ("Hewlett-Packard", true, true),
        ("Microsoft", true, true), ("Cisco Systems", true, true),
    ]

    /// Companies, change models, standard-change templates, the CIs of the other classes and their relationships,
    /// and problem and change tasks (the service catalog's records are in `DemoData+Catalog.swift`).
    static func seedITSM(_ insert: Inserter) throws {
        for (index, company) in companies.enumerated() {
            try insert.record(
                "core_company", company.name, created: date(Double(-2200 + index)),
                [
                    "name": company.name, "vendor": company.vendor ? "true" : "false",
                    "manufacturer": company.manufacturer ? "true" : "false",
                    "customer": company.vendor ? "false" : "true",
                ])
        }
        for (index, model) in ChangeModel.all.enumerated() {
            try insert.record(
                "chg_model", model.name, created: date(Double(-2190 + index)),
                [
                    "name": model.name, "description": model.description,
                    "default_change_model": model.isDefault ? "true" : "false", "record_preset": "type=\(model.type)",
                ])
        }
        for (index, template) in standardChangeTemplates.enumerated() {
            try insert.record(
                "std_change_producer_version", template.name, created: date(Double(-2180 + index)),
                [
                    "name": "\(template.name) - 1", "std_change_producer": template.name, "version": "1",
                    "short_description": template.name,
                    "template": "short_description=\(template.name)^description=\(template.description)"
                        + "^type=standard^risk=4^impact=3^chg_model=" + sysID("chg_model", "Standard"),
                ])
        }
        for (index, ci) in classifiedCIs.enumerated() {
            var fields = ci.fields
            if let user = fields["assigned_to"] { fields["assigned_to"] = sysID("sys_user", user) }
            fields["name"] = ci.name
            fields["install_status"] = "1"
            fields["operational_status"] = "1"
            fields["environment"] = "production"
            try insert.record(ci.table, ci.name, created: date(Double(-1790 + index)), fields)
        }
        for (index, type) in relationshipTypes.enumerated() {
            try insert.record(
                "cmdb_rel_type", type.0, created: date(Double(-3100 + index)),
                [
                    "name": "\(type.0)::\(type.1)", "sys_name": "\(type.0)::\(type.1)", "parent_descriptor": type.0,
                    "child_descriptor": type.1,
                ])
        }
        let relations: [(parent: String, parentTable: String, child: String, childTable: String, type: String)] = [
            ("SAP ERP", "cmdb_ci", "app-prod-01", "cmdb_ci_server", "Depends on"),
            ("SAP ERP", "cmdb_ci", "app-prod-02", "cmdb_ci_server", "Depends on"),
            ("SAP ERP Application", "cmdb_ci_appl", "ERP Oracle DB", "cmdb_ci_database", "Depends on"),
            ("ERP Oracle DB", "cmdb_ci_database", "db-prod-01", "cmdb_ci_server", "Runs on"),
            ("Email Service", "cmdb_ci", "mail-01", "cmdb_ci_server", "Depends on"),
            ("Corporate Website", "cmdb_ci", "web-prod-01", "cmdb_ci_server", "Depends on"),
            ("SAP ERP Application", "cmdb_ci_appl", "lnx-app-01", "cmdb_ci_linux_server", "Runs on"),
        ]
        for (index, relation) in relations.enumerated() {
            try insert.record(
                "cmdb_rel_ci", "\(relation.parent)/\(relation.child)", created: date(Double(-1700 + index)),
                [
                    "parent": sysID(relation.parentTable, relation.parent),
                    "child": sysID(relation.childTable, relation.child),
                    "type": sysID("cmdb_rel_type", relation.type),
                ])
        }
        let problemTasks = [
            ("Collect mail server logs", "PRB0", "154"), ("Analyse VPN gateway load", "PRB1", "152"),
            ("Review the upgrade's query plans", "PRB2", "151"),
        ]
        for (index, task) in problemTasks.enumerated() {
            try insert.record(
                "problem_task", "PTASK\(index)", created: date(Double(600 + index * 10)),
                [
                    "short_description": task.0, "problem": sysID("problem", task.1), "state": task.2,
                    "assignment_group": sysID("sys_user_group", "Problem Solving"),
                    "assigned_to": sysID("sys_user", "ron.kettering"), "opened_by": sysID("sys_user", "ron.kettering"),
                    "opened_at": date(Double(600 + index * 10)),
                ])
        }
        let changeTasks = [
            ("Snapshot the mail server", "CHG0", "1", "planning"), ("Install the patches", "CHG0", "1", "implementation"),
            ("Order the memory modules", "CHG1", "2", "planning"), ("Verify the ERP hotfix", "CHG3", "1", "testing"),
        ]
        for (index, task) in changeTasks.enumerated() {
            try insert.record(
                "change_task", "CTASK\(index)", created: date(Double(650 + index * 10)),
                [
                    "short_description": task.0, "change_request": sysID("change_request", task.1), "state": task.2,
                    "change_task_type": task.3, "assignment_group": sysID("sys_user_group", "Change Management"),
                    "opened_by": sysID("sys_user", "don.goodliffe"), "opened_at": date(Double(650 + index * 10)),
                ])
        }
    }
}
