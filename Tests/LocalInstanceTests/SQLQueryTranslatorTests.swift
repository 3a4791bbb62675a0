import Foundation
import Testing

@testable import LocalInstance
import NowData

@Suite struct SQLQueryTranslatorTests {
    private let translator = SQLQueryTranslator(schema: QueryTestSchema(), invalidQueryReturnsNoRows: false)

    private func translate(_ text: String, table: String = "incident") throws -> TranslatedQuery {
        translator.translate(try EncodedQuery.parse(text), table: table)
    }

    @Test func translatesTheBenchmarkQuery() throws {
        #expect(
            try translate("active=true^priority<=2^ORDERBYDESCsys_created_on")
                == TranslatedQuery(
                    whereClause: #""active" = ? AND "priority" <= ?"#, parameters: [.integer(1), .integer(2)],
                    orderBy: #""sys_created_on" DESC"#, warnings: []))
    }

    @Test func emptyQueryMatchesEveryRow() throws {
        #expect(try translate("") == TranslatedQuery(whereClause: "", parameters: [], orderBy: "", warnings: []))
    }

    @Test func groupsOrAndNewQueryWithParentheses() throws {
        let sql = try translate("active=true^priority=1^ORpriority=2^NQcategory=network^ORcategory=hardware^state=1")
        #expect(
            sql.whereClause
                == #"("active" = ? AND ("priority" = ? OR "priority" = ?)) OR (("category" COLLATE NOCASE = ? OR "category" COLLATE NOCASE = ?) AND "state" = ?)"#
        )
        #expect(
            sql.parameters == [
                .integer(1), .integer(1), .integer(2), .text("network"), .text("hardware"), .integer(1),
            ])
    }

    @Test(arguments: [
        ("number=INC0010001", #""number" COLLATE NOCASE = ?"#, [SQLValue.text("INC0010001")]),
        ("state!=6", #""state" IS NOT ?"#, [.integer(6)]),
        ("priority<3", #""priority" < ?"#, [.integer(3)]),
        ("priority<=3", #""priority" <= ?"#, [.integer(3)]),
        ("priority>3", #""priority" > ?"#, [.integer(3)]),
        ("priority>=3", #""priority" >= ?"#, [.integer(3)]),
        ("u_cost>=12.5", #""u_cost" >= ?"#, [.real(12.5)]),
        ("active=false", #""active" = ?"#, [.integer(0)]),
        ("active!=TRUE", #""active" IS NOT ?"#, [.integer(1)]),
        ("opened_at>2026-01-05 08:00:00", #""opened_at" > ?"#, [.text("2026-01-05 08:00:00")]),
        (
            "caller_id=62826bf03710200044e0bfc8bcbe5df1", #""caller_id" = ?"#,
            [.text("62826bf03710200044e0bfc8bcbe5df1")]
        ),
        ("short_descriptionLIKEmail", #""short_description" LIKE ? ESCAPE '\'"#, [.text("%mail%")]),
        ("short_description*mail", #""short_description" LIKE ? ESCAPE '\'"#, [.text("%mail%")]),
        (
            "short_descriptionNOT LIKEmail",
            #"("short_description" IS NULL OR "short_description" NOT LIKE ? ESCAPE '\')"#,
            [.text("%mail%")]
        ),
        (
            "short_descriptionNOTLIKEmail",
            #"("short_description" IS NULL OR "short_description" NOT LIKE ? ESCAPE '\')"#,
            [.text("%mail%")]
        ),
        (
            "short_description!*mail", #"("short_description" IS NULL OR "short_description" NOT LIKE ? ESCAPE '\')"#,
            [.text("%mail%")]
        ),
        ("numberSTARTSWITHINC", #""number" LIKE ? ESCAPE '\'"#, [.text("INC%")]),
        ("numberENDSWITH01", #""number" LIKE ? ESCAPE '\'"#, [.text("%01")]),
        ("number%01", #""number" LIKE ? ESCAPE '\'"#, [.text("%01")]),
        ("assigned_toISEMPTY", #"("assigned_to" IS NULL OR "assigned_to" = '')"#, []),
        ("categoryEMPTYSTRING", #"("category" IS NULL OR "category" = '')"#, []),
        ("category=", #"("category" IS NULL OR "category" = '')"#, []),
        ("assigned_toISNOTEMPTY", #"("assigned_to" IS NOT NULL AND "assigned_to" <> '')"#, []),
        ("category!=", #"("category" IS NOT NULL AND "category" <> '')"#, []),
        ("categoryANYTHING", "1", []),
        ("priorityIN1, 2,3,", #""priority" IN (?, ?, ?)"#, [.integer(1), .integer(2), .integer(3)]),
        (
            "categoryNOT INnetwork,hardware", #"("category" IS NULL OR "category" COLLATE NOCASE NOT IN (?, ?))"#,
            [.text("network"), .text("hardware")]
        ),
        ("priorityBETWEEN2@4", #""priority" BETWEEN ? AND ?"#, [.integer(2), .integer(4)]),
        (
            "due_dateBETWEEN2026-01-01@2026-01-31", #""due_date" BETWEEN ? AND ?"#,
            [.text("2026-01-01"), .text("2026-01-31")]
        ),
        ("assigned_toSAMEAScaller_id", #""assigned_to" IS "caller_id""#, []),
        ("assigned_toNSAMEAScaller_id", #""assigned_to" IS NOT "caller_id""#, []),
        ("reassignment_countGT_FIELDpriority", #""reassignment_count" > "priority""#, []),
        ("reassignment_countLT_FIELDpriority", #""reassignment_count" < "priority""#, []),
        ("reassignment_countGT_OR_EQUALS_FIELDpriority", #""reassignment_count" >= "priority""#, []),
        ("reassignment_countLT_OR_EQUALS_FIELDpriority", #""reassignment_count" <= "priority""#, []),
        (
            "opened_atON2026-01-05", #""opened_at" BETWEEN ? AND ?"#,
            [.text("2026-01-05 00:00:00"), .text("2026-01-05 23:59:59")]
        ),
        (
            "opened_atNOTON2026-01-05", #"("opened_at" IS NULL OR "opened_at" NOT BETWEEN ? AND ?)"#,
            [.text("2026-01-05 00:00:00"), .text("2026-01-05 23:59:59")]
        ),
        ("due_dateON2024-02-29", #""due_date" = ?"#, [.text("2024-02-29")]),
        ("due_dateNOTON2024-02-29", #""due_date" IS NOT ?"#, [.text("2024-02-29")]),
        ("sys_mod_count>0", #""sys_mod_count" > ?"#, [.integer(0)]),
    ])
    func translatesEveryOperator(text: String, sql: String, parameters: [SQLValue]) throws {
        #expect(
            try translate(text)
                == TranslatedQuery(whereClause: sql, parameters: parameters, orderBy: "", warnings: []))
    }

    @Test func onTodayYesterdayTomorrowAreUTCDays() throws {
        // 2026-03-01 00:30:00 UTC, a day after 2026-02-28.
        let clock = SQLQueryTranslator(
            schema: QueryTestSchema(), invalidQueryReturnsNoRows: false,
            now: { Date(timeIntervalSince1970: 1_772_325_000) })
        let sql = clock.translate(
            try EncodedQuery.parse("opened_atONToday^ORopened_atONYesterday^ORdue_dateNOTONTomorrow"), table: "incident"
        )
        #expect(
            sql.whereClause
                == #"("opened_at" BETWEEN ? AND ? OR "opened_at" BETWEEN ? AND ? OR "due_date" IS NOT ?)"#)
        #expect(
            sql.parameters == [
                .text("2026-03-01 00:00:00"), .text("2026-03-01 23:59:59"), .text("2026-02-28 00:00:00"),
                .text("2026-02-28 23:59:59"), .text("2026-03-02"),
            ])
    }

    @Test func likeValuesMatchLiterally() throws {
        let sql = try translate(#"short_descriptionLIKE50%_\^ORnumberSTARTSWITHINC_%^ORnumberENDSWITH\_"#)
        #expect(
            sql.whereClause
                == #"("short_description" LIKE ? ESCAPE '\' OR "number" LIKE ? ESCAPE '\' OR "number" LIKE ? ESCAPE '\')"#
        )
        #expect(sql.parameters == [.text(#"%50\%\_\\%"#), .text(#"INC\_\%%"#), .text(#"%\\\_"#)])
    }

    @Test func dotWalksReferencesWithSubqueries() throws {
        #expect(
            try translate("caller_id.user_name=abel.tuter")
                == TranslatedQuery(
                    whereClause: #""caller_id" IN (SELECT "sys_id" FROM "sys_user" WHERE "user_name" COLLATE NOCASE = ?)"#,
                    parameters: [.text("abel.tuter")], orderBy: "", warnings: []))
        #expect(
            try translate("caller_id.manager.active=true^priority=1")
                == TranslatedQuery(
                    whereClause:
                        #""caller_id" IN (SELECT "sys_id" FROM "sys_user" WHERE "manager" IN (SELECT "sys_id" FROM "sys_user" WHERE "active" = ?)) AND "priority" = ?"#,
                    parameters: [.integer(1), .integer(1)], orderBy: "", warnings: []))
    }

    @Test func dotWalkThroughAnEmptyReferenceMatchesNegativeConditions() throws {
        #expect(
            try translate("caller_id.manager.user_name!=abel.tuter").whereClause
                == #"("caller_id" IS NULL OR "caller_id" IN (SELECT "sys_id" FROM "sys_user" WHERE ("manager" IS NULL OR "manager" IN (SELECT "sys_id" FROM "sys_user" WHERE "user_name" COLLATE NOCASE IS NOT ?))))"#
        )
        #expect(
            try translate("caller_id.emailISEMPTY").whereClause
                == #"("caller_id" IS NULL OR "caller_id" IN (SELECT "sys_id" FROM "sys_user" WHERE ("email" IS NULL OR "email" = '')))"#
        )
    }

    @Test func sortsInOrderAndIgnoresUnknownFields() throws {
        #expect(
            try translate(
                "ORDERBYpriority^ORDERBYDESCsys_created_on^ORDERBYnope^ORDERBYDESCcaller_id.nope"
                    + "^ORDERBYshort_description.name^ORDERBY")
                == TranslatedQuery(
                    whereClause: "", parameters: [], orderBy: #""priority" ASC, "sys_created_on" DESC"#,
                    warnings: [
                        "ignored invalid order 'ORDERBYnope': incident has no field 'nope'",
                        "ignored invalid order 'ORDERBYDESCcaller_id.nope': sys_user has no field 'nope'",
                        "ignored invalid order 'ORDERBYshort_description.name': "
                            + "incident.short_description is not a reference, it cannot be dot-walked",
                        "ignored invalid order 'ORDERBY': no field",
                    ]))
    }

    @Test func sortsReferencesByDisplayValueAndDotWalksWithCorrelatedSubqueries() throws {
        #expect(
            try translate("ORDERBYcaller_id").orderBy
                == #"(SELECT "_sort1"."name" FROM "sys_user" AS "_sort1" WHERE "_sort1"."sys_id" = "incident"."caller_id") ASC"#
        )
        #expect(
            try translate("ORDERBYDESCcaller_id.manager.email").orderBy
                == #"(SELECT "_sort2"."email" FROM "sys_user" AS "_sort2" WHERE "_sort2"."sys_id" = "#
                + #"(SELECT "_sort1"."manager" FROM "sys_user" AS "_sort1" WHERE "_sort1"."sys_id" = "incident"."caller_id")) DESC"#
        )
    }

    @Test(arguments: [
        ("foo=bar", "incident has no field 'foo'"),
        ("Active=true", "incident has no field 'Active'"),
        ("active", "no known operator"),
        ("priority=high", "priority is an integer field, 'high' is not an integer"),
        ("priorityIN1,two", "priority is an integer field, 'two' is not an integer"),
        ("priorityIN,", "IN needs at least one value"),
        ("priorityBETWEEN1", "BETWEEN needs two values separated by '@'"),
        ("priorityBETWEEN1@2@3", "BETWEEN needs two values separated by '@'"),
        ("u_cost<cheap", "u_cost is a decimal field, 'cheap' is not a number"),
        ("active=yes", "active is a boolean field, 'yes' is not true or false"),
        ("caller_id.nope=x", "sys_user has no field 'nope'"),
        ("short_description.name=x", "incident.short_description is not a reference, it cannot be dot-walked"),
        ("caller_id.=x", "sys_user has no field ''"),
        ("caller_id.nameSAMEASshort_description", "SAMEAS compares fields of incident only, not dot-walked ones"),
        ("assigned_toSAMEAScaller_id.manager", "incident has no field 'caller_id.manager'"),
        ("priorityON2026-01-05", "ON needs a date or date-time field"),
        ("opened_atNOTON2026-02-30", "NOTON needs a date yyyy-MM-dd, Today, Yesterday or Tomorrow, not '2026-02-30'"),
        ("opened_atONtoday", "ON needs a date yyyy-MM-dd, Today, Yesterday or Tomorrow, not 'today'"),
        ("sys_class_nameINSTANCEOFtask", "the operator INSTANCEOF is not supported by the local instance"),
        (
            "assigned_toDYNAMIC90d1921e5f510100a9ad2572f2b477fe",
            "the operator DYNAMIC is not supported by the local instance"
        ),
        (#""x" OR 1=1 --=1"#, #"incident has no field '"x" OR 1'"#),
    ])
    func ignoresInvalidConditionsWithAWarning(text: String, reason: String) throws {
        #expect(
            try translate("active=true^" + text)
                == TranslatedQuery(
                    whereClause: #""active" = ?"#, parameters: [.integer(1)], orderBy: "",
                    warnings: ["ignored invalid condition '\(text)': \(reason)"]))
    }

    @Test func valuesAreOnlyEverBound() throws {
        #expect(
            try translate(#"number=1' OR '1'='1^ORshort_descriptionLIKE"); DROP TABLE incident; --"#)
                == TranslatedQuery(
                    whereClause: #"("number" COLLATE NOCASE = ? OR "short_description" LIKE ? ESCAPE '\')"#,
                    parameters: [.text("1' OR '1'='1"), .text(#"%"); DROP TABLE incident; --%"#)], orderBy: "",
                    warnings: []))
    }

    @Test func anInvalidTermOfAnOrKeepsTheOthers() throws {
        #expect(
            try translate("priority=1^ORfoo=bar^ORpriority=2")
                == TranslatedQuery(
                    whereClause: #"("priority" = ? OR "priority" = ?)"#, parameters: [.integer(1), .integer(2)],
                    orderBy: "", warnings: ["ignored invalid condition 'foo=bar': incident has no field 'foo'"]))
    }

    @Test func aGroupOfOnlyInvalidConditionsMatchesEveryRow() throws {
        #expect(
            try translate("active=true^NQfoo=bar^ORDERBYnumber")
                == TranslatedQuery(
                    whereClause: "", parameters: [], orderBy: #""number" ASC"#,
                    warnings: ["ignored invalid condition 'foo=bar': incident has no field 'foo'"]))
    }

    @Test func unknownTableHasNoFields() throws {
        #expect(
            try translate("active=true", table: "u_nothing").warnings
                == ["ignored invalid condition 'active=true': u_nothing has no field 'active'"])
    }

    @Test func invalidQueryReturnsNoRowsWhenAsked() throws {
        let strict = SQLQueryTranslator(schema: QueryTestSchema(), invalidQueryReturnsNoRows: true)
        #expect(
            strict.translate(try EncodedQuery.parse("active=true^ORfoo=bar^ORDERBYDESCnumber"), table: "incident")
                == TranslatedQuery(
                    whereClause: "0", parameters: [], orderBy: #""number" DESC"#,
                    warnings: ["invalid condition 'foo=bar' makes the query match no rows: incident has no field 'foo'"]))
        #expect(
            strict.translate(try EncodedQuery.parse("active=true^ORDERBYnope"), table: "incident")
                == TranslatedQuery(
                    whereClause: #""active" = ?"#, parameters: [.integer(1)], orderBy: "",
                    warnings: ["ignored invalid order 'ORDERBYnope': incident has no field 'nope'"]))
    }
}
