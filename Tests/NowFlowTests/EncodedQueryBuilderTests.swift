import NowData
import Testing

@testable import NowFlow

@Suite struct EncodedQueryBuilderTests {
    private let scope = Scope(vars: [
        "caller": .string("abel.tuter"),
        "hostile": .string("x^ORactive=false"),
        "multiline": .string("a\nb"),
        "crlf": .string("a\r\nb"),
        "combinedCaret": .string("x^\u{301}ORactive=false"),
        "prependedCaret": .string("x\u{600}^ORactive=false"),
        "combinedScript": .string("javascript:\u{301}gs.getUserID()"),
        "prepended": .string("x\u{600}"),
        "operator": .string("priority<"),
        "script": .string("javascript:gs.getUserID()"),
        "field": .string("priority"),
        "badField": .string("priority=1^active"),
        "days": .number(JSONNumber(30)),
    ])

    private func render(_ template: String) -> String {
        do {
            return try EncodedQueryBuilder.render(Template(parsing: template), in: scope)
        } catch let error as QueryBuildError {
            return "error: \(error.message)"
        } catch {
            return "template error: \(error)"
        }
    }

    /// The printed query of `field: value` equalities, each value given by `${vars.field}`.
    private func whereClause(_ conditions: [(String, JSONValue)]) -> String {
        whereClause(
            WhereClause(
                conditions: conditions.map {
                    WhereCondition(field: $0.0, op: .equals, value: .value($0.1), mark: YAMLMark(line: 1, column: 1))
                }))
    }

    private func whereClause(_ clause: WhereClause) -> String {
        do {
            let selection = try EncodedQueryBuilder.query(clause) { condition throws(QueryBuildError) in
                guard case .value(let value)? = condition.value else { return (.null, "") }
                return (value, "${vars.\(condition.field)}")
            }
            switch selection {
            case .query(let query): return query.text
            case .nothing(let reason): return "nothing: \(reason)"
            }
        } catch {
            return "error: \(error.message)"
        }
    }

    private func condition(_ field: String, _ op: QueryOperator, _ value: JSONValue?) -> WhereCondition {
        WhereCondition(field: field, op: op, value: value.map(TemplateValue.value), mark: YAMLMark(line: 1, column: 1))
    }

    @Test func valuesFillTheirPlaces() {
        #expect(
            render("active=true^caller_id.user_name=${vars.caller}^ORDERBYnumber")
                == "active=true^caller_id.user_name=abel.tuter^ORDERBYnumber")
        #expect(render("${vars.field}<=${vars.days}") == "priority<=30")
        #expect(render("short_descriptionLIKE${vars.caller}") == "short_descriptionLIKEabel.tuter")
        #expect(render("priorityIN${vars.days}") == "priorityIN30")
        #expect(render("active=true^OR${vars.field}=1^ORDERBYDESC${vars.field}") == "active=true^ORpriority=1^ORDERBYDESCpriority")
        #expect(
            render("active=true^OR${vars.badField}=1")
                == "error: the value of ${vars.badField} stands where the query expects a field name, and 'priority=1^active' is not one (letters, digits, '_' and '.' only)"
        )
    }

    @Test func aCaretInAValueIsRefused() {
        #expect(
            render("short_description=${vars.hostile}")
                == "error: the value of ${vars.hostile} holds '^', which an encoded query reads as the start of a new condition; ServiceNow has no escape for '^', so the value is refused"
        )
    }

    @Test func lineBreaksAndScriptsAreRefused() {
        #expect(
            render("description=${vars.multiline}")
                == "error: the value of ${vars.multiline} holds a line break, which would end the encoded query; the value is refused"
        )
        // A CRLF is one Character, equal to neither "\n" nor "\r".
        #expect(
            render("description=${vars.crlf}")
                == "error: the value of ${vars.crlf} holds a line break, which would end the encoded query; the value is refused"
        )
    }

    /// A value ending in a prepended mark (one `Character` with the `^` after it) leaves the place after that `^` a
    /// field name's, as the parser reads it: a value there must be a field name.
    @Test func aFieldPlaceAfterACaretThatAPrependedMarkHoldsIsStillOne() {
        #expect(
            render("short_description=${vars.prepended}^${vars.operator}=1")
                == "error: the value of ${vars.operator} stands where the query expects a field name, and 'priority<' is not one (letters, digits, '_' and '.' only)"
        )
    }

    /// The checks read bytes, not `Character`s: a `^`, `:`, `,` or `@` with a combining mark after it, or a
    /// prepended mark before it, is one `Character` unequal to it, and the instance's parser still reads it.
    @Test func aSeparatorInsideAGraphemeClusterIsStillRefused() {
        let caret = "holds '^', which an encoded query reads as the start of a new condition; ServiceNow has no escape for '^', so the value is refused"
        #expect(render("short_description=${vars.combinedCaret}") == "error: the value of ${vars.combinedCaret} \(caret)")
        #expect(render("short_description=${vars.prependedCaret}") == "error: the value of ${vars.prependedCaret} \(caret)")
        #expect(
            render("caller_id=${vars.combinedScript}")
                == "error: the value of ${vars.combinedScript} holds 'javascript:', which the instance would run as a script; the value is refused"
        )
        #expect(
            whereClause([("state", .array([.string("1,\u{301}2")]))])
                == "error: the value of state (${vars.state}) holds ',' in an array item, which an IN condition reads as a separator"
        )
        #expect(
            whereClause(WhereClause(conditions: [condition("opened_at", .between, .array(["2026@\u{301}", "2027"]))]))
                == "error: the value of opened_at (${vars.opened_at}) holds '@', which a BETWEEN condition reads as a separator"
        )
        #expect(
            render("caller_id=${vars.script}")
                == "error: the value of ${vars.script} holds 'javascript:', which the instance would run as a script; the value is refused"
        )
    }

    @Test func aValueInAFieldNamePlaceMustBeAFieldName() {
        #expect(
            render("active=true^${vars.badField}=2")
                == "error: the value of ${vars.badField} stands where the query expects a field name, and 'priority=1^active' is not one (letters, digits, '_' and '.' only)"
        )
    }

    @Test func missingValuesAreNamed() {
        #expect(render("a=${vars.nope}") == "error: ${vars.nope}: vars.nope: no variable 'nope' is set")
    }

    @Test func whereBuildsAndedEqualities() {
        #expect(
            whereClause([("user_name", .string("abel.tuter")), ("active", .bool(true)), ("priority", .number(JSONNumber(1)))])
                == "user_name=abel.tuter^active=true^priority=1")
        #expect(
            whereClause([("assigned_to", .null), ("close_code", .string(""))]) == "assigned_toISEMPTY^close_codeISEMPTY"
        )
        #expect(whereClause([("state", .array([.number(JSONNumber(1)), .number(JSONNumber(2))]))]) == "stateIN1,2")
        #expect(whereClause([("short_description", .string("a=b & c"))]) == "short_description=a=b & c")
    }

    @Test func whereRefusesWhatItCannotEscape() {
        #expect(
            whereClause([("short_description", .string("50% ^ off"))])
                == "error: the value of short_description (${vars.short_description}) holds '^', which an encoded query reads as the start of a new condition; ServiceNow has no escape for '^', so the value is refused"
        )
        #expect(
            whereClause([("state", .array([.string("1,2")]))])
                == "error: the value of state (${vars.state}) holds ',' in an array item, which an IN condition reads as a separator"
        )
        #expect(
            whereClause([("caller", .object([:]))])
                == "error: the value of caller (${vars.caller}) is an object; a where: value must be a string, a number, a boolean, null, an array or a record (its sys_id)"
        )
    }

    @Test func whereOperatorsBecomeConditions() {
        let clause = WhereClause(conditions: [
            condition("opened_at", .greaterThanOrEquals, .string("2026-11-27 00:00:00")),
            condition("priority", .isIn, .array([1, 2])),
            condition("short_description", .like, .string("disk")),
            condition("assigned_to", .isEmpty, nil),
            condition("sys_created_on", .between, .array(["2026-01-01", "2026-02-01"])),
            condition("state", .notEquals, .array([6, 7])),
        ])
        #expect(
            whereClause(clause)
                == "opened_at>=2026-11-27 00:00:00^priorityIN1,2^short_descriptionLIKEdisk^assigned_toISEMPTY"
                + "^sys_created_onBETWEEN2026-01-01@2026-02-01^stateNOT IN6,7")
    }

    @Test func orAlternativesOfOneConditionShareAClauseOthersBecomeGroups() {
        let single = WhereClause(
            conditions: [condition("active", .equals, true)],
            alternatives: [
                WhereClause(conditions: [condition("category", .equals, "network")]),
                WhereClause(conditions: [condition("priority", .lessThanOrEquals, 2)]),
            ])
        #expect(whereClause(single) == "active=true^category=network^ORpriority<=2")
        let grouped = WhereClause(
            conditions: [condition("active", .equals, true)],
            alternatives: [
                WhereClause(conditions: [condition("category", .equals, "network"), condition("priority", .equals, 1)]),
                WhereClause(conditions: [condition("category", .equals, "database")]),
            ])
        #expect(whereClause(grouped) == "active=true^category=network^priority=1^NQactive=true^category=database")
    }

    @Test func anEmptyListSelectsNothingAndNotInAnEmptyListEverything() {
        #expect(whereClause([("sys_id", .array([]))]) == "nothing: vars.sys_id is empty: no record matches")
        #expect(
            whereClause(WhereClause(conditions: [condition("sys_id", .notIn, .array([])), condition("active", .equals, true)]))
                == "active=true")
        let either = WhereClause(
            conditions: [],
            alternatives: [
                WhereClause(conditions: [condition("sys_id", .isIn, .array([]))]),
                WhereClause(conditions: [condition("active", .equals, false)]),
            ])
        #expect(whereClause(either) == "active=false")
    }

    @Test func anEmptyInListOfARenderedQuerySelectsNothing() throws {
        let scope = Scope(vars: ["ids": .array([])])
        let template = try Template(parsing: "sys_idIN${join(vars.ids, \",\")}^active=true")
        #expect(
            try EncodedQueryBuilder.selection(template, in: scope)
                == .nothing(reason: "'sys_idIN' compares with an empty list: no record matches"))
    }

    @Test func aRecordStandsForItsSysID() {
        let record: JSONValue = .object(["sys_id": .object(["value": "abc", "display_value": "abc"]), "name": "Abel"])
        #expect(whereClause([("caller_id", record)]) == "caller_id=abc")
        #expect(whereClause([("caller_id", .array([record, .object(["sys_id": "def"])]))]) == "caller_idINabc,def")
    }
}
