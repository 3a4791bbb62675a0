import Testing

@testable import LocalInstance
import NowData

/// Runs translated encoded queries on a real SQLite database with a few records.
@Suite struct EncodedQuerySQLiteTests {
    private let database: QueryTestDatabase

    init() throws {
        database = try QueryTestDatabase()
        // sys_ids in the reverse order of the names, so that sorting by display value shows.
        let abel = "c3"
        let beth = "b2"
        let fred = "a1"
        try database.insert(
            "sys_user",
            [
                "sys_id": .text(abel), "user_name": .text("abel.tuter"), "name": .text("Abel Tuter"),
                "email": .text("abel@example.com"),
                "active": .integer(1), "manager": .text(fred),
            ])
        try database.insert(
            "sys_user",
            [
                "sys_id": .text(beth), "user_name": .text("beth.anglin"), "name": .text("Beth Anglin"),
                "active": .integer(1),
            ])
        try database.insert(
            "sys_user",
            [
                "sys_id": .text(fred), "user_name": .text("fred.luddy"), "name": .text("Fred Luddy"),
                "email": .text("fred@example.com"),
                "active": .integer(0),
            ])
        let incidents: [(String, SQLValue, Int64, Int64, Int64, SQLValue, SQLValue, SQLValue, String)] = [
            (
                "INC001", .text("Email down 50% of the time"), 1, 1, 2, .text(abel), .text("2026-01-05 00:00:00"),
                .text("network"), "2026-01-05 08:00:00"
            ),
            (
                "INC002", .text("Printer: 50 pages stuck"), 1, 2, 1, .text(beth), .text("2026-01-05 23:59:59"),
                .text("hardware"), "2026-01-06 09:00:00"
            ),
            (
                "INC003", .text("VPN drops 50_50"), 1, 3, 1, .text(abel), .text("2026-01-06 00:00:00"),
                .text("network"), "2026-01-07 09:00:00"
            ),
            (
                "INC004", .text("Laptop slow"), 0, 1, 7, .null, .text("2026-01-04 12:00:00"), .null,
                "2026-01-08 09:00:00"
            ),
            (
                "INC005", .text("Password reset"), 1, 2, 2, .text(fred), .null, .text("software"),
                "2026-01-09 09:00:00"
            ),
            ("INC006", .null, 1, 1, 1, .text(beth), .null, .text("network"), "2026-01-10 09:00:00"),
        ]
        for (number, description, active, priority, state, caller, openedAt, category, created) in incidents {
            try database.insert(
                "incident",
                [
                    "number": .text(number), "short_description": description, "active": .integer(active),
                    "priority": .integer(priority), "state": .integer(state), "caller_id": caller,
                    "opened_at": openedAt, "category": category, "sys_created_on": .text(created),
                ])
        }
    }

    private func numbers(_ text: String, invalidQueryReturnsNoRows: Bool = false) throws -> [String] {
        let translator = SQLQueryTranslator(
            schema: QueryTestSchema(), invalidQueryReturnsNoRows: invalidQueryReturnsNoRows)
        return try database.select(
            "number", from: "incident", translator.translate(try EncodedQuery.parse(text), table: "incident"))
    }

    @Test(arguments: [
        ("active=true^priority<=2^ORDERBYDESCsys_created_on", ["INC006", "INC005", "INC002", "INC001"]),
        ("short_descriptionLIKE50%", ["INC001"]),
        ("short_descriptionLIKE50_", ["INC003"]),
        ("short_descriptionLIKEEMAIL", ["INC001"]),
        ("short_descriptionSTARTSWITHprinter:^ORshort_descriptionENDSWITH_50", ["INC002", "INC003"]),
        ("short_descriptionNOT LIKE50", ["INC004", "INC005", "INC006"]),
        ("short_descriptionISEMPTY", ["INC006"]),
        ("priority=1^ORpriority=3^active=true^NQcategory=software", ["INC001", "INC003", "INC005", "INC006"]),
        ("caller_id.user_name=abel.tuter", ["INC001", "INC003"]),
        ("caller_id.manager.user_name=fred.luddy^ORDERBYDESCnumber", ["INC003", "INC001"]),
        ("caller_id.emailISEMPTY", ["INC002", "INC004", "INC006"]),
        ("caller_id.user_name!=abel.tuter", ["INC002", "INC004", "INC005", "INC006"]),
        ("caller_id.active=false", ["INC005"]),
        ("category!=network", ["INC002", "INC004", "INC005"]),
        ("categoryNOT INnetwork,hardware", ["INC004", "INC005"]),
        ("categoryINnetwork,hardware^ORDERBYcategory^ORDERBYDESCnumber", ["INC002", "INC006", "INC003", "INC001"]),
        ("opened_atON2026-01-05", ["INC001", "INC002"]),
        ("opened_atNOTON2026-01-05", ["INC003", "INC004", "INC005", "INC006"]),
        ("priorityBETWEEN2@3", ["INC002", "INC003", "INC005"]),
        ("stateGT_FIELDpriority", ["INC001", "INC004"]),
        ("stateSAMEASpriority", ["INC005", "INC006"]),
        ("ORDERBYcaller_id^ORDERBYnumber", ["INC004", "INC001", "INC003", "INC002", "INC006", "INC005"]),
        ("ORDERBYDESCcaller_id.user_name", ["INC005", "INC002", "INC006", "INC001", "INC003", "INC004"]),
        ("ORDERBYcaller_id.manager^ORDERBYDESCnumber", ["INC006", "INC005", "INC004", "INC002", "INC003", "INC001"]),
        ("foo=bar^ORDERBYDESCnumber", ["INC006", "INC005", "INC004", "INC003", "INC002", "INC001"]),
    ])
    func selectsTheRightRecords(query: String, expected: [String]) throws {
        #expect(try numbers(query) == expected)
    }

    @Test func sortsASelfReferencingTableThroughItsReference() throws {
        let translator = SQLQueryTranslator(schema: QueryTestSchema(), invalidQueryReturnsNoRows: false)
        let query = translator.translate(
            try EncodedQuery.parse("ORDERBYDESCmanager.user_name^ORDERBYuser_name"), table: "sys_user")
        #expect(
            try database.select("user_name", from: "sys_user", query) == ["abel.tuter", "beth.anglin", "fred.luddy"])
    }

    @Test func invalidQueryReturnsNoRowsWhenAsked() throws {
        #expect(try numbers("active=true^ORfoo=bar", invalidQueryReturnsNoRows: true) == [])
        #expect(try numbers("active=true^ORfoo=bar", invalidQueryReturnsNoRows: false).count == 5)
    }
}
