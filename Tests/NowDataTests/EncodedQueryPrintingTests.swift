import Testing
import TestSupport

@testable import NowData

@Suite struct EncodedQueryPrintingTests {
    @Test func printsEachPartWithOneRuleForCaret() throws {
        let query = EncodedQuery(
            groups: [
                .init(clauses: [
                    .init(terms: [
                        .condition(.init(field: "short_description", op: .like, value: "a^b")),
                        .condition(.init(field: "priority", op: .isIn, value: "1,2")),
                    ]),
                    .init(terms: [.condition(.init(field: "assigned_to", op: .isEmpty))]),
                ]),
                .init(clauses: [.init(terms: [.condition(.init(field: "caller_id.name", op: .equals, value: "Abel Tuter"))])]),
            ],
            ordering: [.init(field: "number", descending: true)])
        #expect(
            query.text
                == "short_descriptionLIKEa^^b^ORpriorityIN1,2^assigned_toISEMPTY^NQcaller_id.name=Abel Tuter^ORDERBYDESCnumber"
        )
        #expect(try EncodedQuery.parse(query.text) == query)
    }

    /// A `^` that a combining mark follows (or a prepended mark precedes) is doubled too: the parser reads bytes,
    /// where a `Character` comparison sees one cluster, not a `^`.
    @Test func aCaretInsideAGraphemeClusterPrintsDoubled() throws {
        let query = EncodedQuery(groups: [
            .init(clauses: [
                .init(terms: [.condition(.init(field: "short_description", op: .equals, value: "x^\u{301}ORactive=false"))]),
                .init(terms: [.condition(.init(field: "description", op: .equals, value: "y\u{600}^NQactive=false"))]),
            ])
        ])
        #expect(
            query.text == "short_description=x^^\u{301}ORactive=false^description=y\u{600}^^NQactive=false")
        #expect(try EncodedQuery.parse(query.text) == query)
    }

    /// A JOIN without conditions keeps its `!`, without which it does not parse (found by Fuzz/run.sh query).
    @Test func aJoinWithoutConditionsPrintsItsExclamationMark() throws {
        let query = try EncodedQuery.parse("JOINincident.caller_id=sys_user.sys_id!")
        #expect(query.text == "JOINincident.caller_id=sys_user.sys_id!")
        #expect(try EncodedQuery.parse(query.text) == query)
    }

    /// An RLQUERY with a malformed header prints with the ENDRLQUERY that closed it, so that the terms after it stay
    /// outside it (found by Fuzz/run.sh query).
    @Test func aMalformedRelatedListPrintsItsEnd() throws {
        let query = try EncodedQuery.parse("RLQUERYsys_user_grmember.group,about0^active=true^ENDRLQUERY^priority=1")
        #expect(query.text == "RLQUERYsys_user_grmember.group,about0^ENDRLQUERY^priority=1")
        #expect(try EncodedQuery.parse(query.text) == query)
    }

    /// A `^` in a field name (written `^^`) prints as `^^` too, as in a value (found by Fuzz/run.sh query).
    @Test func aCaretInAFieldNamePrintsDoubled() throws {
        let query = try EncodedQuery.parse("short^^description*b^ORDERBYnum^^ber^JOINa^^b.c=d.e!x^^y=1")
        #expect(query.text == "short^^description*b^JOINa^^b.c=d.e!x^^y=1^ORDERBYnum^^ber")
        #expect(try EncodedQuery.parse(query.text) == query)
    }

    /// The sort terms of a query that ends with an RLQUERY left open print before it, where they read back as sort
    /// terms (found by Fuzz/run.sh query).
    @Test func sortTermsPrintBeforeAnRLQUERYLeftOpen() throws {
        let query = try EncodedQuery.parse("ORDERBYnumber^active=true^RLQUERYtask.assigned_to,>0^state=1")
        #expect(query.text == "ORDERBYnumber^active=true^RLQUERYtask.assigned_to,>0")
        #expect(try EncodedQuery.parse(query.text) == query)
    }

    /// Random queries (every operator, dot-walks, OR clauses, NQ groups, joins, related lists, orderings, values
    /// holding `^`, `,`, spaces and unicode) print to a text that parses back to the same query.
    @Test func printedQueriesParseBackToTheSameQuery() throws {
        var random = SplitMix(seed: 22)
        for _ in 0..<2000 {
            let query = Self.query(&random, depth: 0)
            let parsed = try EncodedQuery.parse(query.text)
            #expect(parsed == query, "\(query.text)")
            if parsed != query { return }
        }
    }

    private static let fragments = [
        "a", "Z", "7", " ", "^", "^^", ",", "@", "é", "日本", "😀", "=", "<", "!", "*", "%", "OR", "NQ", "ORDERBY",
        "EQ", "ENDRLQUERY", "LIKE", "-", ".", "\t", "'", "\"",
    ]

    private static func field(_ random: inout SplitMix) -> String {
        let names = ["active", "priority", "short_description", "caller_id", "u_field_2", "sys_created_on", "x"]
        let hops = Int.random(in: 0...3, using: &random)
        return (0...hops).map { _ in names.randomElement(using: &random) ?? "x" }.joined(separator: ".")
    }

    private static func value(_ random: inout SplitMix) -> String {
        (0..<Int.random(in: 0...6, using: &random)).map { _ in fragments.randomElement(using: &random) ?? "" }.joined()
    }

    private static func condition(_ random: inout SplitMix) -> EncodedQuery.Condition {
        let op = QueryOperator.allCases.randomElement(using: &random) ?? .equals
        var value = ""
        if op.comparesFields {
            value = field(&random)
        } else if !op.isUnary {
            value = Self.value(&random)
            // `<` or `>` then `=` reads as `<=`, `>=`: the one ambiguity of the syntax (see EncodedQuery.text).
            if op == .lessThan || op == .greaterThan, value.hasPrefix("=") { value = "x" + value }
        }
        return .init(field: field(&random), op: op, value: value)
    }

    private static func term(_ random: inout SplitMix, depth: Int) -> EncodedQuery.Term {
        switch Int.random(in: 0..<20, using: &random) {
        case 0 where depth == 0:
            let inner = condition(&random)
            let join = EncodedQuery.Join(
                text: "JOINincident.caller_id=sys_user.sys_id!" + inner.text, table: "incident", field: "caller_id",
                joinTable: "sys_user", joinField: "sys_id",
                query: .init(groups: [.init(clauses: [.init(terms: [.condition(inner)])])]))
            return .join(join)
        case 1 where depth == 0:
            let comparison = [QueryOperator.greaterThan, .greaterThanOrEquals, .lessThan, .lessThanOrEquals, .equals, .notEquals]
                .randomElement(using: &random) ?? .greaterThan
            let count = Int.random(in: 0...3, using: &random)
            let m2m = Bool.random(using: &random)
            return .relatedList(
                .init(
                    text: "RLQUERYtask_ci.task,\(comparison.rawValue)\(count)" + (m2m ? ",m2m" : ""), table: "task_ci",
                    field: "task", comparison: comparison, count: count, stopsAtRelationship: m2m,
                    query: .init(groups: groups(&random, depth: depth + 1))))
        case 2:
            return .invalid(text: "nooperator", reason: "no known operator")
        default:
            return .condition(condition(&random))
        }
    }

    private static func groups(_ random: inout SplitMix, depth: Int) -> [EncodedQuery.Group] {
        (0..<Int.random(in: 0...2, using: &random)).map { _ in
            .init(
                clauses: (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    .init(terms: (0..<Int.random(in: 1...3, using: &random)).map { _ in term(&random, depth: depth) })
                })
        }
    }

    private static func query(_ random: inout SplitMix, depth: Int) -> EncodedQuery {
        EncodedQuery(
            groups: groups(&random, depth: depth),
            ordering: (0..<Int.random(in: 0...2, using: &random)).map { _ in
                .init(field: field(&random), descending: Bool.random(using: &random))
            })
    }
}
