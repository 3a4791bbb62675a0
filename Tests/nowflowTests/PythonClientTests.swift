import Foundation
import Testing
import TestSupport

/// pysnow's and PySNC's attachment calls, PySNC's `update_multiple` and `delete_multiple` (the Batch API) and its
/// JWT bearer authentication (`ServiceNowJWTAuth`), against the built `nowflow serve`, through the scripts in `scripts/python-clients/`, in the virtualenv that
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

    /// PySNC's `ServiceNowJWTAuth`, unmodified, with an assertion the `openssl` command signed for the demo user
    /// `itil`, against an `oauth_jwt` application, its verifier map and certificate registered through the Table API.
    @Test(.enabled(if: python != nil, "no virtualenv with pysnow and pysnc (scripts/test makes it)"))
    func pysncAuthenticatesWithAJWTBearerAssertion() async throws {
        let python = try #require(Self.python)
        let signer = try JWTSigner(name: "pysnc")
        defer { signer.removeFiles() }
        let server = try await ServeProcess(["--db", ":memory:", "--password", "pw"])
        defer { server.send(SIGTERM) }
        let client = HTTPTestClient(port: server.port)
        let admin = [
            "Authorization": "Basic " + Data("admin:pw".utf8).base64EncodedString(), "Content-Type": "application/json",
        ]
        func insert(_ table: String, _ fields: [String: String]) async throws -> String {
            let reply = try await client.send(
                "POST", "/api/now/table/\(table)", headers: admin,
                body: try JSONSerialization.data(withJSONObject: fields))
            #expect(reply.status == 201, "\(reply.text)")
            let object = try JSONSerialization.jsonObject(with: reply.body) as? [String: Any]
            return try #require((object?["result"] as? [String: Any])?["sys_id"] as? String)
        }
        let certificate = try await insert(
            "sys_certificate", ["name": "pysnc", "pem_certificate": signer.certificatePEM])
        let application = try await insert(
            "oauth_jwt", ["name": "PySNC", "client_id": "pysnc-jwt", "client_secret": "Pysnc-S3cret"])
        _ = try await insert(
            "jwt_verifier_map",
            ["name": "pysnc", "oauth_jwt": application, "kid": "pysnc", "sys_certificate": certificate])
        let now = Int(Date().timeIntervalSince1970)
        let assertion = try signer.sign(
            header: #"{"alg":"RS256","kid":"pysnc","typ":"JWT"}"#,
            claims: #"{"aud":"pysnc-jwt","exp":\#(now + 300),"iat":\#(now),"iss":"pysnc-jwt","jti":"\#(UUID())","#
                + #""sub":"itil"}"#)
        let result = try ChildProcess.run(
            python,
            [Self.scripts.appendingPathComponent("pysnc_jwt.py").path, "http://127.0.0.1:\(server.port)", "pysnc-jwt",
             "Pysnc-S3cret", assertion])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                created True itil pysnc jwt
                wrong secret Failed to auth, see syslogs {"error_description":"access_denied","error":"server_error"}

                """)
    }
}
