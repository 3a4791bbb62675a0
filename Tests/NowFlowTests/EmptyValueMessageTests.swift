import Foundation
import Testing

@testable import NowFlow

/// No message starts with a blank, or holds two, when a value in it is empty: an empty interpolation in an
/// assertion's message is shown as `''`, an empty sys_id is named, an empty file name is `''`.
@Suite struct EmptyValueMessageTests {
    @Test func anEmptyValueIsShownNotLeftAsABlank() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Empty
            vars: { none: "" }
            steps:
              - id: made
                create: { table: incident, fields: { short_description: Empty } }
              - id: number
                extract: { from: "${steps.made.record}", path: number }
              - assert: { that: "steps.number != ''", message: "${steps.number} was not resolved" }
              - get: { table: incident, sys_id: "" }
                continue_on_error: true
              - get: { table: incident, sys_id: "${vars.none}" }
                continue_on_error: true
            """, dryRun: true)
        #expect(result.status == .passed)
        #expect(harness.lines == [
            "ok   step 1 'made' (create): would create a record in incident (dry run) (N ms)",
            "ok   step 2 'number' (extract): = '' (N ms)",
            "skip step 3 (assert): not enforced in a dry run: '' was not resolved ('' != '' is false) (N ms)",
            "skip step 4 (get): not enforced in a dry run, it may read stand-ins for writes not sent: sys_id is empty (N ms)",
            "skip step 5 (get): not enforced in a dry run, it may read stand-ins for writes not sent: sys_id: ${vars.none} is empty (N ms)",
        ])
    }

    @Test func theREPLShowsAnEmptyValue() async throws {
        let harness = try ReplHarness()
        let transcript = await harness.transcript(["set x=\"\"", ":show vars.x", "get incident \"\"", "get incident ${vars.x}"])
        #expect(transcript == """
            nowflow> set x=""
            _1 (set): vars.x
            nowflow> :show vars.x
            ''
            nowflow> get incident ""
            error: (get): sys_id is empty
            nowflow> get incident ${vars.x}
            error: (get): sys_id: ${vars.x} is empty

            """)
    }

    @Test func anEmptyFileNameIsQuoted() {
        #expect(Diagnostic(file: "", line: 0, column: 0, message: "no such file").description == "'': error: no such file")
    }
}
