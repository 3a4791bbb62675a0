import Testing

@testable import NowFlow

@Suite struct ContinuedLineTests {
    /// The lines added, and whether each asks for another; the joined text at the end.
    private func lines(_ lines: [String]) -> ([Bool], String) {
        var input = ContinuedLine()
        let more = lines.map { input.add($0) }
        return (more, input.text)
    }

    @Test func anOpenBracketOrAFinalBackslashContinuesTheLine() {
        #expect(lines(["query: { table: incident,", "  where: { active: true },", "  limit: 5 }"])
            == ([true, true, false], "query: { table: incident, where: { active: true }, limit: 5 }"))
        #expect(lines(["query incident active=true \\", "  limit=5"]) == ([true, false], "query incident active=true  limit=5"))
        #expect(lines([":show len(", "steps._.records)"]) == ([true, false], ":show len( steps._.records)"))
        #expect(lines(["get incident ${steps._.sys_id}"]) == ([false], "get incident ${steps._.sys_id}"))
    }

    @Test func quotesAndCommentsDoNotContinue() {
        #expect(lines([#"create incident short_description="a { b""#]) == ([false], #"create incident short_description="a { b""#))
        #expect(lines(["set x='(' y=it's"]) == ([false], "set x='(' y=it's"))
        // A double quote inside a word is a character of it, as an apostrophe is: the bracket after it is open.
        #expect(lines([#"create incident short_description=a"b {"#, "}"]) == ([true, false], #"create incident short_description=a"b { }"#))
        #expect(lines(["# a comment ("]) == ([false], "# a comment ("))
        #expect(lines(["query: { table: incident, x: \"}\"", "}"]) == ([true, false], "query: { table: incident, x: \"}\" }"))
        #expect(lines([#"path\\"#]) == ([false], #"path\\"#))
    }
}
