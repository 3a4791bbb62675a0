import Foundation
import Testing

@testable import NowFlow

@Suite struct SupportTests {
    @Test func valuesRoundTripThroughJSON() throws {
        let value = Value.map(["a": .list([.int(1), .double(2.5), .bool(true), .null, .string("x")]), "b": .map([:])])
        #expect(value.jsonText() == #"{"a":[1,2.5,true,null,"x"],"b":{}}"#)
        #expect(try Value(json: Data(value.jsonText().utf8)) == value)
    }

    @Test func jsonIsReadWithEscapesNumbersAndNesting() throws {
        let text =
            #" {"s": "a\"b\\c\/d\n\u00e9\ud83d\ude00", "n": [0, -12, 1.5, 2e3, true, false, null], "o": {"k": {}}, "u": "é" } "#
        #expect(
            try Value(json: Data(text.utf8))
                == .map([
                    "s": .string("a\"b\\c/d\né😀"),
                    "n": .list([.int(0), .int(-12), .double(1.5), .double(2000), .bool(true), .bool(false), .null]),
                    "o": .map(["k": .map([:])]), "u": .string("é"),
                ]))
    }

    @Test(arguments: [
        ("{\"a\": }", "invalid JSON at byte 6: unexpected character"),
        ("[1, 2", "invalid JSON at byte 5: expected ',' or ']' in an array"),
        ("\"open", "invalid JSON at byte 5: unterminated string"),
        ("{} x", "invalid JSON at byte 3: unexpected text after the value"),
        ("{\"a\" 1}", "invalid JSON at byte 5: expected ':' after a key"),
        (String(repeating: "[", count: 600), "invalid JSON at byte 512: nesting deeper than 512 levels"),
    ])
    func badJSONIsAnError(_ text: String, _ message: String) {
        #expect(throws: JSONReaderError.self) { try Value(json: Data(text.utf8)) }
        do {
            _ = try JSONReader.value(from: Data(text.utf8))
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func valuesBecomeTexts() {
        #expect(Value.double(3).text == "3")
        #expect(Value.double(0.25).text == "0.25")
        #expect(Value.null.text == "")
        #expect(Value.list([.string("a")]).text == #"["a"]"#)
    }

    @Test func secretsAreMaskedLongestFirst() {
        let masker = SecretMasker(["abc", "abcdef", ""])
        #expect(masker("token abcdef and abc") == "token *** and ***")
        #expect(masker(Value.map(["k": .list([.string("xabcx")])])) == .map(["k": .list([.string("x***x")])]))
    }

    @Test func editDistanceCountsSwapsAsOne() {
        #expect("qurey".editDistance(to: "query") == 1)
        #expect("tabel".closest(among: ["table", "fields"]) == "table")
        #expect("zzz".closest(among: ["table", "fields"]) == nil)
    }

    @Test func argumentsReadLikeYAMLScalars() {
        #expect(JobRunner.value(ofArgument: "true") == .bool(true))
        #expect(JobRunner.value(ofArgument: "2") == .int(2))
        #expect(JobRunner.value(ofArgument: "yes") == .string("yes"))
        #expect(JobRunner.value(ofArgument: "a=b") == .string("a=b"))
    }

    @Test func datesAreShownInTheChosenZone() throws {
        let job = try JobFile.parse("name: d\ncoder: { timezone: Europe/Paris }\nsteps: []", file: "d.yaml")
        let display = job.dateDisplay(timeZone: nil)
        #expect(
            display.render(.map(["opened_at": .string("2026-01-05 08:00:00"), "number": .string("INC0010001")]))
                == .map(["opened_at": .string("2026-01-05 09:00:00 +01:00"), "number": .string("INC0010001")]))
        #expect(
            job.dateDisplay(timeZone: "UTC").render(.string("2026-07-01 12:30:00"))
                == .string("2026-07-01 12:30:00 +00:00"))
        let pattern = try JobFile.parse("name: d\ncoder: { dates: dd/MM/yyyy HH:mm }\nsteps: []", file: "d.yaml")
        #expect(
            pattern.dateDisplay(timeZone: "America/New_York").render(.string("05/01/2026 08:00"))
                == .string("05/01/2026 03:00 -05:00"))
    }

    @Test func profilesAreReadWithDiagnostics() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("profiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("good.yaml")
        try """
        profiles:
          dev:
            url: https://dev1.example.com
            auth: { token: "${env.DEV_TOKEN}" }
          plain:
            url: http://127.0.0.1:8080
        """.write(to: good, atomically: true, encoding: .utf8)
        let profiles = try InstanceProfile.load(path: good.path)
        #expect(profiles.keys.sorted() == ["dev", "plain"])
        #expect(profiles["dev"]?.url.absoluteString == "https://dev1.example.com")
        #expect(try profiles["dev"]?.authentication(environment: ["DEV_TOKEN": "t"])?.secrets == ["t"])
        #expect(try profiles["plain"]?.authentication(environment: [:]) == nil)
        #expect(throws: (any Error).self) { try profiles["dev"]?.authentication(environment: [:]) }

        let bad = directory.appendingPathComponent("bad.yaml")
        try "profiles:\n  dev:\n    uri: https://x\n  odd:\n    url: ftp://x\n".write(
            to: bad, atomically: true, encoding: .utf8)
        #expect(
            throws: JobFileError(diagnostics: [
                Diagnostic(
                    file: bad.path, line: 3, column: 5, message: "unknown key 'uri' in profile dev; did you mean 'url'?"
                ),
                Diagnostic(file: bad.path, line: 3, column: 5, message: "profile dev needs url:"),
                Diagnostic(file: bad.path, line: 5, column: 10, message: "url 'ftp://x' is not an http(s) URL"),
            ])
        ) {
            try InstanceProfile.load(path: bad.path)
        }
    }
}
