import NowData
import Testing

@testable import NowFlow

@Suite struct ExpressionTests {
    private let scope = Scope(
        vars: ["caller": .string("abel.tuter"), "count": .number(JSONNumber(3)), "tags": .array([.string("a"), .string("b")])],
        env: ["NOW_USER": "admin"],
        steps: StepResult.values([
            "caller": .object([
                "records": .array([.object(["sys_id": .string("62826bf0"), "name": .string("Abel Tuter")])]),
                "count": .number(JSONNumber(1)),
            ]),
            "check": .object([
                "record": .object(["state": .string("6"), "active": .string("true"), "close_code": .string("")])
            ]),
        ]),
        locals: ["item": .string("INC0010001")])

    private func evaluate(_ source: String) throws -> JSONValue {
        try ExpressionParser.parse(source).evaluate(in: scope)
    }

    private func parseError(_ source: String) -> String {
        do {
            _ = try ExpressionParser.parse(source)
            return "no error"
        } catch {
            return "\(error.offset): \(error.message)"
        }
    }

    private func evaluationError(_ source: String) -> String {
        do {
            return "no error: \(try evaluate(source))"
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        ("vars.caller", JSONValue.string("abel.tuter")),
        ("steps.caller.records.0.sys_id", .string("62826bf0")),
        ("steps.caller.count > 0 && vars.count <= 3", .bool(true)),
        ("steps.check.record.state == 6", .bool(true)),
        ("steps.check.record.state != '6'", .bool(false)),
        ("steps.check.record.active == true", .bool(true)),
        ("steps.check.record.close_code == null", .bool(true)),
        ("!(vars.count < 2) || false", .bool(true)),
        ("env.NOW_USER", .string("admin")),
        ("env.MISSING ?? 'fallback'", .string("fallback")),
        ("vars.nothing ?? steps.none.x ?? 7", .number(JSONNumber(7))),
        ("env.NOW_USER ?? 'fallback'", .string("admin")),
        ("len(steps.caller.records)", .number(JSONNumber(1))),
        ("len(vars.caller) == 10", .bool(true)),
        ("contains(vars.tags, 'b')", .bool(true)),
        ("contains(vars.caller, 'tut')", .bool(true)),
        ("contains(steps.check.record, 'state')", .bool(true)),
        ("matches(item, '^INC[0-9]{7}$')", .bool(true)),
        ("empty(steps.check.record.close_code)", .bool(true)),
        ("empty(vars.tags)", .bool(false)),
        ("'it\\'s' == \"it's\"", .bool(true)),
        ("-2.5 < 1", .bool(true)),
        ("'abc' < 'abd'", .bool(true)),
        ("null", .null),
    ])
    func evaluates(source: String, expected: JSONValue) throws {
        #expect(try evaluate(source) == expected)
    }

    @Test func coalesceIsTighterThanComparison() throws {
        #expect(try evaluate("env.MISSING ?? 'x' == 'x'") == .bool(true))
    }

    @Test func parseErrorsCarryTheirOffset() {
        #expect(parseError("vars.a ==") == "9: expected a value at the end of the expression")
        #expect(
            parseError("a == b == c") == "7: comparisons cannot be chained ('==' after '=='); use && or parentheses")
        #expect(parseError("(vars.a") == "7: missing ')' for the '(' at column 1")
        #expect(parseError("'open") == "0: unterminated string: missing closing '")
        #expect(parseError("size(x)") == "0: unknown function 'size'; the functions are len, contains, matches, empty, lower, upper, trim, split, join, replace, format, count, first, last, sum, min, max, pluck, now, today, date, days, hours, minutes, format_date")
        #expect(parseError("len(a, b)") == "0: len() takes 1 argument, not 2")
        #expect(parseError("vars. x") == "5: expected a name after '.' in 'vars.'")
        #expect(parseError("a # b") == "2: unexpected '#' after the expression")
        #expect(parseError("a && @") == "5: unexpected '@'")
        #expect(
            parseError(String(repeating: "(", count: 100) + "1" + String(repeating: ")", count: 100))
                == "64: the expression nests deeper than 64 levels")
    }

    @Test func operatorChainsAreBounded() throws {
        let allowed = Array(repeating: "env.NONE", count: 256).joined(separator: " ?? ") + " ?? 1"
        #expect(try evaluate(allowed) == .number(JSONNumber(1)))
        let tooLong = Array(repeating: "true", count: 5_000).joined(separator: " && ")
        #expect(parseError(tooLong) == "2055: the expression has more than 256 operators")
    }

    @Test func evaluationErrorsNameThePath() {
        #expect(
            evaluationError("steps.caller.records.3.sys_id")
                == "no value at 'steps.caller.records.3' in path 'steps.caller.records.3.sys_id': index 3 out of range (1 element)"
        )
        #expect(
            evaluationError("steps.caller.records.-1.sys_id")
                == "no value at 'steps.caller.records.-1' in path 'steps.caller.records.-1.sys_id': 'steps.caller.records' is an array (1 element), and '-1' is not an index from 0"
        )
        #expect(
            evaluationError("steps.caller.records.0.email")
                == "no value at 'steps.caller.records.0.email' in path 'steps.caller.records.0.email': key 'email' not found"
        )
        #expect(
            evaluationError("steps.caller.records.first")
                == "no value at 'steps.caller.records.first' in path 'steps.caller.records.first': 'steps.caller.records' is an array (1 element), and 'first' is not an index from 0"
        )
        #expect(
            evaluationError("steps.caller.count.value")
                == "no value at 'steps.caller.count.value' in path 'steps.caller.count.value': 'steps.caller.count' is a number, not an object"
        )
        #expect(
            evaluationError("item.0")
                == "no value at 'item.0' in path 'item.0': 'item' is a string, not an array or an object")
        #expect(
            evaluationError("steps.other.record")
                == "steps.other: step 'other' has no result (it did not run, or failed)")
        #expect(
            evaluationError("env.NOW_PASSWORD") == "env.NOW_PASSWORD: the environment variable NOW_PASSWORD is not set")
        #expect(evaluationError("vars.count && true") == "'&&' needs true or false, not a number")
        #expect(evaluationError("vars.tags < 3") == "'<' cannot compare an array with a number")
        #expect(evaluationError("len(vars.count)") == "len() needs a string, an array or an object, not a number")
        #expect(evaluationError("matches(vars.caller, '[')") == "matches(): '[' is not a valid regular expression")
    }

    @Test func conditionsMustBeBooleans() throws {
        let expression = try ExpressionParser.parse("vars.count")
        #expect(throws: EvaluationError(message: "the condition gives a number, not true or false")) {
            try expression.evaluateCondition(in: scope)
        }
    }

    @Test func conditionsMayBeWrappedInATemplate() throws {
        #expect(
            try Expression.parseCondition("${ vars.count > 2 }") == ExpressionParser.parse("vars.count > 2", offset: 3))
        #expect(try Expression.parseCondition("vars.count > 2") == ExpressionParser.parse("vars.count > 2"))
    }
}
