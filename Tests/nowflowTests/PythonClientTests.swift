import Foundation
import Testing
import TestSupport

/// pysnow's and PySNC's attachment calls, and PySNC's `update_multiple` and `delete_multiple` (the Batch API),
/// against the built `nowflow serve`, through the scripts in `scripts/python-clients/`, in the virtualenv that
/// `scripts/test` makes (pysnow and pysnc==1.2.1 from PyPI; `NOWFLOW_PYTHON_VENV`, by default
/// `~/.cache/nowflow/python-clients-venv`). Without that virtualenv the tests do not run.
@Suite struct PythonClientTests {
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/python-clients")

    /// The virtualenv's python, when it has both clients.
    static let python: URL? = {
        let environment = ProcessInfo.processInfo.environment
        let venv = environment["NOWFLOW_PYTHON_VENV"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/nowflow/python-clients-venv").path
        let python = URL(fileURLWithPath: venv).appendingPathComponent("bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path),
            (try? ChildProcess.run(python, ["-c", "import pysnow, pysnc"]))?.status == 0
        else { return nil }
        return python
    }()

    /// Runs the script `name` against a fresh `nowflow serve` with a file of notes and a directory.
    static func script(_ name: String) async throws -> (status: Int32, stdout: String, stderr: String) {
        let python = try #require(python)
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let notes = directory.appendingPathComponent("notes.txt")
        try Data("Printer on fire\n".utf8).write(to: notes)
        let server = try await ServeProcess(["--db", directory.appendingPathComponent("db.sqlite").path, "--password", "pw"])
        defer { server.send(SIGTERM) }
        return try ChildProcess.run(
            python,
            [Self.scripts.appendingPathComponent(name).path, "http://127.0.0.1:\(server.port)", "pw", notes.path,
             directory.path])
    }

    @Test(.enabled(if: python != nil, "no virtualenv with pysnow and pysnc (scripts/test makes it)"))
    func pysnowUploadsListsDownloadsAndDeletesAttachments() async throws {
        let result = try await Self.script("pysnow_attachments.py")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                uploaded notes from pysnow ü.txt 16 text/plain True
                listed ['notes from pysnow ü.txt']
                downloaded 200 True True
                deleted {'status': 'record deleted'}
                listed []

                """)
    }

    @Test(.enabled(if: python != nil, "no virtualenv with pysnow and pysnc (scripts/test makes it)"))
    func pysncAttachesReadsWritesDeletesAndBatchesUpdatesAndDeletes() async throws {
        let result = try await Self.script("pysnc_attachments_batch.py")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                attachment pysnc ü ../notes.txt 16 text/plain True
                location True
                written True
                left 0
                update_multiple True
                updated 3
                delete_multiple True
                left 0

                """)
    }
}
