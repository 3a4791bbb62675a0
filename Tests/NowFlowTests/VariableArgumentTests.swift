import NowData
import Testing

@testable import NowFlow

/// `--var` values take the declared variable's type.
@Suite struct VariableArgumentTests {
    static let job = """
        name: Types
        vars:
          keep: false
          count: 2
          code: "042"
          computed: "${env.HOME}"
          nothing: null
        steps:
          - assert: "true"
        """

    @Test func aValueTakesItsVariablesType() throws {
        let job = try JobFile.parse(Self.job, file: "job.yaml")
        #expect(try job.value(ofVariable: "keep", argument: "true") == .bool(true))
        #expect(try job.value(ofVariable: "count", argument: "0.50").text == "0.50")
        #expect(try job.value(ofVariable: "code", argument: "007") == .string("007"))
        #expect(try job.value(ofVariable: "code", argument: "true") == .string("true"))
        #expect(try job.value(ofVariable: "computed", argument: "12") == 12)
        #expect(try job.value(ofVariable: "nothing", argument: "yes") == .string("yes"))
    }

    @Test(arguments: [
        ("keep", "yes", "--var keep=yes: vars.keep is a boolean (declared false); give true or false"),
        ("count", "2x", "--var count=2x: vars.count is a number (declared 2); '2x' is not a number"),
        ("count", ".inf", "--var count=.inf: vars.count is a number (declared 2); '.inf' is not a number"),
        ("nothing", ".nan", "--var nothing: '.nan' is a number JSON cannot hold"),
        ("other", "1", "--var other: the job has no variable 'other' under vars: (it declares keep, count, code, computed, nothing)"),
    ])
    func aValueOfAnotherTypeIsRefusedNamingVariableTypeAndValue(_ name: String, _ argument: String, _ message: String)
        throws
    {
        let job = try JobFile.parse(Self.job, file: "job.yaml")
        #expect(throws: VariableArgumentError(description: message)) {
            try job.value(ofVariable: name, argument: argument)
        }
    }

    @Test func limitAndMaxTakeOneTemplateThatGivesAWholeNumber() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Counts
            vars: { n: 2, text: "2" }
            steps:
              - id: two
                query: { table: incident, limit: "${vars.n}", page_size: "${vars.n}" }
              - assert: "steps.two.count == 2"
              - query: { table: incident, limit: "${vars.text}" }
            """)
        #expect(result.error == "step 3 (query): limit: ${vars.text} gives a string, not a whole number")
        #expect(throws: JobFileError.self) {
            try JobFile.parse(
                "name: X\nsteps:\n  - query: { table: incident, limit: \"${vars.n} rows\" }\nvars: { n: 1 }\n",
                file: "job.yaml")
        }
        do {
            _ = try JobFile.parse(
                "name: X\nvars: { n: 1 }\nsteps:\n  - query: { table: incident, limit: \"${vars.n} rows\" }\n",
                file: "job.yaml")
        } catch {
            #expect(
                error.description
                    == "job.yaml:4:38: error: limit must be a whole number or one ${...} that gives one, not '${vars.n} rows'")
        }
    }

    @Test func aVariableCanUseOnlyTheVariablesBeforeIt() {
        do {
            _ = try JobFile.parse(
                "name: X\nvars:\n  b: \"${vars.a} y\"\n  a: x\n  c: \"${vars.c}!\"\n  d: \"${vars.b}\"\nsteps:\n  - set: { e: 1 }\n",
                file: "job.yaml")
            Issue.record("accepted")
        } catch {
            #expect(
                error.description == """
                    job.yaml:3:9: error: vars.a: variable 'b' cannot use 'a', declared after it (line 4); variables are evaluated in order
                    job.yaml:5:9: error: vars.c: variable 'c' cannot use itself (variables are evaluated in order)
                    """)
        }
    }
}
