import Foundation
import Testing

@testable import LocalInstance

/// The embedded instance of the built `nowflow run`: reached in process as its administrator without a password,
/// so that opening it derives no password hash; a job's own `auth:` still logs in.
@Suite struct EmbeddedInstanceTests {
    static let job = """
        name: Embedded
        steps:
          - id: first
            query: { table: incident, where: { number: INC0010001 }, fields: [number], limit: 1 }
          - assert: "steps.first.count == 1"
        """

    /// The stored password hash of the administrator of the embedded instance under `directory`.
    static func adminHash(in directory: URL) throws -> String {
        let instance = try LocalInstance(
            options: LocalInstance.Options(
                databasePath: directory.appendingPathComponent(".nowflow/local.db").path, log: { _ in },
                keepsExistingAdmin: true))
        defer { instance.close() }
        let users = try #require(instance.dictionary.table("sys_user"))
        let hash = try instance.database.read { db in
            try instance.store.fetch(users, sysID: DemoData.sysID("sys_user", "admin"), db)?["user_password"]
        }
        return try #require(hash)
    }

    /// `text` with its durations as `N ms`.
    static func timeless(_ text: String) -> String {
        text.replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression)
    }

    @Test func aRunOnAnExistingAdministratorDerivesNoPassword() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let first = try ToolInvocation.run(["run", "job.yaml", "--quiet"], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        let created = try Self.adminHash(in: directory)
        // The administrator this first open created has the documented default password, hashed once.
        #expect(PasswordHash.verify("admin", against: created))
        // At the default work factor and with another NOWFLOW_ADMIN_PASSWORD, a rehash would change the stored one.
        let environment = [
            "NOWFLOW_PASSWORD_ITERATIONS": "\(LocalInstance.defaultPasswordIterations)",
            "NOWFLOW_ADMIN_PASSWORD": "another-pw",
        ]
        for (arguments, output) in [
            (["run", "job.yaml", "--quiet"], ["Embedded: passed (2 steps run, N ms)\n", ""]),
            (["validate", "job.yaml"], ["job.yaml: ok (Embedded, 2 steps)\n", ""]),
        ] {
            let again = try ToolInvocation.run(arguments, in: directory, environment: environment)
            #expect(again.status == 0, "\(arguments)")
            #expect([again.stdout, again.stderr].map(Self.timeless) == output, "\(arguments)")
            #expect(try Self.adminHash(in: directory) == created, "\(arguments)")
        }
    }

    @Test func aJobsOwnAuthenticationStillLogsIn() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = """
            name: Embedded
            auth:
              basic: { user: admin, password: "${env.PW}" }
            steps:
              - id: first
                query: { table: incident, where: { number: INC0010001 }, fields: [number], limit: 1 }
            """
        try job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let logged = try ToolInvocation.run(
            ["run", "job.yaml", "--quiet"], in: directory, environment: ["PW": "admin"])
        #expect(logged.status == 0, "\(logged.stderr)")
        let wrong = try ToolInvocation.run(
            ["run", "job.yaml", "--offline"], in: directory, environment: ["PW": "not-it"])
        #expect(wrong.status == 3)
        #expect(
            Self.timeless(wrong.stderr) == """
                FAIL step 1 'first' (query): bad response 401 from GET /api/now/table/incident: User Not Authenticated (Required to provide Auth information) (N ms)
                nowflow run: the instance refused the credentials given: check NOW_USER and NOW_PASSWORD (or NOW_TOKEN, or SN_USERNAME and SN_PASSWORD), the job's auth: or the profile's auth:

                """)
        #expect(!wrong.stdout.contains("not-it") && !wrong.stderr.contains("not-it"))
    }
}
