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
          groups: [Database]
          limits: { max: 5 }
          ids: ["007"]
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

    /// A list or a mapping is given in YAML flow syntax (JSON is part of it); a list declared with texts takes
    /// numbers and booleans as their text, as a variable declared as a text does. A variable declared by an
    /// expression or null takes a text starting with `[` that is no flow list as it is.
    @Test func listsAndMappingsAreGivenInFlowSyntax() throws {
        let job = try JobFile.parse(Self.job, file: "job.yaml")
        #expect(try job.value(ofVariable: "groups", argument: "[Database, Network]") == ["Database", "Network"])
        #expect(try job.value(ofVariable: "groups", argument: #"["Database", "Network"]"#) == ["Database", "Network"])
        #expect(try job.value(ofVariable: "groups", argument: "[]") == [])
        #expect(try job.value(ofVariable: "limits", argument: #"{"max": 7, group: Network}"#) == ["max": 7, "group": "Network"])
        let ids = try job.value(ofVariable: "ids", argument: "[008, true, x]")
        #expect(ids == ["008", "true", "x"], "\(ids)")
        #expect(try job.value(ofVariable: "computed", argument: "[1, {a: b}]") == [1, ["a": "b"]])
        #expect(try job.value(ofVariable: "code", argument: "[1]") == .string("[1]"))
        #expect(try job.value(ofVariable: "nothing", argument: "[WIP] fix") == .string("[WIP] fix"))
    }

    /// A vars file (or an include's `with:`) giving a list or a mapping where the job declares the other, or a
    /// scalar, is refused as a `--var` is.
    @Test(arguments: [
        ("groups", JSONValue.string("Database"), "--vars-file v.yaml: vars.groups is an array (declared [Database]), not a string"),
        ("limits", JSONValue.array([5]), "--vars-file v.yaml: vars.limits is an object (declared {max: 5}), not an array"),
        ("groups", JSONValue.null, "--vars-file v.yaml: vars.groups is an array (declared [Database]), not null"),
    ])
    func aVarsFileValueMustBeOfTheDeclaredKind(_ name: String, _ value: JSONValue, _ message: String) throws {
        let job = try JobFile.parse(Self.job, file: "job.yaml")
        #expect(throws: VariableArgumentError(description: message)) {
            try job.value(ofVariable: name, given: value, from: "--vars-file v.yaml")
        }
        #expect(try job.value(ofVariable: "ids", given: [8, "x"], from: "--vars-file v.yaml") == ["8", "x"])
    }

    @Test(arguments: [
        ("keep", "yes", "--var keep=yes: vars.keep is a boolean (declared false); give true or false"),
        ("count", "2x", "--var count=2x: vars.count is a number (declared 2); '2x' is not a number"),
        ("count", ".inf", "--var count=.inf: vars.count is a number (declared 2); '.inf' is not a number"),
        ("nothing", ".nan", "--var nothing: '.nan' is a number JSON cannot hold"),
        ("other", "1", "--var other: the job has no variable 'other' under vars: (it declares keep, count, code, computed, nothing, groups, limits, ids)"),
        ("groups", "Database", "--var groups=Database: vars.groups is an array (declared [Database]); give one in YAML flow syntax, such as [a, b]"),
        ("groups", "{a: 1}", "--var groups={a: 1}: vars.groups is an array (declared [Database]), not an object"),
        ("limits", "[5]", "--var limits=[5]: vars.limits is an object (declared {max: 5}), not an array"),
        ("limits", "max=5", "--var limits=max=5: vars.limits is an object (declared {max: 5}); give one in YAML flow syntax, such as {a: 1, b: x}"),
        ("groups", "[Database, Network", "--var groups=[Database, Network: not a YAML flow list or mapping: did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 1)"),
        ("groups", "[1, .inf]", "--var groups=[1, .inf]: '.inf' is a number JSON cannot hold; quote it (\".inf\") to write it as text"),
        ("keep", "[true]", "--var keep=[true]: vars.keep is a boolean (declared false); give true or false"),
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
