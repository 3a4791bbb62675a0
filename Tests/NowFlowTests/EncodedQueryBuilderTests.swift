import NowData
import Testing

@testable import NowFlow

@Suite struct EncodedQueryBuilderTests {
    private let scope = Scope(vars: [
        "caller": .string("abel.tuter"),
        "hostile": .string("x^ORactive=false"),
        "multiline": .string("a\nb"),
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

    private func whereClause(_ conditions: [(String, JSONValue)]) -> String {
        do {
            return try EncodedQueryBuilder.whereClause(conditions.map { ($0.0, $0.1, "${vars.\($0.0)}") })
        } catch {
            return "error: \(error.message)"
        }
    }

    @Test func valuesFillTheirPlaces() {
        #expect(
            render("active=true^caller_id.user_name=${vars.caller}^ORDERBYnumber")
                == "active=true^caller_id.user_name=abel.tuter^ORDERBYnumber")
        #expect(render("${vars.field}<=${vars.days}") == "priority<=30")
        #expect(render("short_descriptionLIKE${vars.caller}") == "short_descriptionLIKEabel.tuter")
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
                == "error: the value of caller (${vars.caller}) is an object; a where: value must be a string, a number, a boolean, null or an array"
        )
    }
}
