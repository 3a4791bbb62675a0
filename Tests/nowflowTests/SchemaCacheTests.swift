import Foundation
import LocalInstance
import Testing

/// A remote instance's dictionary is kept under `~/.nowflow/schema/`, used for a day, and read afresh with
/// `--refresh-schema`.
@Suite struct SchemaCacheTests {
    @Test func theDictionaryIsCachedPerInstanceAndRefreshedOnRequest() throws {
        let instance = try LocalInstance(options: LocalInstance.Options(adminPassword: "pw-cache", log: { _ in }))
        defer { instance.close() }
        let listener = try HTTPListener { request in instance.reply(to: request) }
        defer { listener.stop() }
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try EnvironmentCredentialsTests.job.write(
            to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let environment = ["NOW_INSTANCE": "http://127.0.0.1:\(listener.port)", "NOW_USER": "admin", "NOW_PASSWORD": "pw-cache"]
        let first = try ToolInvocation.run(["validate", "job.yaml"], in: directory, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let cache = directory.appendingPathComponent(".nowflow/schema/127.0.0.1-\(listener.port).json")
        // The owner's alone, whatever the umask (the instance's names are its business).
        for (path, mode) in [(cache.path, 0o600), (cache.deletingLastPathComponent().path, 0o700)] {
            let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(permissions == mode, "\(path)")
        }
        // Remove 'priority' from the cached dictionary: a run that uses the cache no longer knows it.
        var cached = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: cache)) as? [String: Any])
        var fields = try #require(cached["fields"] as? [String: [String: String]])
        for table in fields.keys { fields[table]?["priority"] = nil }
        cached["fields"] = fields
        try JSONSerialization.data(withJSONObject: cached).write(to: cache)
        let stale = try ToolInvocation.run(["run", "job.yaml"], in: directory, environment: environment)
        #expect(stale.status == 2)
        #expect(stale.stderr.hasPrefix("job.yaml:3:40: error: unknown field 'priority' in incident"), "\(stale.stderr)")
        let refreshed = try ToolInvocation.run(
            ["run", "job.yaml", "--refresh-schema"], in: directory, environment: environment)
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        let again = try ToolInvocation.run(["run", "job.yaml"], in: directory, environment: environment)
        #expect(again.status == 0, "\(again.stderr)")
    }
}
