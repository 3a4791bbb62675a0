import Foundation
import Testing
import TestSupport

/// Our JSONv2 client (`scripts/jsonv2/jsonv2_client.py`, Python's standard library only), which does what the
/// Terraform provider for ServiceNow's client does, against the built `nowflow serve`: a record created, read,
/// updated, read, deleted and read, then deleted again (the second delete is the record's failure), and a wrong
/// password refused with the API's 401.
@Suite struct JSONv2ClientTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/jsonv2/jsonv2_client.py")

    @Test(.enabled(if: ServeTLSTests.python != nil, "no python3 on PATH"))
    func theClientCreatesReadsUpdatesAndDeletesARecord() async throws {
        let python = URL(fileURLWithPath: try #require(ServeTLSTests.python))
        let server = try await ServeProcess(["--db", ":memory:", "--password", "pw"])
        defer { server.send(SIGTERM) }
        let url = "http://127.0.0.1:\(server.port)"
        let run = try ChildProcess.run(python, [Self.script.path, url, "admin", "pw"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout == """
                created success Created over JSONv2 2 32
                read Created over JSONv2 True
                updated success Updated over JSONv2
                read Updated over JSONv2
                deleted success True
                read None
                error: error during deleteRecord -> No Record found: Record doesn't exist or ACL restricts the record \
                retrieval

                """)
        let refused = try ChildProcess.run(python, [Self.script.path, url, "admin", "wrong"])
        #expect(
            refused.stdout == """
                error: Response status 401: {"error":{"message":"User Not Authenticated","detail":"Required to \
                provide Auth information"},"status":"failure"}

                """)
    }
}
