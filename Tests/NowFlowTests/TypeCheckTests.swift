import Testing

@testable import NowFlow

/// What `validate` reports from the types it can infer: literals, declared variables and step result shapes.
@Suite struct TypeCheckTests {
    private func diagnostics(_ text: String) -> String {
        do {
            _ = try JobFile.parse(text, file: "job.yaml")
            return "valid"
        } catch {
            return error.description
        }
    }

    @Test func typeErrorsAreReportedWithTheirPositions() {
        let text = """
            name: Types
            vars:
              word: abc
              items: [a, b]
            steps:
              - id: open
                query: { table: incident, limit: 1 }
              - assert: "steps.open.count && true"
              - assert: "len(steps.open.count) > 0"
              - assert: "'abc' == 1"
              - when: 3
                set: { x: 1 }
              - foreach: vars.word
                steps:
                  - set: { y: 1 }
              - foreach: vars.items
                steps:
                  - assert: "item != ''"
              - assert: "steps.open.records < 2"
              - assert: "!vars.word"
            """
        #expect(
            diagnostics(text) == """
                job.yaml:8:14: error: '&&' needs true or false, not a number
                job.yaml:9:18: error: len() needs a string, an array or an object, not a number
                job.yaml:10:13: error: '==' compares 'abc', which is not a number, with a number: it is always false
                job.yaml:11:11: error: when: the condition gives a number, not true or false
                job.yaml:13:14: error: foreach: goes over a list, not a string
                job.yaml:19:14: error: '<' cannot compare an array; it compares numbers, texts, dates or durations
                job.yaml:20:15: error: '!' needs true or false, not a string
                """)
    }

    @Test func whatIsKnownOnlyAtRunTimeIsNotRefused() {
        #expect(
            diagnostics(
                """
                name: Fine
                vars: { n: 2, flag: true }
                steps:
                  - id: open
                    query: { table: incident, limit: "${vars.n}" }
                  - set: { flag: "${steps.open.count}" }
                  - assert: "vars.flag || steps.open.count > vars.n"
                  - assert: "steps.open.records.0.active == true && len(steps.open.records) == 2"
                  - assert: "steps.open.count == '2' && env.HOME != 1"
                """) == "valid")
    }
}

