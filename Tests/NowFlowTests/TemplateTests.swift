import NowData
import Testing

@testable import NowFlow

@Suite struct TemplateTests {
    private let scope = Scope(
        vars: ["summary": .string("Printer on fire"), "urgency": .number(JSONNumber(2)), "ratio": 0.5],
        steps: StepResult.values(["incident": .object(["record": .object(["number": .string("INC0010001")]), "sys_id": .string("abc")])]))

    private func render(_ text: String) throws -> JSONValue {
        try Template(parsing: text).evaluate(in: scope)
    }

    @Test func aSingleExpressionKeepsItsType() throws {
        #expect(try render("${vars.urgency}") == .number(JSONNumber(2)))
        #expect(try render("${ steps.incident.record }") == .object(["number": .string("INC0010001")]))
    }

    @Test func mixedTextBecomesAString() throws {
        #expect(
            try render("Urgency ${vars.urgency} of ${steps.incident.record.number}: ${vars.summary}")
                == .string("Urgency 2 of INC0010001: Printer on fire"))
        #expect(try render(" ${vars.urgency}") == .string(" 2"))
        #expect(try render("${vars.ratio}x") == .string("0.5x"))
        #expect(try render("${steps.incident.record}") != .string(""))
    }

    @Test func bracesInsideQuotedStringsDoNotCloseTheExpression() throws {
        #expect(try render("${ vars.missing ?? '}' }") == .string("}"))
    }

    @Test func dollarDollarIsALiteral() throws {
        #expect(try render("cost $${vars.urgency}") == .string("cost ${vars.urgency}"))
    }

    @Test func plainTextHasNoExpressions() throws {
        let template = try Template(parsing: "just text")
        #expect(template.literal == "just text")
        #expect(template.expressions.isEmpty)
    }

    @Test func errorsPointIntoTheTemplate() {
        #expect(throws: ExpressionError(message: "'${' is not closed by '}'", offset: 4)) {
            try Template(parsing: "abc ${vars.x")
        }
        #expect(throws: ExpressionError(message: "empty '${}'", offset: 2)) { try Template(parsing: "x ${ }") }
        #expect(throws: ExpressionError(message: "unexpected '=' after the expression", offset: 11)) {
            try Template(parsing: "a ${vars.x = 1}")
        }
        // Offsets count characters, whatever their UTF-8 length, after earlier expressions and `$${` too.
        #expect(throws: ExpressionError(message: "unexpected '=' after the expression", offset: 31)) {
            try Template(parsing: "été 👩‍💻 ${vars.a} $${x} ${vars.x = 1}")
        }
        #expect(throws: ExpressionError(message: "unexpected '=' after the expression", offset: 30)) {
            try Template(parsing: "a ${'é' ?? vars.a} b ${vars.x = 1}")
        }
        #expect(throws: ExpressionError(message: "'${' is not closed by '}'", offset: 6)) {
            try Template(parsing: "ça \"} ${'}'")
        }
    }

    @Test func textsAroundExpressionsAreKeptWhole() throws {
        let template = try Template(parsing: "été ${vars.a}$${literal} 👩‍💻 ${ 'a}b' } end$")
        #expect(template.parts.count == 5)
        #expect(template.parts.first == .text("été "))
        #expect(template.parts[2] == .text("${literal} 👩‍💻 "))
        #expect(template.parts.last == .text(" end$"))
    }

    /// The ASCII run a text starts with is measured eight bytes at a time: an error's offset counts characters
    /// after it, whether the first non-ASCII character comes in a word of eight or in the bytes after the last.
    @Test func offsetsCountCharactersAfterALongASCIIRun() {
        for length in [0, 7, 8, 9, 15, 16, 17, 1_000] {
            let text = String(repeating: "a", count: length) + "é ${vars.x = 1}"
            #expect(throws: ExpressionError(message: "unexpected '=' after the expression", offset: length + 11)) {
                try Template(parsing: text)
            }
        }
    }

    /// A literal run is the template's own text, also past a `$$` escape and between two expressions.
    @Test func literalRunsAroundEscapesAndExpressions() throws {
        let template = try Template(parsing: "$${a} ${vars.b}${vars.c} $d $${e}")
        #expect(template.parts.count == 4)
        #expect(template.parts.first == .text("${a} "))
        #expect(template.parts.last == .text(" $d ${e}"))
        #expect(try Template(parsing: "no marks $ here").parts == [.text("no marks $ here")])
        #expect(try Template(parsing: "").parts == [.text("")])
    }
}
