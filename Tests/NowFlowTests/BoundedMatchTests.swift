import Testing

@testable import NowFlow

/// `matches()` does a bounded amount of work.
@Suite struct BoundedMatchTests {
    @Test func aPatternThatBacktracksWithoutEndFailsTheStep() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Regex
            vars: { text: "\(String(repeating: "a", count: 200))b" }
            steps:
              - assert: "matches(vars.text, '(a+)+$')"
              - assert: "matches(vars.text, '^a+b$')"
            """)
        #expect(
            result.error
                == "step 1 (assert): assert matches(vars.text, '(a+)+$'): matches(): '(a+)+$' takes more than 1.0 seconds on a text of 201 characters; simplify the pattern (a nested repetition such as (a+)+ backtracks without end)"
        )
    }

    @Test func anOrdinaryPatternMatches() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Regex
            vars: { text: "INC0010061" }
            steps:
              - assert: "matches(vars.text, '^INC[0-9]+$') && !matches(vars.text, '^CHG')"
            """)
        #expect(result.status == .passed)
    }
}
