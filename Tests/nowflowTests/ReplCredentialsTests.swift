import Foundation
import Testing

/// `nowflow repl --instance URL` (or `NOW_INSTANCE`) on a served instance: the credentials come from the
/// environment through the resolver `nowflow run` uses, and a 401 says what to set, in the same words.
@Suite struct ReplCredentialsTests {
    @Test func aBareURLTakesItsCredentialsFromTheEnvironment() async throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await ServeProcess(["--db", ":memory:", "--password", "s3cret-pw"])
        let url = "http://127.0.0.1:\(server.port)"
        let line = "query incident number=INC0010001 fields=number\n"

        let refused = try ToolInvocation.run(["repl", "--instance", url], in: directory, stdin: line)
        #expect(refused.status == 3)
        #expect(refused.stdout == """
            nowflow repl on \(url): type a step (query incident active=true limit=5) or :help
            nowflow> query incident number=INC0010001 fields=number
            error: (query): bad response 401 from GET /api/now/table/incident: User Not Authenticated (Required to provide Auth information)
            the instance asks for credentials and none were given: set NOW_USER and NOW_PASSWORD (or NOW_TOKEN, or SN_USERNAME and SN_PASSWORD), give the job an auth:, or use a profile of ~/.nowflow/config.yaml with an auth:

            """)

        let answered = """
            nowflow> query incident number=INC0010001 fields=number
            _1 (query): 1 record from incident
            number
            ----------
            INC0010001
            1 record

            """
        let withNow = try ToolInvocation.run(
            ["repl", "--instance", url], in: directory,
            environment: ["NOW_USER": "admin", "NOW_PASSWORD": "s3cret-pw"], stdin: line)
        #expect(withNow.status == 0)
        #expect(withNow.stdout == "nowflow repl on \(url): type a step (query incident active=true limit=5) or :help\n" + answered)

        let withSN = try ToolInvocation.run(
            ["repl"], in: directory,
            environment: ["NOW_INSTANCE": url, "SN_USERNAME": "admin", "SN_PASSWORD": "s3cret-pw"],
            stdin: line + ":vars\n")
        #expect(withSN.status == 0)
        #expect(withSN.stdout.hasPrefix("nowflow repl on \(url): type a step (query incident active=true limit=5) or :help\n" + answered))
        #expect(!withSN.stdout.contains("s3cret-pw"))

        let wrong = try ToolInvocation.run(
            ["repl", "--instance", url], in: directory,
            environment: ["NOW_USER": "admin", "NOW_PASSWORD": "wrong-pw"], stdin: line)
        #expect(wrong.status == 3)
        #expect(!wrong.stdout.contains("wrong-pw"))
        #expect(wrong.stdout.hasSuffix("""
            the instance refused the credentials given: check NOW_USER and NOW_PASSWORD (or NOW_TOKEN, or SN_USERNAME and SN_PASSWORD), the job's auth: or the profile's auth:

            """))
    }
}
