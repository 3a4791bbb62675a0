import Foundation
import Testing

@Suite struct RunCommandTests {
    /// A temporary HOME (so the embedded instance's database is fresh) holding `files`.
    private func home(_ files: [String: String]) throws -> URL {
        let directory = try ToolInvocation.temporaryDirectory()
        for (name, text) in files {
            let url = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return directory
    }

    private func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression)
            .replacingOccurrences(of: #"[0-9a-f]{32}"#, with: "<sys_id>", options: .regularExpression)
    }

    static let job = """
        name: Note
        vars:
          text: hello
        steps:
          - id: note
            create: { table: incident, fields: { short_description: "${vars.text}" } }
          - id: check
            get: { table: incident, sys_id: "${steps.note.sys_id}" }
          - assert: { that: "steps.check.record.short_description == 'hello'", message: "the text is ${steps.check.record.short_description}" }
        finally:
          - delete: { table: incident, sys_id: "${steps.note.sys_id}" }
        """

    @Test func aPassingRunPrintsALinePerStepAndASummary() throws {
        let directory = try home(["job.yaml": Self.job])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(["run", "job.yaml"], in: directory)
        #expect(result.status == 0)
        #expect(
            normalized(result.stderr) == """
                ok   step 1 'note' (create): created incident <sys_id> (N ms)
                ok   step 2 'check' (get): incident <sys_id> (N ms)
                ok   step 3 (assert): holds: steps.check.record.short_description == 'hello' (N ms)
                ok   finally 1 (delete): deleted incident <sys_id> (N ms)

                """)
        #expect(
            normalized(result.stdout) == """
                     number             INC0010061
                     short_description  hello
                     number      short_description  state  sys_id
                     ----------  -----------------  -----  --------------------------------
                     INC0010061  hello              1      <sys_id>
                Note: passed (4 steps run, N ms)
                records touched:
                  incident INC0010061 (<sys_id>): created by step 1 'note' (create), deleted by finally 1 (delete)

                """)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(".nowflow/local.db").path))
    }

    @Test func anAssertionExitsWithFourAndReportsAreWritten() throws {
        let directory = try home(["job.yaml": Self.job, "out/.keep": ""])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(
            [
                "run", "job.yaml", "--var", "text=bye", "--report", "junit:out/junit.xml", "--report",
                "json:out/run.json",
            ],
            in: directory)
        #expect(result.status == 4)
        #expect(
            normalized(result.stderr).contains(
                "ASSERT step 3 (assert): the text is bye ('bye' == 'hello' is false) (N ms)"))
        let junit = try String(contentsOf: directory.appendingPathComponent("out/junit.xml"), encoding: .utf8)
        #expect(
            normalized(junit).contains(
                #"<failure type="assertion" message="the text is bye (&apos;bye&apos; == &apos;hello&apos; is false)">"#
            ))
        let text = try String(contentsOf: directory.appendingPathComponent("out/run.json"), encoding: .utf8)
        ReportCheck.expectValid(text)
        let json = (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["jobs"] as? [[String: Any]]
        #expect(json?.first?["status"] as? String == "assertion_failed")
        #expect((json?.first?["records"] as? [[String: Any]])?.map { $0["action"] as? String } == ["created", "deleted"])
    }

    @Test func jsonOutputGoesToStdout() throws {
        let directory = try home(["job.yaml": Self.job])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(["run", "job.yaml", "--output", "json"], in: directory)
        #expect(result.status == 0)
        ReportCheck.expectValid(result.stdout)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let json = (report?["jobs"] as? [[String: Any]])?.first
        #expect(json?["job"] as? String == "Note")
        #expect(json?["status"] as? String == "passed")
        #expect((json?["vars"] as? [String: Any])?["text"] as? String == "hello")
        #expect(((json?["results"] as? [String: Any])?["check"] as? [String: Any])?["sys_id"] is String)
    }

    @Test func verboseShowsResultsWithDatesInTheChosenZone() throws {
        let directory = try home([
            "job.yaml": """
            name: Dates
            steps:
              - id: list
                query: { table: incident, order_by: number, fields: [number, opened_at], limit: 1 }
            """
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let paris = try ToolInvocation.run(["run", "job.yaml", "--verbose", "--tz", "Europe/Paris"], in: directory)
        #expect(paris.status == 0)
        #expect(
            normalized(paris.stdout).hasSuffix(
                """
                steps.list = {"count":1,"records":[{"number":"INC0010001","opened_at":"2026-01-05 09:00:00 +01:00","sys_id":"<sys_id>"}]}

                """))
    }

    @Test func aDryRunPrintsTheWritesAndSendsNone() throws {
        let directory = try home([
            "job.yaml": """
            name: Bulk
            steps:
              - update: { table: incident, where: { category: network }, max: 50, fields: { urgency: 1 } }
              - create: { table: incident, fields: { short_description: dry } }
              - id: dry
                query: { table: incident, where: { short_description: dry } }
              - assert: "steps.dry.count == 0"
            """
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(["run", "job.yaml", "--dry-run"], in: directory)
        #expect(result.status == 0)
        // Each record the update would touch, by number and short description, with its urgency from → to.
        let changes = [
            #"INC0010002 "Unable to connect to VPN": no change"#,
            #"INC0010005 "Cannot access shared drive": urgency 2 → 1"#,
            #"INC0010008 "Wireless drops in conference room": urgency 3 → 1"#,
            #"INC0010013 "Website loading slowly": urgency 2 → 1"#,
            #"INC0010017 "Unable to connect to VPN (2)": urgency 3 → 1"#,
            #"INC0010020 "Cannot access shared drive (2)": no change"#,
            #"INC0010023 "Wireless drops in conference room (2)": urgency 2 → 1"#,
            #"INC0010028 "Website loading slowly (2)": no change"#,
            #"INC0010032 "Unable to connect to VPN (3)": urgency 2 → 1"#,
            #"INC0010035 "Cannot access shared drive (3)": urgency 3 → 1"#,
            #"INC0010038 "Wireless drops in conference room (3)": no change"#,
            #"INC0010043 "Website loading slowly (3)": urgency 3 → 1"#,
            #"INC0010047 "Unable to connect to VPN (4)": no change"#,
            #"INC0010050 "Cannot access shared drive (4)": urgency 2 → 1"#,
            #"INC0010053 "Wireless drops in conference room (4)": urgency 3 → 1"#,
            #"INC0010058 "Website loading slowly (4)": urgency 2 → 1"#,
        ]
        let patches = changes.flatMap { [#"  PATCH /api/now/table/incident/<sys_id> {"urgency":"1"}"#, "    " + $0] }
        // Under each write's line on stdout, the records it would touch (the stand-ins of the dry run).
        let updated = changes.map { "     \($0.prefix(10))  1        <sys_id>" }
        let tables =
            ["     number      urgency  sys_id", "     ----------  -------  --------------------------------"] + updated
            + ["     short_description  dry"]
        #expect(
            normalized(result.stdout)
                == (tables + ["Bulk: dry run passed (4 steps run, N ms, dry run)", "writes not sent (dry run):"] + patches + [
                    #"  POST /api/now/table/incident {"short_description":"dry","sys_id":"dry-run-1"}"#, "",
                ]).joined(separator: "\n"))
        // Each write is listed once, in the outcome on stdout; stderr has the steps' lines only.
        #expect(normalized(result.stderr).hasPrefix("ok   step 1 (update): would update 16 incident records (dry run) (N ms)\n"))
        #expect(!result.stderr.contains("would send"))
    }

    @Test func aFailedStepExitsWithThreeAndMasksSecrets() throws {
        let directory = try home([
            "job.yaml": """
            name: Secret
            secrets: [TICKET_TOKEN]
            steps:
              - get: { table: incident, sys_id: "${env.TICKET_TOKEN}" }
            """
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(
            ["run", "job.yaml"], in: directory, environment: ["TICKET_TOKEN": "tok-4411"])
        #expect(result.status == 3)
        #expect(!result.stderr.contains("tok-4411"))
        #expect(!result.stdout.contains("tok-4411"))
        #expect(
            normalized(result.stderr)
                == "FAIL step 1 (get): bad response 404 from GET /api/now/table/incident/***: No Record found (Record doesn't exist or ACL restricts the record retrieval) (N ms)\n"
        )
    }

    @Test func invalidJobsExitWithTwoBeforeAnyRequest() throws {
        let directory = try home([
            "job.yaml": "name: Bad\nsteps:\n  - delete: { table: incident, query: active=true }\n"
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(["run", "job.yaml"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "job.yaml:3:13: error: a delete by where:/query: needs max:, the most records it may delete; when more match, nothing is deleted\n"
        )
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(".nowflow").path))
    }

    @Test(arguments: [
        (["run"], "nowflow run: no job file given"),
        (
            ["run", "job.yaml", "--var", "nope=1"],
            "nowflow run: --var nope: the job has no variable 'nope' under vars: (it declares text)"
        ),
        (
            ["run", "job.yaml", "--report", "xml:out.xml"],
            "nowflow run: --report expects junit:PATH or json:PATH, got 'xml:out.xml'"
        ),
        (["run", "job.yaml", "--output", "yaml"], "nowflow run: --output expects text or json, got 'yaml'"),
        (
            ["run", "job.yaml", "--rate", "fast"],
            "nowflow run: --rate expects requests per second or hour, such as 500/s or 10000/h, got 'fast'"
        ),
        (
            ["run", "job.yaml", "--tz", "Mars/Base"],
            "nowflow run: --tz 'Mars/Base' is not a time zone; use UTC, local or an IANA name such as Europe/Paris"
        ),
        (["run", "job.yaml", "--instance", "ftp://x"], "nowflow run: instance 'ftp://x' is not an http(s) URL"),
        (
            ["run", "job.yaml", "--instance", "http://example.com"],
            "nowflow run: instance 'http://example.com': plain http:// is only for this machine (loopback); "
                + "use https:// for another host, so that credentials do not travel unencrypted"
        ),
    ])
    func usageErrorsExitWithOne(_ arguments: [String], _ message: String) throws {
        let directory = try home(["job.yaml": Self.job])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(arguments, in: directory)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix(message + "\n"), "\(result.stderr)")
    }

    @Test func profilesComeFromConfigYAML() throws {
        let directory = try home([
            "job.yaml": Self.job,
            ".nowflow/config.yaml":
                "profiles:\n  dev:\n    url: http://127.0.0.1:9\n    auth: { basic: { user: u, password: \"${env.DEV_PASSWORD}\" } }\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let unknown = try ToolInvocation.run(["run", "job.yaml", "--instance", "prod"], in: directory)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasSuffix("/.nowflow/config.yaml (profiles: dev)\n"))
        // Port 9 (discard) on loopback refuses the connection: the step fails with exit status 3.
        let unreachable = try ToolInvocation.run(
            ["run", "job.yaml", "--instance", "dev"], in: directory, environment: ["DEV_PASSWORD": "pw-3141"])
        #expect(unreachable.status == 3)
        #expect(unreachable.stderr.hasPrefix("FAIL step 1 'note' (create): network error"))
        #expect(!unreachable.stderr.contains("pw-3141"))
    }
}
