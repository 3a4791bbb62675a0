import Foundation
import NowData

/// The demo data set, seeded once into a new database: users, groups and memberships, incidents, problems,
/// change requests, tasks and CIs. Everything is deterministic: sys_ids derive from a stable key (see ``sysID(_:_:)``),
/// dates from a fixed start, so every seeded database holds the same records.
enum DemoData {
    /// The stable sys_id of a demo record: the one a fresh Personal Developer Instance gives it when public tests
    /// rely on it (``pdiSysIDs``), otherwise the first 32 hex digits of SHA-256 of `nowflow-demo:<table>:<key>`.
    static func sysID(_ table: String, _ key: String) -> String {
        pdiSysIDs["\(table):\(key)"] ?? String(SHA256.hex("nowflow-demo:\(table):\(key)").prefix(32))
    }

    /// The sys_ids of a fresh PDI that public tests and examples use (PySNC's suite among them), by `table:key`.
    static let pdiSysIDs: [String: String] = [
        "sys_user:admin": "6816f79cc0a8016401c5a33be04be441",
        "sys_user:problem.admin": "26fbff173b331300ad3cc9bb34efc4bd",
        "sys_user:natasha.ingram": "46c5bf6ca9fe1981010713e3ac7d3384",
        "cmn_department:Finance": "a581ab703710200044e0bfc8bcbe5de8",
        "sys_user_role:admin": "2831a114c611228501d4ea6c309d626d",
        // A PDI's model "Unknown", which a new CI gets (demisto/content's ServiceNow_CMDB README, recorded CIs).
        "cmdb_model:Unknown": "4ed329e3db27901026fca015ca9619fc",
    ].merging(catalogSysIDs) { first, _ in first }

    /// 2026-01-05 08:00:00 UTC, the first demo date.
    private static let start = Date(timeIntervalSince1970: 1_767_600_000)

    static func date(_ hours: Double) -> String {
        Timestamp.string(start.addingTimeInterval(hours * 3600))
    }

    static let users: [(userName: String, first: String, last: String, title: String, department: String)] = [
        ("admin", "System", "Administrator", "System Administrator", "Finance"),
        ("abel.tuter", "Abel", "Tuter", "Sales Manager", "Sales"),
        ("beth.anglin", "Beth", "Anglin", "Service Desk Analyst", "IT"),
        ("bud.richman", "Bud", "Richman", "Network Engineer", "IT"),
        ("charlie.whitherspoon", "Charlie", "Whitherspoon", "Database Administrator", "IT"),
        ("david.loo", "David", "Loo", "Hardware Technician", "IT"),
        ("don.goodliffe", "Don", "Goodliffe", "Change Manager", "IT"),
        ("fred.luddy", "Fred", "Luddy", "Chief Technology Officer", "Executive"),
        ("itil", "ITIL", "User", "Service Desk Analyst", "IT"),
        ("joe.employee", "Joe", "Employee", "Accountant", "Finance"),
        ("luke.wilson", "Luke", "Wilson", "Software Engineer", "Development"),
        ("ron.kettering", "Ron", "Kettering", "Problem Manager", "IT"),
        ("sam.sorokin", "Sam", "Sorokin", "Marketing Specialist", "Marketing"),
        ("sophie.turner", "Sophie", "Turner", "HR Generalist", "Human Resources"),
        ("tanya.moore", "Tanya", "Moore", "Customer Support Lead", "Customer Support"),
        ("problem.admin", "Problem", "Administrator", "Problem Administrator", "IT"),
        ("problem.manager", "Problem", "Manager", "Problem Manager", "IT"),
        ("natasha.ingram", "Natasha", "Ingram", "Chief Financial Officer", "Finance"),
        ("abraham.lincoln", "Abraham", "Lincoln", "Account Executive", "Sales"),
    ]

    /// The departments (`cmn_department`), each with its head (a user name, or empty).
    static let departments: [(name: String, head: String)] = [
        ("Customer Support", "tanya.moore"), ("Development", "luke.wilson"), ("Executive", "fred.luddy"),
        ("Finance", "natasha.ingram"), ("Human Resources", "sophie.turner"), ("IT", "fred.luddy"),
        ("Marketing", "sam.sorokin"), ("Sales", "abel.tuter"),
    ]

    /// The location (`cmn_location`) of the demo servers.
    static let dataCenter = "Data Center 1"

    /// The number of `syslog` rows seeded.
    static let syslogCount = 1000

    static let groups: [(name: String, manager: String, members: [String])] = [
        ("Service Desk", "beth.anglin", ["beth.anglin", "itil", "tanya.moore"]),
        ("Network", "bud.richman", ["bud.richman", "david.loo"]),
        ("Database", "charlie.whitherspoon", ["charlie.whitherspoon", "luke.wilson"]),
        ("Hardware", "david.loo", ["david.loo", "itil"]),
        ("Software", "luke.wilson", ["luke.wilson", "beth.anglin"]),
        ("Change Management", "don.goodliffe", ["don.goodliffe", "admin"]),
        ("Problem Solving", "ron.kettering", ["ron.kettering", "charlie.whitherspoon"]),
    ]

    static let servers: [(name: String, ip: String, os: String, cpus: Int, ram: Int, classification: String)] = [
        ("app-prod-01", "10.0.1.11", "Linux Red Hat", 8, 32768, "Production"),
        ("app-prod-02", "10.0.1.12", "Linux Red Hat", 8, 32768, "Production"),
        ("db-prod-01", "10.0.2.21", "Linux Red Hat", 16, 131072, "Production"),
        ("db-prod-02", "10.0.2.22", "Linux Red Hat", 16, 131072, "Production"),
        ("mail-01", "10.0.3.31", "Windows 2019 Datacenter", 4, 16384, "Production"),
        ("web-prod-01", "10.0.4.41", "Linux Ubuntu", 4, 8192, "Production"),
        ("web-dev-01", "10.1.4.41", "Linux Ubuntu", 2, 4096, "Development"),
        ("files-01", "10.0.5.51", "Windows 2022 Standard", 4, 16384, "Production"),
        ("vpn-gw-01", "10.0.6.61", "Linux Debian", 2, 4096, "Production"),
        ("test-db-01", "10.2.2.21", "Linux Red Hat", 4, 16384, "Test"),
    ]

    private static let incidents: [(short: String, category: String, subcategory: String, group: String, ci: String)] =
        [
            ("Email server is down", "software", "email", "Service Desk", "mail-01"),
            ("Unable to connect to VPN", "network", "vpn", "Network", "vpn-gw-01"),
            ("Database queries running slowly", "database", "oracle", "Database", "db-prod-01"),
            ("Laptop screen flickering", "hardware", "monitor", "Hardware", ""),
            ("Cannot access shared drive", "network", "dns", "Network", "files-01"),
            ("Outlook keeps crashing", "software", "email", "Service Desk", "mail-01"),
            ("Printer on floor 3 jammed", "hardware", "", "Hardware", ""),
            ("Wireless drops in conference room", "network", "wireless", "Network", ""),
            ("ERP application returns error 500", "software", "internal application", "Software", "app-prod-01"),
            ("Password reset request", "inquiry", "", "Service Desk", ""),
            ("Disk space low on database server", "database", "sql server", "Database", "db-prod-02"),
            ("Keyboard not working", "hardware", "keyboard", "Hardware", ""),
            ("Website loading slowly", "network", "dhcp", "Network", "web-prod-01"),
            ("Antivirus update failed", "software", "antivirus", "Software", ""),
            ("Need access to the finance share", "inquiry", "", "Service Desk", "files-01"),
        ]

    private static let callers = [
        "abel.tuter", "joe.employee", "sam.sorokin", "sophie.turner", "fred.luddy", "tanya.moore",
    ]

    /// Inserts the demo data set in the caller's transaction.
    static func seed(store: RecordStore, dictionary: TableDictionary, _ db: SQLiteConnection) throws {
        let insert = Inserter(store: store, dictionary: dictionary, db: db)
        for (index, department) in departments.enumerated() {
            try insert.record(
                "cmn_department", department.name, created: date(Double(-2100 + index)),
                [
                    "name": department.name, "id": String(format: "DEPT%04d", index + 1),
                    "description": "\(department.name) department",
                    "dept_head": department.head.isEmpty ? "" : sysID("sys_user", department.head),
                ])
        }
        for (index, user) in users.enumerated() {
            let manager = user.department == "IT" && user.userName != "admin" ? "fred.luddy" : ""
            try insert.record(
                "sys_user", user.userName, created: date(Double(-2000 + index)),
                [
                    "user_name": user.userName, "first_name": user.first, "last_name": user.last,
                    "name": "\(user.first) \(user.last)", "email": "\(user.userName)@example.com", "title": user.title,
                    "department": sysID("cmn_department", user.department), "phone": "+1 555 01\(String(format: "%02d", index))",
                    "manager": manager.isEmpty ? "" : sysID("sys_user", manager),
                ])
        }
        for (index, group) in groups.enumerated() {
            try insert.record(
                "sys_user_group", group.name, created: date(Double(-1900 + index)),
                [
                    "name": group.name, "description": "\(group.name) team",
                    "email": group.name.lowercased().replacingOccurrences(of: " ", with: ".") + "@example.com",
                    "manager": sysID("sys_user", group.manager),
                ])
            for member in group.members {
                try insert.record(
                    "sys_user_grmember", "\(group.name)/\(member)", created: date(Double(-1900 + index)),
                    ["user": sysID("sys_user", member), "group": sysID("sys_user_group", group.name)])
            }
        }
        try insert.record(
            "cmn_location", dataCenter, created: date(-1810),
            ["name": dataCenter, "full_name": dataCenter, "city": "San Diego", "country": "USA"])
        for (index, server) in servers.enumerated() {
            let ciFields = [
                "name": server.name, "ip_address": server.ip, "install_status": "1", "operational_status": "1",
                "asset_tag": "P10000\(index + 10)",
                "serial_number": "SN-\(SHA256.hex(server.name).prefix(10).uppercased())",
                "manufacturer": index % 2 == 0 ? "Dell Inc." : "Hewlett-Packard",
                "location": sysID("cmn_location", dataCenter),
                "install_date": date(Double(-5000 + index * 24)), "category": "Hardware",
                "support_group": sysID("sys_user_group", server.name.hasPrefix("db") ? "Database" : "Network"),
                "short_description": "\(server.classification) server \(server.name)",
            ]
            try insert.record(
                "cmdb_ci_server", server.name, created: date(Double(-1800 + index)),
                ciFields.merging([
                    "host_name": server.name, "fqdn": "\(server.name).example.com", "os": server.os,
                    "cpu_count": String(server.cpus), "ram": String(server.ram),
                    "classification": server.classification,
                    "virtual": index % 3 == 0 ? "true" : "false", "disk_space": String(100 * (index % 4 + 1)),
                    "cpu_speed": "2400",
                ]) { _, new in new })
        }
        for index in 0..<3 {
            let service = ["SAP ERP", "Email Service", "Corporate Website"][index]
            try insert.record(
                "cmdb_ci", service, created: date(Double(-1700 + index)),
                [
                    "name": service, "category": "Software", "install_status": "1", "operational_status": "1",
                    "short_description": "Business service \(service)",
                ])
        }
        let states = ["1", "2", "2", "3", "6", "7", "1", "2", "6", "7", "8", "1"]
        let assignees = [
            "Service Desk": "beth.anglin", "Network": "bud.richman", "Database": "charlie.whitherspoon",
            "Hardware": "david.loo", "Software": "luke.wilson",
        ]
        for index in 0..<60 {
            let template = incidents[index % incidents.count]
            let state = states[index % states.count]
            let impact = index % 3 + 1
            let urgency = (index / 3) % 3 + 1
            let opened = Double(index * 13)
            var fields: [String: String] = [
                "short_description": template.short
                    + (index >= incidents.count ? " (\(index / incidents.count + 1))" : ""),
                "description": "Reported by the caller: \(template.short.lowercased()).",
                "caller_id": sysID("sys_user", callers[index % callers.count]),
                "opened_by": sysID("sys_user", index % 2 == 0 ? "itil" : "beth.anglin"),
                "opened_at": date(opened), "state": state, "impact": String(impact), "urgency": String(urgency),
                "priority": String(impact + urgency - 1), "category": template.category,
                "subcategory": template.subcategory,
                "contact_type": ["phone", "email", "self-service", "walk-in"][index % 4],
                "assignment_group": sysID("sys_user_group", template.group),
                "cmdb_ci": template.ci.isEmpty ? "" : sysID("cmdb_ci_server", template.ci),
                "active": ["7", "8"].contains(state) ? "false" : "true",
            ]
            if state != "1" { fields["assigned_to"] = sysID("sys_user", assignees[template.group] ?? "itil") }
            if state == "3" { fields["hold_reason"] = "1" }
            if ["6", "7"].contains(state) {
                fields["resolved_at"] = date(opened + 6)
                fields["resolved_by"] = fields["assigned_to"]
                fields["close_code"] = "Solution provided"
                fields["close_notes"] = "Fixed and confirmed with the caller."
            }
            if ["7", "8"].contains(state) {
                fields["closed_at"] = date(opened + 78)
                fields["closed_by"] = sysID("sys_user", "admin")
            }
            try insert.record("incident", "INC\(index)", created: date(opened), fields, modCount: Int(state) ?? 0)
        }
        let problems: [(String, String, String)] = [
            ("Recurring email outages", "103", "software"),
            ("VPN gateway drops connections under load", "104", "network"),
            ("Slow database queries after upgrade", "102", "database"),
            ("Printer fleet firmware defects", "101", "hardware"),
            ("Wireless coverage gaps", "106", "network"), ("ERP memory leak", "107", "software"),
            ("Backups exceed their window", "101", "software"), ("Intermittent DNS resolution failures", "103", "network"),
            ("Laptop batteries swell after a year", "102", "hardware"),
            ("Replication lag on the reporting database", "104", "database"),
        ]
        for (index, problem) in problems.enumerated() {
            var fields = [
                "short_description": problem.0, "description": "Problem record for: \(problem.0.lowercased()).",
                "state": problem.1, "category": problem.2,
                "subcategory": ["email", "vpn", "oracle", "", "wireless", "memory", "", "dns", "", "sql server"][index],
                "impact": String(index % 3 + 1), "urgency": "2",
                "priority": String(index % 3 + 2), "assignment_group": sysID("sys_user_group", "Problem Solving"),
                "assigned_to": sysID("sys_user", "ron.kettering"), "opened_by": sysID("sys_user", "ron.kettering"),
                "opened_at": date(Double(100 + index * 40)), "known_error": index % 2 == 0 ? "true" : "false",
                "active": problem.1 == "107" ? "false" : "true",
            ]
            if problem.1 == "106" || problem.1 == "107" {
                fields["resolution_code"] = "fix_applied"
                fields["resolved_at"] = date(Double(200 + index * 40))
                fields["fix_notes"] = "Fix deployed to production."
            }
            try insert.record("problem", "PRB\(index)", created: date(Double(100 + index * 40)), fields)
        }
        let changes: [(String, String, String, String)] = [
            ("Upgrade mail server to the latest patch level", "-5", "normal", "mail-01"),
            ("Add memory to database server", "-4", "normal", "db-prod-01"),
            ("Replace VPN gateway certificate", "-3", "standard", "vpn-gw-01"),
            ("Deploy ERP hotfix", "-2", "emergency", "app-prod-01"),
            ("Migrate file shares", "-1", "normal", "files-01"),
            ("Rotate web server TLS keys", "0", "standard", "web-prod-01"),
            ("Decommission test database", "3", "normal", "test-db-01"),
            ("Reboot application servers", "4", "standard", "app-prod-02"),
        ]
        for (index, change) in changes.enumerated() {
            let startHours = Double(300 + index * 48)
            try insert.record(
                "change_request", "CHG\(index)", created: date(startHours - 72),
                [
                    "short_description": change.0, "description": "Change: \(change.0.lowercased()).",
                    "state": change.1, "type": change.2, "risk": String(index % 4 + 1), "impact": String(index % 3 + 1),
                    "urgency": "3", "priority": String(index % 3 + 3), "category": "hardware",
                    "cmdb_ci": sysID("cmdb_ci_server", change.3), "requested_by": sysID("sys_user", "don.goodliffe"),
                    "assignment_group": sysID("sys_user_group", "Change Management"),
                    "assigned_to": sysID("sys_user", "don.goodliffe"), "opened_by": sysID("sys_user", "don.goodliffe"),
                    "opened_at": date(startHours - 72), "start_date": date(startHours),
                    "end_date": date(startHours + 4),
                    "approval": index > 2 ? "approved" : "requested",
                    "implementation_plan": "Follow the standard runbook.", "backout_plan": "Restore from snapshot.",
                    "test_plan": "Smoke tests after the change.",
                    "active": ["3", "4"].contains(change.1) ? "false" : "true",
                ])
        }
        for index in 0..<3 {
            try insert.record(
                "task", "TASK\(index)", created: date(Double(500 + index * 10)),
                [
                    "short_description": ["Order replacement toner", "Update on-call rota", "Review backup report"][
                        index],
                    "state": ["1", "2", "3"][index], "assignment_group": sysID("sys_user_group", "Service Desk"),
                    "opened_by": sysID("sys_user", "beth.anglin"), "opened_at": date(Double(500 + index * 10)),
                    "active": index == 2 ? "false" : "true",
                ])
        }
        try seedSyslog(insert)
        try seedPeople(insert)
        try seedITSM(insert)
        try seedChange(insert)
        try seedImportSets(insert)
        try seedCatalog(insert)
    }

    /// The `syslog` rows: the messages a running instance logs, one every ten minutes before the first demo date.
    private static func seedSyslog(_ insert: Inserter) throws {
        let messages: [(level: String, source: String, message: String)] = [
            ("0", "Scheduler", "Job 'Clean up expired sessions' completed"),
            ("0", "REST API", "Table API request served"),
            ("1", "Email", "Mailbox poll took longer than expected"),
            ("0", "Security", "User logged in"),
            ("2", "Discovery", "Host unreachable during discovery"),
            ("-1", "Script", "Business rule evaluated"),
        ]
        for index in 0..<syslogCount {
            let entry = messages[index % messages.count]
            let created = date(Double(index - syslogCount) / 6)
            try insert.record(
                "syslog", "LOG\(index)", created: created,
                ["level": entry.level, "source": entry.source, "message": "\(entry.message) (\(index + 1))"])
        }
    }

    /// The sys_id of the model "Unknown" (`cmdb_model`), which every new CI gets unless it names its own, as on a PDI.
    static let unknownModel = sysID("cmdb_model", "Unknown")

    /// Creates the model "Unknown" if missing, with or without the demo data: a PDI has it from the start, so it is
    /// dated before the demo records (and a run's list of what changed never shows it).
    static func ensureUnknownModel(store: RecordStore, dictionary: TableDictionary, _ db: SQLiteConnection) throws {
        guard let models = dictionary.table("cmdb_model"), try store.fetch(models, sysID: unknownModel, db) == nil
        else { return }
        try Inserter(store: store, dictionary: dictionary, db: db).record(
            "cmdb_model", "Unknown", created: date(-3200), ["name": "Unknown", "display_name": "Unknown"])
    }

    /// Creates the administrator if missing and reactivates an existing one and sets its password, unless
    /// `keepsExisting` and it has a password already (the demo data's has none); returns its sys_id (empty without a
    /// `sys_user` table). `passwordHash` is only derived when stored.
    @discardableResult
    static func ensureAdmin(
        userName: String, keepsExisting: Bool, passwordHash: () -> String, timestamp: String,
        store: RecordStore, dictionary: TableDictionary, _ db: SQLiteConnection
    ) throws -> String {
        guard let users = dictionary.table("sys_user") else { return "" }
        if let existing = try store.user(named: userName, db) {
            if !keepsExisting || existing.passwordHash.isEmpty {
                _ = try store.update(
                    users, sysID: existing.sysID, ["user_password": passwordHash(), "active": "true"], db)
            }
            return existing.sysID
        }
        let passwordHash = passwordHash()
        let insert = Inserter(store: store, dictionary: dictionary, db: db)
        try insert.record(
            "sys_user", userName, created: timestamp,
            [
                "user_name": userName, "first_name": "System", "last_name": "Administrator",
                "name": "System Administrator", "title": "System Administrator", "user_password": passwordHash,
            ])
        return sysID("sys_user", userName)
    }

    /// Inserts demo records with their defaults, system fields and numbers.
    struct Inserter {
        let store: RecordStore
        let dictionary: TableDictionary
        let db: SQLiteConnection

        /// Inserts one record; it was last updated when it was closed or resolved, if it was.
        func record(
            _ tableName: String, _ key: String, created: String, _ fields: [String: String], modCount: Int = 0
        ) throws {
            guard let table = dictionary.table(tableName) else { return }
            var record = StoredRecord()
            for field in table.fields { if let value = field.defaultValue { record[field.name] = value } }
            record.merge(fields) { _, new in new }
            record["sys_id"] = DemoData.sysID(tableName, key)
            if table.numberPrefix != nil { record["number"] = try store.nextNumber(table, db) }
            record.stampCreation(by: "admin", at: created)
            record["sys_updated_on"] = [fields["closed_at"], fields["resolved_at"], created].compactMap { $0 }.max()
            record["sys_mod_count"] = String(modCount)
            record["sys_class_name"] = tableName
            try store.insert(table, record, db)
        }
    }
}
