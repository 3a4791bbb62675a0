import Foundation
import NowData
import Testing

@testable import NowFlow

/// `+` and `-`, `in`, lists, and the text, list and date functions, each with its value and its run-time errors.
@Suite struct ExpressionFunctionTests {
    /// 2026-01-05 08:30:00 UTC, a Monday.
    static let fixedNow = Date(timeIntervalSince1970: 1_767_601_800)

    private func scope(dates: CoderSettings = CoderSettings(), zone: String = "UTC") -> Scope {
        var scope = Scope(
            vars: [
                "first": .string("Abel"), "last": .string("Tuter"), "tags": .array([.string("a"), .string("b")]),
                "count": .number(JSONNumber(3)), "csv": .string("db, network,email"),
            ],
            steps: StepResult.values([
                "open": .object([
                    "records": .array([
                        .object([
                            "number": .string("INC0010001"), "reassignment_count": .string("2"),
                            "opened_at": .string("2025-12-20 10:00:00"), "caller_id": .object(["value": .string("u1")]),
                        ]),
                        .object([
                            "number": .string("INC0010002"), "reassignment_count": .string("5"),
                            "opened_at": .string("2026-01-04 09:15:00"), "caller_id": .object(["value": .string("u2")]),
                        ]),
                    ])
                ])
            ]))
        scope.dates = JobDates(dates, zoneName: zone)
        scope.now = { Self.fixedNow }
        return scope
    }

    private func value(_ source: String, in scope: Scope? = nil) -> String {
        do {
            return try ExpressionParser.parse(source).evaluate(in: scope ?? self.scope()).sortingKeys().jsonText()
        } catch {
            return "error: \(error)"
        }
    }

    @Test(arguments: [
        ("vars.first + ' ' + vars.last", #""Abel Tuter""#),
        ("1 + 2", "3"),
        ("0.1 + 0.2", "0.3"),
        ("10 - 2.5", "7.5"),
        ("steps.open.records.0.reassignment_count + 1", "3"),
        ("steps.open.records.1.reassignment_count - steps.open.records.0.reassignment_count", "3"),
        ("vars.tags + ['c']", #"["a","b","c"]"#),
        ("[1, 'two', vars.count]", #"[1,"two",3]"#),
        ("[]", "[]"),
        ("vars.first ?? 'x' + '!'", #""Abel!""#),
        ("'b' in vars.tags", "true"),
        ("'z' in vars.tags", "false"),
        ("'tut' in 'abel.tuter'", "true"),
        ("'' in 'abel.tuter'", "false"),
        // Foundation's String.contains traps on these on Linux (found by Fuzz/run.sh expression).
        ("'\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}' in '$\u{FFFD}\u{FFFD}\u{0}\u{0}'", "false"),
        ("contains('$\u{FFFD}\u{FFFD}\u{0}\u{0}', '\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}')", "false"),
        ("contains('a\u{0}b', '\u{0}b')", "true"),
        ("'number' in steps.open.records.0", "true"),
        ("3 in [1, 2, '3']", "true"),
        ("'x' in null", "false"),
        ("lower('ABC Def')", #""abc def""#),
        ("upper(vars.first)", #""ABEL""#),
        ("trim('  padded \n')", #""padded""#),
        ("split(vars.csv, ',')", #"["db"," network","email"]"#),
        ("split('', ',')", "[]"),
        ("join(vars.tags, ' | ')", #""a | b""#),
        ("join([1, true, null], ',')", #""1,true,""#),
        ("replace('a-b-c', '-', '+')", #""a+b+c""#),
        ("format('{} of {}', 3, vars.count + 2)", #""3 of 5""#),
        ("format('{{{}}}', 'x')", #""{x}""#),
        ("format('no placeholders')", #""no placeholders""#),
        ("count(steps.open.records)", "2"),
        ("count(null)", "0"),
        ("first(vars.tags)", #""a""#),
        ("last(vars.tags)", #""b""#),
        ("first([])", "null"),
        ("sum(pluck(steps.open.records, 'reassignment_count'))", "7"),
        ("sum([])", "0"),
        ("min(pluck(steps.open.records, 'reassignment_count'))", #""2""#),
        ("max([3, 10, 7])", "10"),
        ("max(vars.count, 10, 2)", "10"),
        ("min(['pear', 'apple'])", #""apple""#),
        ("max(pluck(steps.open.records, 'opened_at'))", #""2026-01-04 09:15:00""#),
        ("min([])", "null"),
        ("pluck(steps.open.records, 'number')", #"["INC0010001","INC0010002"]"#),
        ("pluck(steps.open.records, 'caller_id.value')", #"["u1","u2"]"#),
        ("pluck(steps.open.records, 'missing')", "[null,null]"),
        ("now()", #""2026-01-05 08:30:00""#),
        ("today()", #""2026-01-05 00:00:00""#),
        ("now() - days(7)", #""2025-12-29 08:30:00""#),
        ("now() + hours(2) + minutes(15)", #""2026-01-05 10:45:00""#),
        ("days(1) + now()", #""2026-01-06 08:30:00""#),
        ("date('2026-01-05 08:00:00') + days(0.5)", #""2026-01-05 20:00:00""#),
        ("date('2026-01-05')", #""2026-01-05 00:00:00""#),
        ("'2026-01-05 08:00:00' + minutes(1)", #""2026-01-05 08:01:00""#),
        ("now() - date('2026-01-04 08:30:00')", "86400"),
        ("now() - date('2026-01-04 08:30:00') == days(1)", "true"),
        ("days(2) - hours(1) > days(1)", "true"),
        ("days(7)", "604800"),
        ("format_date(now(), 'yyyy-MM-dd')", #""2026-01-05""#),
        ("format_date('2026-01-05 08:00:00', 'EEEE d MMMM HH:mm')", #""Monday 5 January 08:00""#),
        ("steps.open.records.0.opened_at < now() - days(7)", "true"),
        ("steps.open.records.1.opened_at < now() - days(7)", "false"),
        ("date('2026-01-05') == '2026-01-05 00:00:00'", "true"),
        ("'2026-01-05' < '2026-01-05 00:00:01'", "true"),
        ("now() > '2026-01-01'", "true"),
        ("len(split('a,b,c', ','))", "3"),
        ("'INC' + format('{}', 7)", #""INC7""#),
    ])
    func values(_ source: String, _ expected: String) {
        #expect(value(source) == expected, "\(source)")
    }

    @Test(arguments: [
        ("'Count: ' + vars.count", "'+' cannot add 3 to 'Count: '; use format('{}{}', a, b) to join a text and a number"),
        ("vars.count + true", "'+' cannot add a boolean to 3"),
        ("vars.tags + 'c'", "'+' cannot add 'c' to an array"),
        ("now() + 5", "'+' cannot add 5 to a date (2026-01-05 08:30:00)"),
        ("now() + now()", "'+' cannot add a date (2026-01-05 08:30:00) to a date (2026-01-05 08:30:00)"),
        ("'abc' - 1", "'-' cannot subtract 1 from 'abc'"),
        ("'soon' - days(1)", "'-' cannot subtract a duration (86400 s) from 'soon'"),
        ("now() < 5", "'<' cannot compare a date (2026-01-05 08:30:00) with 5"),
        ("days(1) < 5", "'<' cannot compare a duration (86400 s) with 5"),
        ("'a' in 5", "'in' looks in a string, an array or an object, not a number"),
        ("lower(5)", "lower() needs a string, not a number"),
        ("upper(vars.tags)", "upper() needs a string, not an array"),
        ("trim(now())", "trim() needs a string, not a date"),
        ("split(vars.tags, ',')", "split() needs a string first, not an array"),
        ("split('a,b', '')", "split(): the separator is empty"),
        ("join('a,b', ',')", "join() needs an array first, not a string"),
        ("join(vars.tags, 1)", "join() needs a string as argument 2, not a number"),
        ("replace('abc', '', 'x')", "replace(): the text to replace is empty"),
        ("replace('abc', 'b', 1)", "replace() needs a string as argument 3, not a number"),
        ("format('{} of {}', 1)", "format(): '{} of {}' has 2 placeholders for 1 value"),
        ("format('{', 1)", "format(): '{' has a '{' or '}' that is not part of {}; write {{ or }}"),
        ("format(1)", "format() needs a string first, not a number"),
        ("count('abc')", "count() needs an array, not a string"),
        ("first(steps.open.records.0)", "first() needs an array, not an object"),
        ("last(3)", "last() needs an array, not a number"),
        ("sum(['1', 'x'])", "sum(): item 1 is 'x', not a number"),
        ("sum(3)", "sum() needs an array, not a number"),
        ("max([1, now()])", "'max()' cannot compare a string with a number"),
        ("max(1, now())", "'max()' cannot compare a date (2026-01-05 08:30:00) with 1"),
        ("min(5)", "min() needs an array first, not a number"),
        ("pluck(vars.tags, 'name')", "pluck(): item 0 is a string, not a record"),
        ("pluck(steps.open.records, 'a..b')", "pluck(): 'a..b' is not a field name or dot path: invalid path 'a..b': empty component"),
        ("date('next week')", "date(): 'next week' is not a date; write yyyy-MM-dd HH:mm:ss or yyyy-MM-dd (UTC), or the job's coder.dates format"),
        ("date(5)", "date() needs a date, not a number"),
        ("days('x')", "days() needs a number, not a string"),
        ("hours(true)", "hours() needs a number, not a boolean"),
        ("minutes(now())", "minutes() needs a number, not a date"),
        ("format_date('tomorrow', 'yyyy')", "format_date(): 'tomorrow' is not a date; write yyyy-MM-dd HH:mm:ss or yyyy-MM-dd (UTC), or the job's coder.dates format"),
        ("format_date(now(), 5)", "format_date() needs a string as argument 2, not a number"),
        ("len(now())", "len() needs a string, an array or an object, not a date"),
        ("contains(days(1), 'x')", "contains() needs a string, an array or an object first, not a duration"),
        ("!now()", "'!' needs true or false, not a date"),
    ])
    func errors(_ source: String, _ expected: String) {
        #expect(value(source) == "error: \(expected)", "\(source)")
    }

    @Test func parseErrorsOfTheNewSyntax() {
        func parseError(_ source: String) -> String {
            do {
                _ = try ExpressionParser.parse(source)
                return "no error"
            } catch {
                return "\(error.offset): \(error.message)"
            }
        }
        #expect(parseError("[1, 2") == "5: expected ',' or ']' in the list")
        #expect(parseError("now(1)") == "0: now() takes 0 arguments, not 1")
        #expect(parseError("format()") == "0: format() takes at least 1 argument, not 0")
        #expect(parseError("replace('a', 'b')") == "0: replace() takes 3 arguments, not 2")
        #expect(parseError("1 + ") == "4: expected a value at the end of the expression")
        #expect(parseError("'a' in 'b' in 'c'") == "11: comparisons cannot be chained ('in' after 'in'); use && or parentheses")
        #expect(parseError("vars.index") == "no error")
    }

    /// With `coder.dates` a pattern, the job's dates (as records come to it) read as dates, and a date leaves an
    /// expression in the instance's UTC format.
    @Test func datesInTheJobsFormatCompareAsDates() {
        let scope = scope(dates: CoderSettings(dates: .pattern("dd/MM/yyyy HH:mm")), zone: "Europe/Paris")
        #expect(value("'20/12/2025 10:00' < '04/01/2026 09:15'", in: scope) == "true")
        #expect(value("date('20/12/2025 10:00')", in: scope) == #""2025-12-20 10:00:00""#)
        #expect(value("'20/12/2025 10:00' == date('2025-12-20 10:00:00')", in: scope) == "true")
        #expect(value("today()", in: scope) == #""2026-01-04 23:00:00""#)
        #expect(value("format_date(now(), 'yyyy-MM-dd HH:mm')", in: scope) == #""2026-01-05 09:30""#)
    }

    /// A date interpolated into a template, and so into a field or an encoded query, is the instance's UTC text.
    @Test func aDateInATemplateIsTheInstancesText() throws {
        let template = try Template(parsing: "sys_updated_on<${now() - days(30)}^active=true")
        #expect(try EncodedQueryBuilder.render(template, in: scope()) == "sys_updated_on<2025-12-06 08:30:00^active=true")
        #expect(try Template(parsing: "${now()}").evaluate(in: scope()) == .string("2026-01-05 08:30:00"))
    }
}
