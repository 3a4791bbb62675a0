import Foundation
import Testing

/// Secrets with `"`, `\`, `%`, a number and a list, masked in every output and report of `nowflow run`.
@Suite struct MaskingTests {
    static let job = #"""
        name: Mask
        secrets: [pw, pin, tokens]
        vars:
          pw: 'p"a\ss%w0rd'
          pin: 918273
          tokens: [tok-alpha, tok-beta]
        steps:
          - id: made
            create: { table: incident, fields: { short_description: "pw=${vars.pw} pin=${vars.pin} t=${vars.tokens.1}", description: "${vars.tokens}" } }
          - id: q
            query: { table: incident, where: { short_description: "${vars.pw}" }, limit: 1 }
          - assert: { that: "steps.q.count == 5", message: "bad ${vars.pw} ${vars.pin}" }
        finally:
          - delete: { table: incident, sys_id: "${steps.made.sys_id}" }
        """#

    /// Every form of the secrets that must not appear: raw, JSON-escaped, percent-encoded.
    static let forms = [
        #"p"a\ss%w0rd"#, #"p\"a\\ss%w0rd"#, "p%22a%5Css%25w0rd", "918273", "tok-alpha", "tok-beta", "ss%w0rd", "w0rd",
    ]

    private func run(_ arguments: [String], in directory: URL) throws -> ToolInvocation {
        try ToolInvocation.run(["run", "job.yaml"] + arguments, in: directory)
    }

    @Test func aDryRunShowsTheSecretsMasked() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let result = try run(["--dry-run"], in: directory)
        #expect(result.status == 0)
        #expect(
            result.stdout.replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression) == #"""
                     short_description  pw=*** pin=*** t=***
                     description        ***,***
                Mask: dry run passed, 1 assert not enforced (3 steps run, N ms, dry run)
                writes not sent (dry run):
                  POST /api/now/table/incident {"description":"***,***","short_description":"pw=*** pin=*** t=***","sys_id":"dry-run-1"}
                  DELETE /api/now/table/incident/dry-run-1
                    dry-run-1 "pw=*** pin=*** t=***"

                """#)
        #expect(
            result.stderr.replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression) == #"""
                ok   step 1 'made' (create): would create a record in incident (dry run) (N ms)
                ok   step 2 'q' (query): 0 records from incident (N ms)
                skip step 3 (assert): not enforced in a dry run: bad *** *** (0 == 5 is false) (N ms)
                ok   finally 1 (delete): would delete incident dry-run-1 (dry run) (N ms)

                """#)
    }

    @Test func noFormOfASecretAppearsInAnyOutputOrReport() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        var outputs: [String: String] = [:]
        for (name, arguments) in [
            ("dry json", ["--dry-run", "--output", "json"]), ("verbose", ["--verbose"]),
            ("json", ["--output", "json", "--report", "json:r.json", "--report", "junit:r.xml"]),
        ] {
            let result = try run(arguments, in: directory)
            outputs["\(name) stdout"] = result.stdout
            outputs["\(name) stderr"] = result.stderr
        }
        outputs["json report"] = try String(contentsOf: directory.appendingPathComponent("r.json"), encoding: .utf8)
        outputs["junit report"] = try String(contentsOf: directory.appendingPathComponent("r.xml"), encoding: .utf8)
        for (name, text) in outputs {
            for form in Self.forms { #expect(!text.contains(form), "\(name) shows \(form)") }
        }
        let report = try #require(outputs["json report"])
        ReportCheck.expectValid(report)
        // What --output json prints is the same contract, in a dry run too.
        ReportCheck.expectValid(try #require(outputs["json stdout"]))
        ReportCheck.expectValid(try #require(outputs["dry json stdout"]))
        #expect(report.contains(#"        "pin": "***","#))
        #expect(report.contains("        \"tokens\": [\n          \"***\",\n          \"***\"\n        ]"))
        #expect(report.contains(#""short_description": "pw=*** pin=*** t=***","#))
        #expect(try #require(outputs["verbose stdout"]).contains("\nvars.pin = \"***\"\nvars.pw = \"***\"\nvars.tokens = [\"***\",\"***\"]"))
    }
}
