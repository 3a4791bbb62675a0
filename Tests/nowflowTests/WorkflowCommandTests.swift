import Testing

@testable import nowflow

/// A workflow command's escaping, as GitHub's runner reads it back: every `%`, carriage return and line feed of the
/// message (a Windows line end too), and also `:` and `,` in a property's value, so that no text ends the command.
@Suite struct WorkflowCommandTests {
    @Test func theMessageAndThePropertiesAreEscapedWhole() {
        let command = WorkflowCommand(
            "error", [("file", "jobs/a,b.yaml"), ("line", "3"), ("title", "Checks: 100% failed")],
            "first\r\nsecond\rthird\nfourth 50%")
        #expect(
            command.description
                == "::error file=jobs/a%2Cb.yaml,line=3,title=Checks%3A 100%25 failed::first%0D%0Asecond%0Dthird%0Afourth 50%25")
    }

    @Test func aCommandWithoutPropertiesHasNoSpace() {
        #expect(WorkflowCommand("warning", [], "a: b, c").description == "::warning::a: b, c")
    }
}
