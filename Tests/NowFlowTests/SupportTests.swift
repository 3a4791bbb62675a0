import Foundation
import NowData
import Testing

@testable import NowFlow

@Suite struct SupportTests {
    @Test func answersAreReadWithTheirMembersInOrder() throws {
        let answer = #"{"result": {"number": "INC0010001", "cost": 0.5, "count": 2800, "z": null, "a": [-12, true]}}"#
        let result = try JSONValue.tableResult(of: Data(answer.utf8))
        #expect(result.object?.keys == ["number", "cost", "count", "z", "a"])
        #expect(result["cost"]?.text == "0.5")
        #expect(result["count"]?.text == "2800")
        #expect(result["a"]?.text == "[-12,true]")
        #expect(throws: StepFailure.self) { try JSONValue.tableResult(of: Data(#"{"error": {}}"#.utf8)) }
    }

    @Test func valuesBecomeTexts() throws {
        #expect(JSONValue.number(try #require(JSONNumber(text: "3"))).text == "3")
        #expect(JSONValue.number(try #require(JSONNumber(text: "0.10"))).text == "0.10")
        #expect(JSONValue(floatLiteral: 0.25).text == "0.25")
        #expect(JSONValue.null.text == "")
        #expect(JSONValue.bool(false).text == "false")
        #expect(JSONValue.array([.string("a")]).text == #"["a"]"#)
        #expect(JSONValue.object(["b": 1, "a": ["d": 2, "c": nil]]).text == #"{"a":{"c":null,"d":2},"b":1}"#)
    }

    @Test func secretsAreMaskedLongestFirst() {
        let masker = SecretMasker(["abc", "abcdef", ""])
        #expect(masker("token abcdef and abc") == "token *** and ***")
        #expect(masker(JSONValue.object(["k": .array([.string("xabcx")]), "n": 1])) == ["k": ["x***x"], "n": 1])
    }

    @Test func secretsAreMaskedInEveryFormTheyTake() {
        let masker = SecretMasker([#"p"a\ss%w0rd x"#, "918273", SecretMasker.basicCredentials(user: "u", password: "pw")])
        let text = #"""
            raw p"a\ss%w0rd x, JSON "p\"a\\ss%w0rd x", query p%22a%5Css%25w0rd%20x, form p%22a%5Css%25w0rd+x, \#
            pin 918273, header Basic dTpwdw==
            """#
        #expect(
            masker(text) == """
                raw ***, JSON "***", query ***, form ***, pin ***, header Basic ***
                """)
        #expect(
            masker(JSONValue.object(["pin": 918273, "list": [918273, 5, "p\"a\\ss%w0rd x"], "on": true]))
                == ["pin": "***", "list": ["***", 5, "***"], "on": true])
    }

    @Test func aSecretListOrMapIsMaskedItemByItem() {
        #expect(SecretMasker.texts(of: ["a", 12, ["k": "b", "n": nil], true]) == ["a", "12", "b"])
    }

    @Test func theEnvironmentNamesTheInstanceAndTheCredentials() throws {
        #expect(EnvironmentCredentials.instance(in: ["SN_HOST": "dev1234.service-now.com"]) == "https://dev1234.service-now.com")
        #expect(EnvironmentCredentials.instance(in: ["NOW_INSTANCE": "dev", "SN_HOST": "x.example"]) == "dev")
        #expect(EnvironmentCredentials.instance(in: ["NOW_INSTANCE": ""]) == nil)
        let token = try #require(EnvironmentCredentials.authentication(in: ["NOW_TOKEN": "t0k", "NOW_USER": "u", "NOW_PASSWORD": "p"]))
        #expect(token.secrets == ["t0k"])
        let basic = try #require(EnvironmentCredentials.authentication(in: ["SN_USERNAME": "admin", "SN_PASSWORD": "pw"]))
        guard case .basic(let user, let password) = basic.authentication else {
            Issue.record("not basic: \(basic.authentication)")
            return
        }
        #expect(user == "admin" && password == "pw")
        #expect(basic.secrets == ["pw", "YWRtaW46cHc="])
        #expect(EnvironmentCredentials.authentication(in: ["NOW_USER": "admin"]) == nil)
    }

    @Test func editDistanceCountsSwapsAsOne() {
        #expect("qurey".editDistance(to: "query") == 1)
        #expect("tabel".closest(among: ["table", "fields"]) == "table")
        #expect("zzz".closest(among: ["table", "fields"]) == nil)
    }

    @Test func argumentsReadLikeYAMLScalars() {
        #expect(JobRunner.value(ofArgument: "true") == .bool(true))
        #expect(JobRunner.value(ofArgument: "2") == 2)
        #expect(JobRunner.value(ofArgument: "0.10")?.text == "0.10")
        #expect(JobRunner.value(ofArgument: ".inf") == nil)
        #expect(JobRunner.value(ofArgument: "yes") == .string("yes"))
        #expect(JobRunner.value(ofArgument: "a=b") == .string("a=b"))
    }

    @Test func datesAreShownInTheChosenZone() throws {
        let job = try JobFile.parse("name: d\ncoder: { timezone: Europe/Paris }\nsteps: []", file: "d.yaml")
        let dates = job.dates(timeZone: nil)
        #expect(
            dates.shown(["opened_at": "2026-01-05 08:00:00", "number": "INC0010001", "due": "2026-01-05"])
                == ["opened_at": "2026-01-05 09:00:00 +01:00", "number": "INC0010001", "due": "2026-01-05 01:00:00 +01:00"])
        #expect(job.dates(timeZone: "UTC").shown("2026-07-01 12:30:00") == "2026-07-01 12:30:00 +00:00")
        let pattern = try JobFile.parse("name: d\ncoder: { dates: dd/MM/yyyy HH:mm }\nsteps: []", file: "d.yaml")
        #expect(pattern.dates(timeZone: "America/New_York").shown("05/01/2026 08:00") == "05/01/2026 03:00 -05:00")
    }

    /// The default coder converts nothing; a pattern (a `.custom` coder) reads the instance's date-times into the
    /// job's format and sends the job's dates in ServiceNow's, both ways through the coder's date seam.
    @Test func datesConvertBothWaysThroughTheJobsCoder() throws {
        let record: JSONValue = [
            "opened_at": "2026-03-07 22:00:00", "due_date": "2026-03-09", "number": "INC0010001", "count": 2,
            "not_a_date": "2026-02-30 10:00:00",
        ]
        let servicenow = try JobFile.parse("name: d\nsteps: []", file: "d.yaml").dates(timeZone: nil)
        #expect(servicenow.incoming(record) == record)
        #expect(servicenow.outgoing("2026-03-07 22:00:00") == nil)

        let pattern = try JobFile.parse("name: d\ncoder: { dates: dd/MM/yyyy HH:mm }\nsteps: []", file: "d.yaml")
            .dates(timeZone: nil)
        #expect(
            pattern.incoming(record) == [
                "opened_at": "07/03/2026 22:00", "due_date": "2026-03-09", "number": "INC0010001", "count": 2,
                "not_a_date": "2026-02-30 10:00:00",
            ])
        let sent = try #require(pattern.outgoing("07/03/2026 22:00"))
        #expect(Coder.default.text(for: sent) == "2026-03-07 22:00:00")
        #expect(pattern.outgoing("INC0010001") == nil)

        let iso = try JobFile.parse("name: d\ncoder: { dates: iso8601 }\nsteps: []", file: "d.yaml").dates(timeZone: nil)
        #expect(iso.incoming("2026-03-07 22:00:00") == "2026-03-07T22:00:00Z")
        #expect(iso.outgoing("2026-03-07T22:00:00Z").map(Coder.default.text(for:)) == "2026-03-07 22:00:00")
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
