import Foundation
import Synchronization
import Testing
import TestSupport

@preconcurrency import Glibc

/// SIGINT, SIGTERM and SIGHUP sent to the built `nowflow run` mid-run, while the instance holds a request, and its
/// stdout closed under it (`| head -1`): the request in flight is cancelled, the remaining steps are skipped,
/// `finally` cleans up, the reports are written.
///
/// Serialized: each test sends a signal while the instance holds a request and waits for the built tool to wind
/// down; one such tool at a time keeps the suite from starving its own children on a loaded machine.
@Suite(.serialized) struct InterruptionTests {
    static let job = """
        name: Interrupted
        auth:
          basic: { user: admin, password: pw }
        steps:
          - id: incident
            create: { table: incident, fields: { short_description: "interrupted-run ${vars.tag}" } }
          - id: wait
            query: { table: incident, where: { active: true }, limit: 1 }
          - assert: "steps.wait.count == 1"
        finally:
          - id: cleanup
            delete: { table: incident, sys_id: "${steps.incident.sys_id}" }
          - query: { table: incident, where: { active: true }, limit: 1 }
        vars:
          tag: x
        """

    /// Runs the job against the instance (in this process, see ``HeldInstance``), holding for a minute the first
    /// request after the create that starts with each of `holds` (`METHOD path`), in turn, and answering the others
    /// at once; sends each signal once its marker is on stderr and the request it interrupts is held; returns the
    /// outcome with times and sys_ids replaced, and the records of the job left on the instance.
    func interrupt(
        tag: String, holds: [String], signals: [(after: String, signal: Int32)]
    ) async throws -> (result: ToolInvocation, sysID: String, left: Int, report: String, junit: String) {
        let next = Mutex((created: false, hold: 0))
        let server = try HeldInstance { _, request in
            next.withLock { next in
                let line = "\(request.method) \(request.path)"
                if request.method == "POST" { next.created = true }
                guard next.created, next.hold < holds.count, line.hasPrefix(holds[next.hold]) else { return .zero }
                next.hold += 1
                return .seconds(60)
            }
        }
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let running = try RunningTool(
            [
                "run", "job.yaml", "--instance", "http://127.0.0.1:\(server.port)", "--var", "tag=\(tag)",
                "--report", "json:report.json", "--report", "junit:report.xml",
            ], in: directory)
        for (held, (marker, signal)) in signals.enumerated() {
            #expect(running.waitForError(containing: marker), "no '\(marker)'")
            #expect(server.waitForHeld(held + 1), "requests: \(server.requests)")
            running.send(signal)
        }
        return try await Self.outcome(of: running.finish(), on: server, tag: tag, in: directory)
    }

    /// Runs the job against the instance, which closes the reading end of the tool's stdout when the query of step
    /// 2 arrives (before answering it), as `| head -1` does once it has its line; returns the outcome as
    /// ``interrupt(tag:holds:signals:)`` does.
    func closeOutput(tag: String) async throws -> (result: ToolInvocation, sysID: String, left: Int, report: String, junit: String) {
        let tool = Mutex<RunningTool?>(nil)
        let server = try HeldInstance { _, request in
            guard request.method == "GET", request.path.hasPrefix("/api/now/table/incident") else { return .zero }
            tool.withLock { $0?.closeOutput() }
            return .milliseconds(100)
        }
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let running = try RunningTool(
            [
                "run", "job.yaml", "--instance", "http://127.0.0.1:\(server.port)", "--var", "tag=\(tag)",
                "--report", "json:report.json", "--report", "junit:report.xml",
            ], in: directory)
        tool.withLock { $0 = running }
        // stdout is read to its end only when the test has not closed it.
        #expect(running.waitForError(containing: "ok   step 2 'wait'"))
        return try await Self.outcome(of: running.finish(), on: server, tag: tag, in: directory)
    }

    /// The outcome of a run that ended: `finished` with times and the created sys_id replaced, that sys_id, how
    /// many records of the run are left on the instance, and the JSON report.
    static func outcome(of finished: ToolInvocation, on server: HeldInstance, tag: String, in directory: URL)
        async throws -> (result: ToolInvocation, sysID: String, left: Int, report: String, junit: String)
    {
        var result = finished
        let sysID =
            (result.stderr + result.stdout).components(separatedBy: "incident INC0010061 (").dropFirst().first
            .map { String($0.prefix(32)) } ?? "none"
        for text in [\ToolInvocation.stdout, \ToolInvocation.stderr] {
            result[keyPath: text] = result[keyPath: text].replacingOccurrences(of: sysID, with: "SYSID")
                .replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression)
        }
        let reply = try await HTTPTestClient(port: server.port).send(
            "GET", "/api/now/table/incident?sysparm_query=short_description=interrupted-run%20\(tag)",
            headers: ["Authorization": "Basic " + Data("admin:pw".utf8).base64EncodedString()])
        let records = (try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])?["result"] as? [Any]
        let report = (try? String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)) ?? ""
        ReportCheck.expectValid(report)
        let junit = (try? String(contentsOf: directory.appendingPathComponent("report.xml"), encoding: .utf8)) ?? ""
        return (result, sysID, records?.count ?? -1, report, ReportCheck.normalized(junit).replacingOccurrences(of: sysID, with: "SYSID")
                .replacingOccurrences(of: "127.0.0.1:\(server.port)", with: "127.0.0.1:PORT"))
    }

    /// SIGINT, and SIGHUP (a closed terminal) handled as SIGTERM is: the query in flight is cancelled, `finally`
    /// deletes the record the job created, and the run exits 128 + the signal.
    @Test(arguments: [
        (SIGINT, "SIGINT", "int", "interrupted"), (SIGHUP, "SIGHUP", "hup", "hung_up"),
    ])
    func aSignalCancelsTheQueryInFlightRunsFinallyAndExits128PlusIt(
        signal: Int32, name: String, tag: String, status: String
    ) async throws {
        let (result, sysID, left, report, _) = try await interrupt(
            tag: tag, holds: ["GET /api/now/table/incident"], signals: [("ok   step 1 'incident' (create)", signal)])
        #expect(result.status == 128 + signal)
        #expect(left == 0)
        #expect(
            result.stderr == """
                ok   step 1 'incident' (create): created incident SYSID (N ms)
                nowflow run: \(name): cancelling the request in flight and skipping the remaining steps; finally runs (a second signal stops it)
                FAIL step 2 'wait' (query): interrupted by \(name): network error: the operation was cancelled (N ms)
                skip step 3 (assert): not run: interrupted by \(name) (N ms)
                ok   finally 1 'cleanup' (delete): deleted incident SYSID (N ms)
                ok   finally 2 (query): 1 record from incident (N ms)

                """)
        #expect(
            result.stdout == """
                     number             INC0010061
                     short_description  interrupted-run \(tag)
                     number      short_description     state  sys_id
                     ----------  --------------------  -----  --------------------------------
                     INC0010001  Email server is down  1      77c017c10d784d2d1c396fa61dce21ac
                Interrupted: interrupted by \(name) (4 steps run, N ms)
                  job.yaml:7:5: step 2 'wait' (query): interrupted by \(name): network error: the operation was cancelled
                  not run: step 3 (assert)
                records the run changed and deleted again:
                  incident INC0010061 (SYSID): created by step 1 'incident' (create), deleted by finally 1 'cleanup' (delete)

                """)
        #expect(report.hasSuffix("\n  \"status\": \"\(status)\"\n}\n"))
        #expect(sysID.count == 32)
    }

    @Test func aSecondSigtermStopsFinallyAndSaysWhatCleanUpDidNotRun() async throws {
        let (result, _, _, report, junit) = try await interrupt(
            tag: "term", holds: ["GET /api/now/table/incident", "DELETE /api/now/table/incident/"],
            signals: [("ok   step 1 'incident' (create)", SIGTERM), ("FAIL step 2 'wait' (query)", SIGTERM)])
        #expect(result.status == 143)
        #expect(
            result.stderr == """
                ok   step 1 'incident' (create): created incident SYSID (N ms)
                nowflow run: SIGTERM: cancelling the request in flight and skipping the remaining steps; finally runs (a second signal stops it)
                FAIL step 2 'wait' (query): interrupted by SIGTERM: network error: the operation was cancelled (N ms)
                skip step 3 (assert): not run: interrupted by SIGTERM (N ms)
                nowflow run: SIGTERM again: stopping finally
                FAIL finally 1 'cleanup' (delete): stopped by a second SIGTERM: network error: the operation was cancelled (N ms)
                skip finally 2 (query): not run: stopped by a second SIGTERM (N ms)

                """)
        #expect(
            result.stdout == """
                     number             INC0010061
                     short_description  interrupted-run term
                Interrupted: interrupted by SIGTERM (3 steps run, N ms)
                  job.yaml:7:5: step 2 'wait' (query): interrupted by SIGTERM: network error: the operation was cancelled
                  not run: step 3 (assert)
                  finally stopped by a second SIGTERM; interrupted: finally 1 'cleanup' (delete); not run: finally 2 (query)
                records left changed (finish or undo them by hand):
                  incident INC0010061 (SYSID): created by step 1 'incident' (create)

                """)
        #expect(report.hasSuffix("\n  \"status\": \"terminated\"\n}\n"))
        #expect(
            junit == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="nowflow" tests="5" failures="0" errors="2" skipped="2" time="0.000">
                  <testsuite name="Interrupted" tests="5" failures="0" errors="2" skipped="2" time="0.000" file="job.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                      <property name="instance" value="http://127.0.0.1:PORT"/>
                      <property name="vars.tag" value="term"/>
                    </properties>
                    <testcase classname="Interrupted" name="incident" file="job.yaml" line="5" time="0.000"/>
                    <testcase classname="Interrupted" name="wait" file="job.yaml" line="7" time="0.000">
                      <error type="error" message="interrupted by SIGTERM: network error: the operation was cancelled">step 2 &apos;wait&apos; (query): interrupted by SIGTERM: network error: the operation was cancelled</error>
                    </testcase>
                    <testcase classname="Interrupted" name="assert at line 9" file="job.yaml" line="9" time="0.000">
                      <skipped message="not run: interrupted by SIGTERM"/>
                    </testcase>
                    <testcase classname="Interrupted" name="cleanup" file="job.yaml" line="11" time="0.000">
                      <error type="error" message="stopped by a second SIGTERM: network error: the operation was cancelled">finally 1 &apos;cleanup&apos; (delete): stopped by a second SIGTERM: network error: the operation was cancelled</error>
                    </testcase>
                    <testcase classname="Interrupted" name="query at line 13" file="job.yaml" line="13" time="0.000">
                      <skipped message="not run: stopped by a second SIGTERM"/>
                    </testcase>
                    <system-out>incident INC0010061 (SYSID): created by step 1 &apos;incident&apos; (create)</system-out>
                  </testsuite>
                </testsuites>

                """)
    }

    /// `nowflow run job.yaml | head -1`: the reader of stdout goes away mid-run. The write that finds it gone stops
    /// the run as a signal would; `finally` deletes the record the job created, and what stdout would have shown
    /// (`finally`'s records, the outcome, the records touched) goes to stderr.
    @Test func aClosedStdoutStopsTheRunFinallyCleansUpAndTheRestGoesToStderr() async throws {
        let (result, _, left, report, junit) = try await closeOutput(tag: "pipe")
        #expect(result.status == 141)
        #expect(left == 0)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                ok   step 1 'incident' (create): created incident SYSID (N ms)
                ok   step 2 'wait' (query): 1 record from incident (N ms)
                nowflow run: stdout closed (SIGPIPE): cancelling the request in flight and skipping the remaining steps; finally runs (a second signal stops it)
                skip step 3 (assert): not run: interrupted by SIGPIPE (N ms)
                ok   finally 1 'cleanup' (delete): deleted incident SYSID (N ms)
                ok   finally 2 (query): 1 record from incident (N ms)
                     number      short_description     state  sys_id
                     ----------  --------------------  -----  --------------------------------
                     INC0010001  Email server is down  1      77c017c10d784d2d1c396fa61dce21ac
                Interrupted: interrupted by SIGPIPE (4 steps run, N ms)
                  interrupted by SIGPIPE
                  not run: step 3 (assert)
                records the run changed and deleted again:
                  incident INC0010061 (SYSID): created by step 1 'incident' (create), deleted by finally 1 'cleanup' (delete)

                """)
        #expect(report.hasSuffix("\n  \"status\": \"output_closed\"\n}\n"))
        // No step failed: the interruption is a test case of its own, so that the CI shows the run did not pass.
        #expect(
            junit == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="nowflow" tests="6" failures="0" errors="1" skipped="1" time="0.000">
                  <testsuite name="Interrupted" tests="6" failures="0" errors="1" skipped="1" time="0.000" file="job.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                      <property name="instance" value="http://127.0.0.1:PORT"/>
                      <property name="vars.tag" value="pipe"/>
                    </properties>
                    <testcase classname="Interrupted" name="(job)" file="job.yaml" line="0" time="0.000">
                      <error type="output_closed" message="interrupted by SIGPIPE">interrupted by SIGPIPE</error>
                    </testcase>
                    <testcase classname="Interrupted" name="incident" file="job.yaml" line="5" time="0.000"/>
                    <testcase classname="Interrupted" name="wait" file="job.yaml" line="7" time="0.000"/>
                    <testcase classname="Interrupted" name="assert at line 9" file="job.yaml" line="9" time="0.000">
                      <skipped message="not run: interrupted by SIGPIPE"/>
                    </testcase>
                    <testcase classname="Interrupted" name="cleanup" file="job.yaml" line="11" time="0.000"/>
                    <testcase classname="Interrupted" name="query at line 13" file="job.yaml" line="13" time="0.000"/>
                    <system-out>incident INC0010061 (SYSID): created by step 1 &apos;incident&apos; (create), deleted by finally 1 &apos;cleanup&apos; (delete)</system-out>
                  </testsuite>
                </testsuites>

                """)
    }

    /// `nowflow run job.yaml 2>&1 >out.txt | head -1` once `head` is gone: stderr is closed from the start. The
    /// first progress line finds it closed and stops the run as a signal would; `finally` deletes the record, and
    /// stdout has the outcome.
    @Test func aClosedStderrStopsTheRunAndFinallyCleansUp() async throws {
        let server = try HeldInstance { _, _ in .zero }
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = try BuiltProducts.executable(named: "nowflow")
        process.arguments = [
            "run", "job.yaml", "--instance", "http://127.0.0.1:\(server.port)", "--var", "tag=closed",
            "--report", "json:report.json", "--report", "junit:report.xml",
        ]
        process.currentDirectoryURL = directory
        process.environment = ["HOME": directory.path, "PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
        let output = Pipe()
        let errors = Pipe()
        try errors.fileHandleForReading.close()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let finished = ToolInvocation(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: "")
        let (result, _, left, report, _) = try await Self.outcome(of: finished, on: server, tag: "closed", in: directory)
        #expect(result.status == 141)
        #expect(left == 0)
        #expect(
            result.stdout == """
                     number             INC0010061
                     short_description  interrupted-run closed
                     number      short_description     state  sys_id
                     ----------  --------------------  -----  --------------------------------
                     INC0010001  Email server is down  1      77c017c10d784d2d1c396fa61dce21ac
                Interrupted: interrupted by SIGPIPE (3 steps run, N ms)
                  interrupted by SIGPIPE
                  not run: step 2 'wait' (query), step 3 (assert)
                records the run changed and deleted again:
                  incident INC0010061 (SYSID): created by step 1 'incident' (create), deleted by finally 1 'cleanup' (delete)

                """)
        #expect(report.hasSuffix("\n  \"status\": \"output_closed\"\n}\n"))
    }
}
