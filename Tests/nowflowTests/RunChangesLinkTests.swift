import Foundation
@preconcurrency import Glibc
import LocalInstance
import TestSupport
import Testing

/// `nowflow run` against a served instance ends with a link to the web view of what it changed, when standard
/// error is a terminal and the run changed something (and only then); under GitHub Actions the link is in the
/// summary, over HTTPS as over HTTP. The link is the page the instance names on its answers (`X-Nowflow-Changes`):
/// an instance that names none (a ServiceNow instance) gets none.
@Suite struct RunChangesLinkTests {
    static let job = """
        name: Link
        auth:
          basic: { user: admin, password: "${env.NOW_PASSWORD}" }
        steps:
          - id: made
            create: { table: incident, fields: { short_description: "Made by the linked run" } }
        """

    @Test(.enabled(if: TmuxSession.executable != nil, "tmux is not installed (CI installs it: apt-get install tmux)"))
    func aRunInATerminalLinksToWhatItChanged() throws {
        let server = try LocalInstanceServer(options: LocalInstance.Options(adminPassword: "pw-link", log: { _ in }))
        defer { server.stop() }
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.job.write(to: directory.appendingPathComponent("link.yaml"), atomically: true, encoding: .utf8)
        let nowflow = try BuiltProducts.executable(named: "nowflow")
        let command =
            "cd '\(directory.path)' && HOME='\(directory.path)' NO_COLOR=1 NOW_PASSWORD=pw-link '\(nowflow.path)' run "
            + "link.yaml --instance \(server.url); echo RUN-ENDED; sleep 60"
        let terminal = try TmuxSession(command: command)
        let screen = try terminal.waitFor("RUN-ENDED")
        let prefix = "nowflow run: what changed: \(server.url)/changes.do?since="
        let line = try #require(screen.components(separatedBy: "\n").first { $0.hasPrefix(prefix) })
        let since = String(line.dropFirst(prefix.count))
        #expect(since.count == "2026-12-02%2009:41:07".count && since.contains("%20"))

        let page = try RawHTTPClient.send(
            "GET", "/changes.do?since=\(since)",
            headers: ["Authorization": "Basic " + Data("admin:pw-link".utf8).base64EncodedString()], port: server.port)
        #expect(page.status == 200)
        #expect(page.body.contains("<h2>Created (1)</h2>"))
        #expect(page.body.contains("<td>admin</td><td class=\"number\">0</td></tr>"))
    }

    /// A run that changed nothing (it only read) has nothing to show there: no link, even on a terminal.
    @Test(.enabled(if: TmuxSession.executable != nil, "tmux is not installed (CI installs it: apt-get install tmux)"))
    func aReadOnlyRunInATerminalPrintsNoLink() throws {
        let server = try LocalInstanceServer(options: LocalInstance.Options(adminPassword: "pw-link", log: { _ in }))
        defer { server.stop() }
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = """
            name: Look
            auth:
              basic: { user: admin, password: "${env.NOW_PASSWORD}" }
            steps:
              - query: { table: incident, where: { active: true }, limit: 1 }
            """
        try job.write(to: directory.appendingPathComponent("look.yaml"), atomically: true, encoding: .utf8)
        let nowflow = try BuiltProducts.executable(named: "nowflow")
        let command =
            "cd '\(directory.path)' && HOME='\(directory.path)' NO_COLOR=1 NOW_PASSWORD=pw-link '\(nowflow.path)' run "
            + "look.yaml --instance \(server.url) --quiet; echo RUN-ENDED; sleep 60"
        let terminal = try TmuxSession(command: command)
        let screen = try terminal.waitFor("RUN-ENDED")
        #expect(screen.contains("Look: passed (1 step run, "))
        #expect(!screen.contains("what changed"))
    }

    @Test func aRunWhoseStandardErrorIsNoTerminalPrintsNoLink() throws {
        let server = try LocalInstanceServer(options: LocalInstance.Options(adminPassword: "pw-link", log: { _ in }))
        defer { server.stop() }
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.job.write(to: directory.appendingPathComponent("link.yaml"), atomically: true, encoding: .utf8)
        let run = try ToolInvocation.run(
            ["run", "link.yaml", "--instance", server.url], in: directory, environment: ["NOW_PASSWORD": "pw-link"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("what changed"))
    }

    static let readOnlyJob = """
        name: Look
        auth:
          basic: { user: admin, password: "${env.NOW_PASSWORD}" }
        steps:
          - query: { table: sys_user, where: { user_name: admin }, fields: [name] }
        """

    /// Runs `link.yaml` then `look.yaml` under GitHub Actions (simulated: `GITHUB_ACTIONS=true`,
    /// `$GITHUB_STEP_SUMMARY` a file of `directory`) on `instance`; the run, and the summary with times as `N ms`,
    /// sys_ids as `<sys_id>`, incident numbers as `INC<number>`, `address` as `ADDRESS` and the link's time as `SINCE`.
    private static func runUnderGitHubActions(
        on instance: String, address: String, in directory: URL
    ) throws -> (run: ToolInvocation, summary: String) {
        try Self.job.write(to: directory.appendingPathComponent("link.yaml"), atomically: true, encoding: .utf8)
        try Self.readOnlyJob.write(to: directory.appendingPathComponent("look.yaml"), atomically: true, encoding: .utf8)
        let summary = directory.appendingPathComponent("step-summary.md")
        let run = try ToolInvocation.run(
            ["run", "link.yaml", "look.yaml", "--instance", instance, "--quiet"], in: directory,
            environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path, "NOW_PASSWORD": "pw-link"])
        let markdown = try String(contentsOf: summary, encoding: .utf8)
            .replacingOccurrences(of: address, with: "ADDRESS")
            .replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression)
            .replacingOccurrences(of: #"[0-9a-f]{32}"#, with: "<sys_id>", options: .regularExpression)
            .replacingOccurrences(of: #"INC\d{7}"#, with: "INC<number>", options: .regularExpression)
            .replacingOccurrences(of: #"since=[0-9-]+%20[0-9:]+"#, with: "since=SINCE", options: .regularExpression)
        return (run, markdown)
    }

    /// The summary of a run that wrote, then of one that only read.
    private static func summary(link: String?) -> String {
        let made = """
            ### Link: passed

            `link.yaml`: 1 step run in N ms

            | Step | Status | Time | Result |
            | --- | --- | ---: | --- |
            | step 1 'made' (create) | ok | N ms | created incident <sys_id> |

            **Records touched:**

            - incident INC<number> (<sys_id>): created by step 1 'made' (create)


            """
        let looked = """
            ### Look: passed

            `look.yaml`: 1 step run in N ms

            | Step | Status | Time | Result |
            | --- | --- | ---: | --- |
            | step 1 (query) | ok | N ms | 1 record from sys\\_user |


            """
        return made + (link.map { "[What changed on the instance](\($0))\n\n" } ?? "") + looked
    }

    /// `nowflow serve --tls`, trusted through a profile's `ca_file`: the summary of the run that wrote links to the
    /// page of what changed over `https://`, and the link opens it; the read-only run's summary has none.
    @Test func aRunOverHTTPSLinksItsSummaryToWhatItChanged() async throws {
        let home = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try await ServeProcess(
            ["--db", ":memory:", "--password", "pw-link", "--tls"], environment: ["HOME": home.path])
        defer { server.send(SIGTERM) }
        let ca = home.appendingPathComponent(".nowflow/tls/ca.pem").path
        let address = "https://127.0.0.1:\(server.port)"
        try """
            profiles:
              served: { url: "\(address)", ca_file: "\(ca)" }
            """.write(to: home.appendingPathComponent(".nowflow/config.yaml"), atomically: true, encoding: .utf8)
        let (run, markdown) = try Self.runUnderGitHubActions(on: "served", address: address, in: home)
        #expect(run.status == 0, "\(run.stderr)")
        // Standard error is no terminal: no link there, only the jobs' names.
        #expect(run.stderr == "nowflow run: link.yaml (Link)\nnowflow run: look.yaml (Look)\n")
        #expect(markdown == Self.summary(link: "ADDRESS/changes.do?since=SINCE"))

        let link = try #require(
            try String(contentsOf: home.appendingPathComponent("step-summary.md"), encoding: .utf8)
                .components(separatedBy: "(\(address)/changes.do?since=").dropFirst().first?.prefix { $0 != ")" })
        let page = try ServeTLSTests.run(
            "/usr/bin/curl", ["-sS", "--cacert", ca, "-u", "admin:pw-link", "\(address)/changes.do?since=\(link)"])
        #expect(page.stdout.contains("<h2>Created (1)</h2>"), "\(page.stderr)")
    }

    /// A server of the instance's API alone, over plain `http://` on this machine, names no page of what changed, as
    /// a ServiceNow instance names none: no link, though the run wrote.
    @Test func anInstanceThatNamesNoPageGetsNoLink() throws {
        let instance = try LocalInstance(
            options: LocalInstance.Options(adminPassword: "pw-link", seedDemoData: false, log: { _ in }))
        defer { instance.close() }
        let listener = try HTTPListener { request in instance.reply(to: request) }
        defer { listener.stop() }
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let address = "http://127.0.0.1:\(listener.port)"
        let (run, markdown) = try Self.runUnderGitHubActions(on: address, address: address, in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(markdown == Self.summary(link: nil))
    }
}
