import Foundation
import LocalInstance
import TestSupport
import Testing

/// `nowflow run` in a CI's own terms: under GitHub Actions (simulated here: `GITHUB_ACTIONS=true`,
/// `$GITHUB_STEP_SUMMARY` a temporary file) workflow commands on the job file's lines and a Markdown summary; under
/// GitLab collapsible sections. The secrets appear in none of it.
@Suite struct CIAnnotationTests {
    static let job = """
        name: Checks
        auth:
          basic: { user: admin, password: "${env.NOW_PASSWORD}" }
        steps:
          - id: made
            create: { table: incident, fields: { short_description: "CI check | 50% done" } }
            show: false
          - id: open
            query: { table: incident, where: { sys_id: "${steps.made.sys_id}" }, fields: [number, short_description] }
          - assert:
              that: "steps.open.count == 2"
              message: "expected 2 | found ${steps.open.count}\\n(50% of the checks, as ${env.NOW_PASSWORD})"
        finally:
          - id: cleanup
            delete: { table: incident, sys_id: "${steps.made.sys_id}" }
        """

    /// Times as `N ms`, sys_ids as `<sys_id>`, the served instance's address as `http://HOST`, the change link's
    /// time as `SINCE`.
    private func normalized(_ text: String, server: LocalInstanceServer) -> String {
        text.replacingOccurrences(of: server.url, with: "http://HOST")
            .replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression)
            .replacingOccurrences(of: #"[0-9a-f]{32}"#, with: "<sys_id>", options: .regularExpression)
            .replacingOccurrences(of: #"since=[0-9-]+%20[0-9:]+"#, with: "since=SINCE", options: .regularExpression)
    }

    @Test func aGitHubActionsRunAnnotatesTheFailureAndAppendsASummary() throws {
        let server = try LocalInstanceServer(options: LocalInstance.Options(adminPassword: "pw-ci-9321", log: { _ in }))
        defer { server.stop() }
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.job.write(to: directory.appendingPathComponent("checks.yaml"), atomically: true, encoding: .utf8)
        let summary = directory.appendingPathComponent("step-summary.md")
        try "# Earlier step\n\n".write(to: summary, atomically: true, encoding: .utf8)
        let run = try ToolInvocation.run(
            ["run", "checks.yaml", "--instance", server.url], in: directory,
            environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path, "NOW_PASSWORD": "pw-ci-9321"])
        #expect(run.status == 4)
        #expect(
            normalized(run.stderr, server: server) == """
                ok   step 1 'made' (create): created incident <sys_id> (N ms)
                ok   step 2 'open' (query): 1 record from incident (N ms)
                ASSERT step 3 (assert): expected 2 | found 1
                (50% of the checks, as ***) (1 == 2 is false) (N ms)
                ok   finally 1 'cleanup' (delete): deleted incident <sys_id> (N ms)
                ::error file=checks.yaml,line=10,col=5,title=Checks%3A assertion failed::step 3 (assert): expected 2 | found 1%0A(50%25 of the checks, as ***) (1 == 2 is false)

                """)
        let markdown = try String(contentsOf: summary, encoding: .utf8)
        #expect(
            normalized(markdown, server: server) == #"""
                # Earlier step

                ### Checks: assertion failed

                `checks.yaml`: 4 steps run in N ms

                | Step | Status | Time | Result |
                | --- | --- | ---: | --- |
                | step 1 'made' (create) | ok | N ms | created incident <sys_id> |
                | step 2 'open' (query) | ok | N ms | 1 record from incident |
                | step 3 (assert) | ASSERT | N ms | expected 2 \| found 1 (50% of the checks, as \*\*\*) (1 == 2 is false) |
                | finally 1 'cleanup' (delete) | ok | N ms | deleted incident <sys_id> |

                **Why:** `checks.yaml:10:5`: step 3 (assert): expected 2 \| found 1 (50% of the checks, as \*\*\*) (1 == 2 is false)

                **Records touched:**

                - incident INC0010061 (<sys_id>): created by step 1 'made' (create), deleted by finally 1 'cleanup' (delete)

                [What changed on the instance](http://HOST/changes.do?since=SINCE)


                """#)
        for text in [run.stdout, run.stderr, markdown] { #expect(!text.contains("pw-ci-9321")) }
    }

    /// A job file that does not validate: each problem a workflow command on its line, the file's name escaped; a
    /// vars file that cannot be read, on its file.
    @Test func anInvalidJobFileIsAnnotatedOnItsLines() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = """
            name: Bad
            steps:
              - qurey: { table: incident }
              - assert: "steps.nothing.count =="
            """
        try job.write(to: directory.appendingPathComponent("smoke,50%:ci.yaml"), atomically: true, encoding: .utf8)
        let run = try ToolInvocation.run(["run", "smoke,50%:ci.yaml", "--annotations", "github"], in: directory)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(
            run.stderr == """
                ::error file=smoke%2C50%25%3Aci.yaml,line=3,col=5,title=invalid job file::unknown step kind 'qurey'; did you mean 'query'?
                ::error file=smoke%2C50%25%3Aci.yaml,line=4,col=36,title=invalid job file::bad expression in assert: expected a value at the end of the expression

                """)
        // A vars file that cannot be read is a configuration problem (exit 1), annotated as such.
        try Self.readJob.write(to: directory.appendingPathComponent("read.yaml"), atomically: true, encoding: .utf8)
        let vars = try ToolInvocation.run(
            ["run", "read.yaml", "--vars-file", "ci.yaml"], in: directory, environment: ["GITHUB_ACTIONS": "true"])
        #expect(vars.status == 1)
        #expect(vars.stderr == "::error file=ci.yaml,title=invalid vars file::no such file\n")
    }

    static let readJob = """
        name: Read
        steps:
          - id: open
            query: { table: incident, where: { active: true, priority: 1 }, fields: [number] }
            show: false
        """

    /// Under GitLab each job file's steps are a collapsible section; the outcome follows it.
    @Test func aGitLabRunFoldsEachJobsSteps() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.readJob.write(to: directory.appendingPathComponent("read.yaml"), atomically: true, encoding: .utf8)
        for environment in [["GITLAB_CI": "true"], ["GITHUB_ACTIONS": "true", "GITLAB_CI": "false"]] {
            let arguments = environment["GITLAB_CI"] == "true" ? [] : ["--annotations", "gitlab"]
            let run = try ToolInvocation.run(["run", "read.yaml"] + arguments, in: directory, environment: environment)
            #expect(run.status == 0)
            let stderr = run.stderr.replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression)
                .replacingOccurrences(of: #"section_(start|end):\d+:"#, with: "section_$1:T:", options: .regularExpression)
            #expect(
                stderr == """
                    \u{1B}[0Ksection_start:T:nowflow_1_read.yaml\r\u{1B}[0Knowflow run: read.yaml (Read): steps
                    ok   step 1 'open' (query): 5 records from incident (N ms)
                    \u{1B}[0Ksection_end:T:nowflow_1_read.yaml\r\u{1B}[0K

                    """)
            #expect(run.stdout.hasPrefix("Read: passed (1 step run, "))
        }
    }

    /// `--annotations none` under GitHub Actions: the plain diagnostics, and no summary.
    @Test func annotationsNoneKeepsThePlainOutput() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "name: Bad\nsteps:\n  - qurey: { table: incident }\n".write(
            to: directory.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
        let summary = directory.appendingPathComponent("step-summary.md")
        let run = try ToolInvocation.run(
            ["run", "bad.yaml", "--annotations", "none"], in: directory,
            environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("bad.yaml:3:5: error: "))
        #expect(!FileManager.default.fileExists(atPath: summary.path))
        let wrong = try ToolInvocation.run(["run", "bad.yaml", "--annotations", "jenkins"], in: directory)
        #expect(wrong.status == 1)
        #expect(
            wrong.stderr == """
                nowflow run: --annotations expects github, gitlab or none, got 'jenkins'
                see 'nowflow run --help'

                """)
    }
}
