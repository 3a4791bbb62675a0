import Foundation
import LocalInstance
import TestSupport
import Testing

/// `nowflow run` against a served instance ends with a link to the web view of what it changed, when standard
/// error is a terminal and the run changed something (and only then).
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
}
