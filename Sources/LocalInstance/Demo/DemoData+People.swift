extension DemoData {
    /// The roles (`sys_user_role`), `admin` at the PDI's sys_id.
    static let roles: [(name: String, description: String)] = [
        ("admin", "System administrator"), ("itil", "Fulfiller of ITSM work"), ("itil_admin", "ITSM administrator"),
        ("user_admin", "User administrator"), ("catalog_admin", "Service catalog administrator"),
        ("knowledge_admin", "Knowledge administrator"), ("problem_admin", "Problem administrator"),
        ("problem_manager", "Problem manager"), ("change_manager", "Change manager"),
        ("knowledge", "Knowledge contributor"), ("catalog", "Catalog user"), ("approver_user", "Approver"),
        ("snc_internal", "Internal user"), ("rest_api_explorer", "REST API Explorer user"),
        // The roles that setups and tests written for a PDI look up by name (servicenow.itsm's service catalog
        // target grants snc_basic_auth_api_access; guides for the 2026 Basic auth restriction name the others).
        ("snc_basic_auth_api_access", "Basic authentication for REST APIs"),
        ("snc_platform_rest_api_access", "Platform REST API access"), ("security_admin", "Security administrator"),
        ("web_service_admin", "Web service administrator"), ("oauth_admin", "OAuth administrator"),
        ("snc_required_script_writer_permission", "Script writer"),
        ("sn_change_read", "Change Management reader"), ("import_transformer", "Import set loader"),
        ("impersonator", "Impersonate other users"),
    ]

    /// The roles each group gives its members (`sys_group_has_role`).
    static let groupRoles: [String: [String]] = [
        "Service Desk": ["itil", "knowledge_admin"], "Network": ["itil"], "Database": ["itil"], "Hardware": ["itil"],
        "Software": ["itil", "catalog_admin"], "Change Management": ["itil", "change_manager", "itil_admin"],
        "Problem Solving": ["itil", "problem_admin"],
    ]

    /// The roles given to users directly (`sys_user_has_role`, not inherited).
    static let userRoles: [String: [String]] = [
        "admin": ["admin"], "fred.luddy": ["admin"], "natasha.ingram": ["admin"], "don.goodliffe": ["admin"],
        "ron.kettering": ["admin"], "luke.wilson": ["admin"], "charlie.whitherspoon": ["admin"],
        "bud.richman": ["admin"], "david.loo": ["admin"], "aileen.mottern": ["admin"], "alejandra.prenatt": ["admin"],
        "alyssa.biasotti": ["admin"], "itil": ["itil"], "beth.anglin": ["itil"], "problem.admin": ["problem_admin"],
        "problem.manager": ["problem_manager"], "abel.tuter": ["approver_user"],
    ]

    private static let generatedFirstNames = [
        "Aileen", "Alejandra", "Alyssa", "Amos", "Annie", "Bertie", "Billie", "Brant", "Carol", "Cherie",
        "Christen", "Cruz", "Dale", "Darin", "Delia", "Elisa", "Emery", "Fannie", "Genevieve", "Hal",
    ]
    private static let generatedLastNames = [
        "Mottern", "Prenatt", "Biasotti", "Linde", "Bucklin", "Mcquire", "Pires", "Ashman", "Coley", "Whitesel",
        "Delorenzo", "Gotter", "Kopp", "Lesko", "Sorrell", "Vanwyk", "Eickhoff", "Hulme", "Koenig", "Zurn",
    ]

    /// The generated users: every first name with every last name (400), so that a list pages many times at the
    /// SDK's default of 20; the first three are `aileen.mottern`, `alejandra.prenatt` and `alyssa.biasotti`.
    static var generatedUsers: [(userName: String, first: String, last: String)] {
        generatedLastNames.enumerated().flatMap { lastIndex, last in
            generatedFirstNames.indices.map { offset in
                // Each last name starts one first name further on, so the first users differ in both names.
                let first = generatedFirstNames[(offset + lastIndex) % generatedFirstNames.count]
                return ("\(first).\(last)".lowercased(), first, last)
            }
        }
    }

    /// The generated users, the roles, the roles of groups and of users (direct, and inherited from each group).
    static func seedPeople(_ insert: Inserter) throws {
        let titles = ["Analyst", "Engineer", "Specialist", "Coordinator", "Consultant"]
        for (index, user) in generatedUsers.enumerated() {
            let department = departments[index % departments.count].name
            try insert.record(
                "sys_user", user.userName, created: date(Double(-1990 + index) / 4),
                [
                    "user_name": user.userName, "first_name": user.first, "last_name": user.last,
                    "name": "\(user.first) \(user.last)", "email": "\(user.userName)@example.com",
                    "title": "\(department) \(titles[index % titles.count])",
                    "department": sysID("cmn_department", department), "active": index % 25 == 24 ? "false" : "true",
                ])
        }
        for (index, role) in roles.enumerated() {
            try insert.record(
                "sys_user_role", role.name, created: date(Double(-3000 + index)),
                [
                    "name": role.name, "description": role.description,
                    "elevated_privilege": ["admin", "security_admin"].contains(role.name) ? "true" : "false",
                ])
        }
        for group in groups {
            for role in groupRoles[group.name] ?? [] {
                try insert.record(
                    "sys_group_has_role", "\(group.name)/\(role)", created: date(-1850),
                    ["group": sysID("sys_user_group", group.name), "role": sysID("sys_user_role", role)])
                for member in group.members {
                    try insert.record(
                        "sys_user_has_role", "\(member)/\(role)/\(group.name)", created: date(-1850),
                        [
                            "user": sysID("sys_user", member), "role": sysID("sys_user_role", role),
                            "granted_by": sysID("sys_user_group", group.name), "inherited": "true",
                        ])
                }
            }
        }
        for (user, granted) in userRoles.sorted(by: { $0.key < $1.key }) {
            for role in granted {
                try insert.record(
                    "sys_user_has_role", "\(user)/\(role)", created: date(-1840),
                    ["user": sysID("sys_user", user), "role": sysID("sys_user_role", role)])
            }
        }
    }
}
