import Testing

@testable import NowData

@Suite struct EncodedQueryTests {
    /// A condition term written as `field`, the operator, then `value`.
    private func term(_ field: String, _ op: QueryOperator, _ value: String = "") -> EncodedQuery.Term {
        .condition(.init(text: field + op.rawValue + value, field: field, op: op, value: value))
    }

    private func onlyTerm(_ text: String) throws -> EncodedQuery.Term {
        let query = try EncodedQuery.parse(text)
        #expect(query.ordering.isEmpty)
        return try #require(query.groups.first?.clauses.first?.terms.first)
    }

    @Test(arguments: [
        ("active=true", "active", QueryOperator.equals, "true"),
        ("state!=6", "state", .notEquals, "6"),
        ("priority<3", "priority", .lessThan, "3"),
        ("priority<=2", "priority", .lessThanOrEquals, "2"),
        ("priority>2", "priority", .greaterThan, "2"),
        ("priority>=2", "priority", .greaterThanOrEquals, "2"),
        ("short_descriptionLIKEemail", "short_description", .like, "email"),
        ("short_descriptionNOT LIKEtest", "short_description", .notLike, "test"),
        ("short_descriptionNOTLIKEtest", "short_description", .notLikeAlias, "test"),
        ("numberSTARTSWITHINC", "number", .startsWith, "INC"),
        ("numberENDSWITH01", "number", .endsWith, "01"),
        ("number%01", "number", .endsWithAlias, "01"),
        ("short_description*mail", "short_description", .contains, "mail"),
        ("short_description!*mail", "short_description", .doesNotContain, "mail"),
        ("assigned_toISEMPTY", "assigned_to", .isEmpty, ""),
        ("assigned_toISNOTEMPTY", "assigned_to", .isNotEmpty, ""),
        ("categoryEMPTYSTRING", "category", .emptyString, ""),
        ("categoryANYTHING", "category", .anything, ""),
        ("priorityIN1,2,3", "priority", .isIn, "1,2,3"),
        ("numberININC0010001,INC0010002", "number", .isIn, "INC0010001,INC0010002"),
        ("priorityNOT IN4,5", "priority", .notIn, "4,5"),
        ("priorityBETWEEN1@3", "priority", .between, "1@3"),
        ("assigned_toSAMEAScaller_id", "assigned_to", .sameAs, "caller_id"),
        ("assigned_toNSAMEAScaller_id", "assigned_to", .notSameAs, "caller_id"),
        ("reassignment_countGT_FIELDpriority", "reassignment_count", .greaterThanField, "priority"),
        ("reassignment_countLT_FIELDpriority", "reassignment_count", .lessThanField, "priority"),
        ("reassignment_countGT_OR_EQUALS_FIELDpriority", "reassignment_count", .greaterThanOrEqualsField, "priority"),
        ("reassignment_countLT_OR_EQUALS_FIELDpriority", "reassignment_count", .lessThanOrEqualsField, "priority"),
        ("opened_atON2026-01-05", "opened_at", .on, "2026-01-05"),
        ("opened_atNOTON2026-01-05", "opened_at", .notOn, "2026-01-05"),
    ])
    func parsesEveryOperator(text: String, field: String, op: QueryOperator, value: String) throws {
        #expect(try onlyTerm(text) == .condition(.init(text: text, field: field, op: op, value: value)))
    }

    @Test(arguments: [
        // The first operator after the field wins, whatever the value holds.
        ("short_description=a=b!=c", "short_description", QueryOperator.equals, "a=b!=c"),
        ("short_descriptionLIKENOT LIKE", "short_description", .like, "NOT LIKE"),
        ("short_descriptionSTARTSWITHIN", "short_description", .startsWith, "IN"),
        // Lower-case operator-like text belongs to the field name.
        ("u_in_stock_like_on=true", "u_in_stock_like_on", .equals, "true"),
        ("caller_id.user_name=abel.tuter", "caller_id.user_name", .equals, "abel.tuter"),
        ("caller_id.manager.user_name!=abel.tuter", "caller_id.manager.user_name", .notEquals, "abel.tuter"),
        // Field names keep their case; the translator decides whether the field exists.
        ("Active=true", "Active", .equals, "true"),
        ("number ENDSWITH 1", "number ", .endsWith, " 1"),
        ("short_descriptionNOT LIKE50%", "short_description", .notLike, "50%"),
        ("priority==1", "priority", .equals, "=1"),
    ])
    func picksTheRightOperator(text: String, field: String, op: QueryOperator, value: String) throws {
        #expect(try onlyTerm(text) == .condition(.init(text: text, field: field, op: op, value: value)))
    }

    @Test func orBindsTighterThanAndAndNewQueryJoinsGroups() throws {
        let query = try EncodedQuery.parse(
            "active=true^priority=1^ORpriority=2^state=1^NQcategory=network^ORcategory=hardware")
        #expect(
            query
                == EncodedQuery(
                    groups: [
                        .init(clauses: [
                            .init(terms: [term("active", .equals, "true")]),
                            .init(terms: [term("priority", .equals, "1"), term("priority", .equals, "2")]),
                            .init(terms: [term("state", .equals, "1")]),
                        ]),
                        .init(clauses: [
                            .init(terms: [term("category", .equals, "network"), term("category", .equals, "hardware")])
                        ]),
                    ],
                    ordering: []))
    }

    @Test func readsSortTermsInOrderWherever() throws {
        let query = try EncodedQuery.parse("ORDERBYpriority^active=true^ORDERBYDESCsys_created_on^ORDERBYnumber")
        #expect(query.groups == [.init(clauses: [.init(terms: [term("active", .equals, "true")])])])
        #expect(
            query.ordering == [
                .init(field: "priority", descending: false), .init(field: "sys_created_on", descending: true),
                .init(field: "number", descending: false),
            ])
    }

    @Test func emptyQueryHasNoGroups() throws {
        #expect(try EncodedQuery.parse("") == EncodedQuery(groups: [], ordering: []))
        #expect(try EncodedQuery.parse("^EQ") == EncodedQuery(groups: [], ordering: []))
    }

    @Test func skipsEmptyPartsTrailingEQAndAnOrWithNothingBefore() throws {
        let query = try EncodedQuery.parse("^ORactive=true^NQ^priority=1^EQ^")
        #expect(
            query.groups == [
                .init(clauses: [.init(terms: [term("active", .equals, "true")])]),
                .init(clauses: [.init(terms: [term("priority", .equals, "1")])]),
            ])
    }

    @Test func doubledCaretIsALiteralCaret() throws {
        let query = try EncodedQuery.parse("short_description=a^^b^active=true")
        #expect(
            query.groups == [
                .init(clauses: [
                    .init(terms: [term("short_description", .equals, "a^b")]),
                    .init(terms: [term("active", .equals, "true")]),
                ])
            ])
    }

    @Test func keepsNonASCIIValues() throws {
        #expect(
            try onlyTerm("short_description=Drucker défekt ✓") == term("short_description", .equals, "Drucker défekt ✓")
        )
    }

    @Test(arguments: [
        ("active", "no known operator"),
        ("=true", "no known operator"),
        (
            "assigned_toDYNAMIC90d1921e5f510100a9ad2572f2b477fe",
            "the operator DYNAMIC is not supported by the local instance"
        ),
        (
            "assignment_groupIN_HIERARCHY287ebd7da9fe198100f92cc8d1d2154e",
            "the operator IN_HIERARCHY is not supported by the local instance"
        ),
        ("stateVALCHANGES", "the operator VALCHANGES is not supported by the local instance"),
        ("sys_class_nameINSTANCEOFtask", "the operator INSTANCEOF is not supported by the local instance"),
        ("assigned_toISEMPTYnow", "ISEMPTY takes no value"),
    ])
    func unreadablePartsBecomeInvalidTerms(text: String, reason: String) throws {
        #expect(try onlyTerm(text) == .invalid(text: text, reason: reason))
    }

    @Test(arguments: [
        "sla_dueONToday@javascript:gs.daysAgoStart(0)@javascript:gs.getUserID()",
        "caller_id=JavaScript:gs.getUserID()",
        "opened_at>javascript:gs.daysAgo(1)+1",
        "opened_at>javascript: gs.daysAgo(1)",
        "javascript:gs.daysAgo(1)=opened_at",
    ])
    func refusesJavaScriptValues(condition: String) {
        #expect(throws: EncodedQueryError.javascriptValue(condition: condition)) {
            try EncodedQuery.parse("active=true^OR" + condition + "^ORDERBYnumber")
        }
    }

    @Test func javaScriptErrorMessageNamesTheCondition() {
        let error = EncodedQueryError.javascriptValue(condition: "caller_id=javascript:gs.getUserID()")
        #expect(
            error.description
                == "encoded query condition 'caller_id=javascript:gs.getUserID()' has a javascript: value; "
                + "the local instance does not run scripts")
    }

    @Test(arguments: [
        "sla_dueONToday@javascript:gs.daysAgoStart(0)@javascript:gs.daysAgoEnd(0)",
        "opened_at>=javascript:gs.beginningOfToday()",
        "opened_atBETWEENjavascript:gs.minutesAgo(15)@javascript:gs.endOfThisWeek()",
    ])
    func keepsTheDateHelpersOfListFilters(condition: String) throws {
        guard case .condition(let parsed) = try onlyTerm(condition) else {
            Issue.record("not a condition: \(condition)")
            return
        }
        #expect(parsed.text == condition)
        #expect(parsed.value.hasPrefix("Today@javascript:") || parsed.value.hasPrefix("javascript:"))
    }

    @Test func readsAJoinWithItsSubquery() throws {
        let query = try EncodedQuery.parse("active=true^JOINsys_user.sys_id=sys_user_group.manager!active=true^ORDERBYname")
        let join = EncodedQuery.Join(
            text: "JOINsys_user.sys_id=sys_user_group.manager!active=true", table: "sys_user", field: "sys_id",
            joinTable: "sys_user_group", joinField: "manager",
            query: EncodedQuery(groups: [.init(clauses: [.init(terms: [term("active", .equals, "true")])])], ordering: []))
        #expect(
            query
                == EncodedQuery(
                    groups: [.init(clauses: [.init(terms: [term("active", .equals, "true")]), .init(terms: [.join(join)])])],
                    ordering: [.init(field: "name", descending: false)]))
        #expect(
            try onlyTerm("JOINsys_user.sys_id=sys_user_group!active=true")
                == .invalid(
                    text: "JOINsys_user.sys_id=sys_user_group!active=true",
                    reason: "a JOIN is written JOINtable.field=other.field!conditions"))
    }

    @Test func readsRelatedListQueriesNestedOrNot() throws {
        let query = try EncodedQuery.parse(
            "RLQUERYsys_group_has_role.group,>0,m2m^role.nameLIKEadmin^ORrole.name=itil"
                + "^RLQUERYsys_user_grmember.group,>=2^ENDRLQUERY^ENDRLQUERY^ORname=Network^active=true")
        let inner = EncodedQuery.RelatedList(
            text: "RLQUERYsys_user_grmember.group,>=2", table: "sys_user_grmember", field: "group",
            comparison: .greaterThanOrEquals, count: 2, stopsAtRelationship: false,
            query: EncodedQuery(groups: [], ordering: []))
        let outer = EncodedQuery.RelatedList(
            text: "RLQUERYsys_group_has_role.group,>0,m2m", table: "sys_group_has_role", field: "group",
            comparison: .greaterThan, count: 0, stopsAtRelationship: true,
            query: EncodedQuery(
                groups: [
                    .init(clauses: [
                        .init(terms: [term("role.name", .like, "admin"), term("role.name", .equals, "itil")]),
                        .init(terms: [.relatedList(inner)]),
                    ])
                ], ordering: []))
        #expect(
            query.groups == [
                .init(clauses: [
                    .init(terms: [.relatedList(outer), term("name", .equals, "Network")]),
                    .init(terms: [term("active", .equals, "true")]),
                ])
            ])
        #expect(
            try EncodedQuery.parse("active=true^RLQUERYsys_user_grmember.group,>0^user.active=true").groups == [
                .init(clauses: [
                    .init(terms: [term("active", .equals, "true")]),
                    .init(terms: [.invalid(text: "RLQUERYsys_user_grmember.group,>0", reason: "RLQUERY without ENDRLQUERY")]),
                ])
            ])
        #expect(
            try onlyTerm("RLQUERYsys_user_grmember.group,about0^ENDRLQUERY")
                == .invalid(
                    text: "RLQUERYsys_user_grmember.group,about0",
                    reason: "an RLQUERY is written RLQUERYtable.field,>0[,m2m]^conditions^ENDRLQUERY"))
    }

    @Test func thousandsOfConditionsAreReadAndOneMoreThanTheMostIsRefused() throws {
        let most = Array(repeating: "AAAA=BBBB", count: EncodedQuery.maximumConditions).joined(separator: "^")
        #expect(try EncodedQuery.parse(most).groups.first?.clauses.count == 10_000)
        #expect(throws: EncodedQueryError.tooManyConditions(count: 10_001)) {
            try EncodedQuery.parse(most + "^JOINsys_user.sys_id=sys_user_group.manager!active=true")
        }
    }
}
