import Foundation
import LocalInstance
import Testing

/// The instance and credentials from the environment (`NOW_*`, and Ansible's `SN_*`), and the hint after a 401
/// without credentials.
@Suite struct EnvironmentCredentialsTests {
    static let job = """
        name: Env
        steps:
          - query: { table: incident, where: { priority: 1 }, fields: [number], limit: 1 }
        """

    @Test func theEnvironmentGivesTheInstanceAndTheCredentials() throws {
        let instance = try LocalInstance(options: LocalInstance.Options(adminPassword: "pw-env", log: { _ in }))
        defer { instance.close() }
        let listener = try HTTPListener { request in instance.reply(to: request) }
        defer { listener.stop() }
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let url = "http://127.0.0.1:\(listener.port)"
        for environment in [
            ["NOW_INSTANCE": url, "NOW_USER": "admin", "NOW_PASSWORD": "pw-env"],
            ["SN_HOST": url, "SN_USERNAME": "admin", "SN_PASSWORD": "pw-env"],
        ] {
            let result = try ToolInvocation.run(["run", "job.yaml"], in: directory, environment: environment)
            #expect(result.status == 0, "\(environment.keys.sorted()): \(result.stderr)")
            // The embedded instance was not opened.
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(".nowflow/local.db").path))
        }
        let bare = try ToolInvocation.run(["run", "job.yaml", "--instance", url, "--offline"], in: directory)
        #expect(bare.status == 3)
        #expect(
            bare.stderr.replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression) == """
                FAIL step 1 (query): bad response 401 from GET /api/now/table/incident: User Not Authenticated (Required to provide Auth information) (N ms)
                nowflow run: the instance asks for credentials and none were given: set NOW_USER and NOW_PASSWORD (or NOW_TOKEN, or SN_USERNAME and SN_PASSWORD), give the job an auth:, or use a profile of ~/.nowflow/config.yaml with an auth:

                """)
        // Credentials refused: the hint says to check them (the same words as the REPL's).
        let wrong = try ToolInvocation.run(
            ["run", "job.yaml", "--instance", url, "--offline"], in: directory,
            environment: ["NOW_USER": "admin", "NOW_PASSWORD": "not-it"])
        #expect(wrong.status == 3)
        #expect(
            wrong.stderr.replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression) == """
                FAIL step 1 (query): bad response 401 from GET /api/now/table/incident: User Not Authenticated (Required to provide Auth information) (N ms)
                nowflow run: the instance refused the credentials given: check NOW_USER and NOW_PASSWORD (or NOW_TOKEN, or SN_USERNAME and SN_PASSWORD), the job's auth: or the profile's auth:

                """)
        #expect(!wrong.stdout.contains("not-it") && !wrong.stderr.contains("not-it"))
    }
}

