import NowData
import Testing

@testable import NowFlow

@Suite struct YAMLParserTests {
    /// A compact rendering of a node tree: `{a: 1@1:4, b: [x@2:5]}` with positions.
    private func render(_ node: YAMLNode?) -> String {
        guard let node else { return "nil" }
        let position = "@\(node.mark.line):\(node.mark.column)"
        switch node.content {
        case .scalar(let text, let style): return (style == .quoted ? "'\(text)'" : text) + position
        case .sequence(let items): return "[" + items.map(render).joined(separator: ", ") + "]" + position
        case .mapping(let pairs):
            return "{" + pairs.map { "\($0.name): \(render($0.value))" }.joined(separator: ", ") + "}" + position
        }
    }

    private func failure(_ text: String) -> String {
        do {
            _ = try YAMLParser.parse(text)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func nodesCarryLineAndColumnInOrder() throws {
        let text = """
            name: demo
            steps:
              - query: { table: incident, limit: 5 }
              - "quoted"
            """
        let rendered = render(try YAMLParser.parse(text))
        #expect(
            rendered
                == "{name: demo@1:7, steps: [{query: {table: incident@3:21, limit: 5@3:38}@3:12}@3:5, 'quoted'@4:5]@3:3}@1:1"
        )
    }

    @Test func columnsCountCharactersNotBytes() throws {
        #expect(render(try YAMLParser.parse("é: ü\nb: x")) == "{é: ü@1:4, b: x@2:4}@1:1")
    }

    @Test func anchorsAndAliasesAreResolved() throws {
        let text = """
            base: &b { table: incident }
            copy: *b
            """
        #expect(
            render(try YAMLParser.parse(text))
                == "{base: {table: incident@1:19}@1:7, copy: {table: incident@1:19}@1:7}@1:1")
    }

    @Test func emptyDocumentIsNil() throws {
        #expect(try YAMLParser.parse("# only a comment\n") == nil)
        #expect(try YAMLParser.parse("") == nil)
    }

    private func number(_ text: String) -> YAMLScalar? {
        JSONNumber(text: text).map(YAMLScalar.number)
    }

    @Test func coreSchemaResolvesOnlyPlainScalars() throws {
        let node = try #require(
            try YAMLParser.parse(
                "[true, False, yes, no, on, off, ~, null, '', 12, -3, 0x1F, 0o17, 1.5, 1e3, .inf, '5', \"true\", abc, 1.2.3]"
            ))
        let values = try #require(node.items).map(\.resolvedScalar)
        let expected: [YAMLScalar?] = [
            .bool(true), .bool(false), .string("yes"), .string("no"), .string("on"), .string("off"), .null, .null,
            .string(""), number("12"), number("-3"), number("31"), number("15"), number("1.5"), number("1e3"),
            .nonFinite(".inf"),
            .string("5"), .string("true"), .string("abc"), .string("1.2.3"),
        ]
        #expect(values == expected)
    }

    @Test func numbersKeepTheTextWrittenWhenItIsJSONs() throws {
        let node = try #require(try YAMLParser.parse("[2800, 0.10, 1e3, -0.5, 0x1F, 0o17, +5, 007, .5, 1., -.inf, .NaN]"))
        let texts = try #require(node.items).map { item -> String in
            switch item.resolvedScalar {
            case .number(let number): number.text
            case .nonFinite(let text): "non-finite " + text
            default: "not a number"
            }
        }
        #expect(
            texts == [
                "2800", "0.10", "1e3", "-0.5", "31", "15", "5", "7", "0.5", "1", "non-finite -.inf", "non-finite .NaN",
            ])
    }

    @Test func explicitStringTagKeepsText() throws {
        let node = try #require(try YAMLParser.parse("a: !!str 12"))
        #expect(node.pairs?.first?.value.resolvedScalar == .string("12"))
    }

    @Test func duplicateKeysAreRefused() {
        #expect(failure("a: 1\nb: 2\na: 3") == "3:1: duplicate key 'a' (first at line 1, column 1)")
        #expect(failure("x: { k: 1, k: 2 }") == "1:12: duplicate key 'k' (first at line 1, column 6)")
    }

    /// A small mapping's keys are looked through, a larger one's kept in a dictionary from its ninth key on: a
    /// duplicate is found either way, with its first position.
    @Test func duplicateKeysAreFoundInMappingsOfEverySize() throws {
        let keys = (1...12).map { "k\($0): \($0)" }
        #expect(failure((keys + ["k8: 0"]).joined(separator: "\n")) == "13:1: duplicate key 'k8' (first at line 8, column 1)")
        #expect(failure((keys + ["k9: 0"]).joined(separator: "\n")) == "13:1: duplicate key 'k9' (first at line 9, column 1)")
        #expect(failure((keys + ["k12: 0"]).joined(separator: "\n")) == "13:1: duplicate key 'k12' (first at line 12, column 1)")
        #expect(failure((keys.prefix(8) + ["k1: 0"]).joined(separator: "\n")) == "9:1: duplicate key 'k1' (first at line 1, column 1)")
        let root = try #require(try YAMLParser.parse(keys.joined(separator: "\n")))
        #expect(root.pairs?.map(\.name) == (1...12).map { "k\($0)" })
    }

    @Test func anEmptyTextHoldsNoDocument() throws {
        #expect(try YAMLParser.parse("") == nil)
        #expect(try YAMLParser.parse("# only a comment\n") == nil)
    }

    @Test func secondDocumentIsAnError() {
        #expect(failure("a: 1\n---\nb: 2") == "2:1: a job file holds one YAML document; a second one starts here")
    }

    @Test func libyamlErrorsKeepTheirPosition() {
        #expect(
            failure("a: [1, 2\nb: c")
                == "2:2: did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 4)")
        #expect(failure("a: b: c") == "1:5: mapping values are not allowed in this context")
        #expect(
            failure("a:\n\t- b")
                == "2:1: tab characters are not allowed for indentation; indent with spaces"
        )
    }

    @Test func unknownAliasIsAnError() {
        #expect(failure("a: *nowhere") == "1:4: unknown alias '*nowhere': no anchor '&nowhere' comes before it")
    }

    @Test func complexKeysAreRefused() {
        #expect(failure("? [a, b]\n: c") == "1:3: a mapping key must be a plain value, not a list")
    }

    @Test func unsupportedTagsAreRefused() {
        #expect(failure("a: !custom x") == "1:4: unsupported tag '!custom'")
    }

    @Test func readerErrorsGetALineAndColumn() {
        #expect(failure("a: 1\nbé: x\u{01}") == "2:6: control characters are not allowed (byte 11 of the file)")
    }

    @Test func deepNestingIsRefused() {
        let text = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(failure(text) == "1:201: lists and mappings nest deeper than 200 levels")
    }

    @Test func aliasBombsAreRefused() {
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1...7 {
            let previous = "*a\(level - 1)"
            lines.append("a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]")
        }
        #expect(
            failure(lines.joined(separator: "\n")).hasSuffix(
                "the document expands to more than 1000000 nodes (aliases of aliases?)"))
    }

    /// Each node counts once, however deep: 550,001 nodes in nested collections are under the limit.
    @Test func nestedNodesCountOnce() throws {
        let text = "[" + Array(repeating: "{a: 1, b: 2}", count: 110_000).joined(separator: ",") + "]"
        #expect(failure(text) == "no error")
        #expect(try YAMLParser.parse(text)?.items?.count == 110_000)
    }

    @Test func aDocumentWithTooManyNodesAndNoAliasIsToldToSplit() {
        let text = "[" + Array(repeating: "x", count: 1_000_001).joined(separator: ",") + "]"
        #expect(failure(text).hasSuffix("the document has more than 1000000 nodes; split it into several jobs"))
    }

    @Test func aLargeScalarAliasedManyTimesIsRefusedByItsBytes() {
        let big = String(repeating: "x", count: 1_048_576)
        let text = "a: &a \"\(big)\"\nb: [\(Array(repeating: "*a", count: 1000).joined(separator: ", "))]\n"
        #expect(failure(text) == "2:69: aliases expand to more than 16 MB of text ('*a' here)")
    }

    @Test func aLongListIsReadWhole() throws {
        let text = (0..<100_000).map { "- item \($0)" }.joined(separator: "\n")
        let root = try #require(try YAMLParser.parse(text))
        #expect(root.items?.count == 100_000)
        #expect(root.items?.last?.scalarText == "item 99999")
        let mapping = (0..<50_000).map { "k\($0): \($0)" }.joined(separator: "\n")
        #expect(try YAMLParser.parse(mapping)?.pairs?.last?.name == "k49999")
    }
}
