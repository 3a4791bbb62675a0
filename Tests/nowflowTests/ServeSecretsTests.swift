import Foundation
@preconcurrency import Glibc
import LocalInstance
import TestSupport
import Testing

@testable import nowflow

/// `nowflow serve`'s secrets out of sight of `ps` (environment and files), its login lockout options, and the
/// modes of the files it creates.
@Suite struct ServeSecretsTests {
    private static func basic(_ user: String, _ password: String) -> [String: String] {
        ["Authorization": "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()]
    }

    private static func write(_ text: String, to name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func readsThePasswordAndOAuthClientsFromFilesAndTheEnvironment() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let passwordFile = try Self.write("from-a-file\nignored second line\n", to: "password", in: directory)
        let clientFile = try Self.write(
            "# OAuth applications\nansible:file-s3cret\n\n  terraform:t3rra  \n", to: "clients", in: directory)
        let settings = try ServeCommand.parse(
            ["--password-file", passwordFile, "--oauth-client-file", clientFile, "--oauth-client", "cli:c1i"],
            environment: [
                "NOWFLOW_ADMIN_PASSWORD": "not-this-one", "NOWFLOW_OAUTH_CLIENTS": "pysnc:env-s3cret, ansible:replaced",
            ])
        #expect(settings.options.adminPassword == "from-a-file")
        #expect(!settings.usesDefaultPassword)
        #expect(
            settings.options.oauthClients
                == ["pysnc": "env-s3cret", "ansible": "file-s3cret", "terraform": "t3rra", "cli": "c1i"])
        let lockout = try ServeCommand.parse(
            ["--login-failure-limit", "3", "--lockout-time", "60"],
            environment: ["NOWFLOW_PASSWORD_ITERATIONS": "20000"])
        #expect(lockout.options.loginFailureLimit == 3)
        #expect(lockout.options.lockoutDuration == .seconds(60))
        #expect(lockout.options.passwordIterations == 20_000)
        let defaults = try ServeCommand.parse([], environment: [:])
        #expect(defaults.options.loginFailureLimit == 10)
        #expect(defaults.options.lockoutDuration == .seconds(300))
        #expect(defaults.options.passwordIterations == 600_000)
        #expect(defaults.options.adminAPIKey == nil)
        let keyFile = try Self.write("k3y-from-file\nignored\n", to: "key", in: directory)
        let fromFile = try ServeCommand.parse(
            ["--api-key-file", keyFile], environment: ["NOWFLOW_API_KEY": "not-this-one"])
        #expect(fromFile.options.adminAPIKey == "k3y-from-file")
        let fromEnvironment = try ServeCommand.parse([], environment: ["NOWFLOW_API_KEY": "k3y-from-env"])
        #expect(fromEnvironment.options.adminAPIKey == "k3y-from-env")
    }

    @Test func refusesBadSecretSourcesWithoutShowingTheSecret() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = try Self.write("\nsecond", to: "empty", in: directory)
        let clients = try Self.write("ansible:ok\nno-colon-s3cret\n", to: "clients", in: directory)
        let missing = directory.appendingPathComponent("missing").path
        let cases: [([String], [String: String], String)] = [
            (["--password", "pw", "--password-file", empty], [:], "give --password or --password-file, not both"),
            (["--password-file", missing], [:], "--password-file \(missing) cannot be read"),
            (["--password-file", empty], [:], "--password-file \(empty) is empty: the admin password must not be empty"),
            (
                ["--oauth-client-file", clients], [:],
                "--oauth-client-file \(clients):2 expects ID:SECRET: a client id, a colon and the client's secret"
            ),
            (
                [], ["NOWFLOW_OAUTH_CLIENTS": "a:b,:s3cret"],
                "NOWFLOW_OAUTH_CLIENTS entry 2 expects ID:SECRET: a client id, a colon and the client's secret"
            ),
            (
                [], ["NOWFLOW_PASSWORD_ITERATIONS": "0"],
                "NOWFLOW_PASSWORD_ITERATIONS expects a number of rounds 1-100000000, got '0'"
            ),
            (
                ["--login-failure-limit", "-1"], [:],
                "--login-failure-limit expects a number of failed logins 0-1000 (0 never locks), got '-1'"
            ),
            (["--lockout-time", "0"], [:], "--lockout-time expects seconds (a whole number 1-86400), got '0'"),
            (["--api-key-file", missing], [:], "--api-key-file \(missing) cannot be read"),
            (["--api-key-file", empty], [:], "--api-key-file \(empty) is empty: an API key must not be empty"),
            ([], ["NOWFLOW_API_KEY": ""], "NOWFLOW_API_KEY is empty: an API key must not be empty"),
        ]
        for (arguments, environment, message) in cases {
            #expect(throws: UsageError.self) { try ServeCommand.parse(arguments, environment: environment) }
            do {
                _ = try ServeCommand.parse(arguments, environment: environment)
            } catch {
                #expect(error.description == message)
            }
        }
    }

    @Test func theBuiltServerTakesItsSecretsFromAFileAndTheEnvironment() async throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let passwordFile = try Self.write("f1le-pw\n", to: "password", in: directory)
        let clientFile = try Self.write("ansible:file-s3cret\n", to: "clients", in: directory)
        let server = try await ServeProcess(
            ["--db", ":memory:", "--password-file", passwordFile, "--oauth-client-file", clientFile],
            environment: ["NOWFLOW_OAUTH_CLIENTS": "pysnc:env-s3cret"])
        let client = HTTPTestClient(port: server.port)
        let read = try await client.send(
            "GET", "/api/now/table/sys_user?sysparm_query=user_name=admin&sysparm_fields=user_name",
            headers: Self.basic("admin", "f1le-pw"))
        #expect(read.status == 200)
        #expect(read.text == #"{"result":[{"user_name":"admin"}]}"#)
        for (id, secret) in [("ansible", "file-s3cret"), ("pysnc", "env-s3cret")] {
            let granted = try await client.send(
                "POST", "/oauth_token.do", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("grant_type=client_credentials&client_id=\(id)&client_secret=\(secret)".utf8))
            #expect(granted.status == 200, "\(id)")
        }
        server.send(SIGTERM)
        let exit = await server.waitForExit()
        #expect(exit.status == 0)
        for secret in ["f1le-pw", "file-s3cret", "env-s3cret"] { #expect(!exit.standardError.contains(secret)) }
    }

    @Test func theBuiltServerGivesTheAdminTheAPIKeyOfAFileOrTheEnvironment() async throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("keyed.db").path
        let keyFile = try Self.write("f1le-k3y\n", to: "key", in: directory)
        let path = "/api/now/table/sys_api_key?sysparm_fields=name,user.user_name,active,expires,token"
        // Twice on one database: the second start replaces the first one's key.
        for (arguments, environment, key, stale) in [
            (["--api-key-file", keyFile], [String: String](), "f1le-k3y", "wr0ng-k3y"),
            ([], ["NOWFLOW_API_KEY": "env-k3y"], "env-k3y", "f1le-k3y"),
        ] {
            let server = try await ServeProcess(
                ["--db", database, "--password", "pw"] + arguments, environment: environment)
            let client = HTTPTestClient(port: server.port)
            let read = try await client.send("GET", path, headers: ["x-sn-apikey": key])
            #expect(
                read.text
                    == #"{"result":[{"name":"nowflow serve","user.user_name":"admin","active":"true","expires":"","#
                    + #""token":"********"}]}"#)
            let refused = try RawHTTPClient.send("GET", path, headers: ["x-sn-apikey": stale], port: server.port)
            #expect(refused.status == 401)
            server.send(SIGTERM)
            let exit = await server.waitForExit()
            #expect(exit.status == 0)
            #expect(!exit.standardError.contains(key))
        }
    }

    @Test func theBuiltServerLocksAUserAfterTheLimitAndLogsWithoutThePassword() async throws {
        let server = try await ServeProcess(
            ["--db", ":memory:", "--password", "r1ght-pw", "--login-failure-limit", "2", "--lockout-time", "5"])
        let client = HTTPTestClient(port: server.port)
        let path = "/api/now/table/sys_user?sysparm_query=user_name=admin&sysparm_fields=user_name"
        // The failures and the refused login go one after the other with no await between them, so that a loaded
        // machine holding the test's task does not let the 5-second lock run out before the third request.
        for _ in 0..<2 {
            #expect(try RawHTTPClient.send("GET", path, headers: Self.basic("admin", "wr0ng-pw"), port: server.port).status == 401)
        }
        // Written byte for byte: URLSession hides the body of a 401 that asks for Basic credentials.
        let locked = try RawHTTPClient.send("GET", path, headers: Self.basic("admin", "r1ght-pw"), port: server.port)
        #expect(locked.status == 401)
        #expect(
            locked.body
                == #"{"error":{"message":"User Not Authenticated","detail":"Required to provide Auth information"},"#
                + #""status":"failure"}"#)
        try await Task.sleep(for: .milliseconds(5_200))
        let unlocked = try await client.send("GET", path, headers: Self.basic("admin", "r1ght-pw"))
        #expect(unlocked.text == #"{"result":[{"user_name":"admin"}]}"#)
        server.send(SIGTERM)
        let exit = await server.waitForExit()
        #expect(
            exit.standardError
                == """
                local instance: failed login of user 'admin' (Basic) from 127.0.0.1
                local instance: failed login of user 'admin' (Basic) from 127.0.0.1
                local instance: user 'admin' locked for 5 seconds after 2 failed logins in a row

                """)
    }

    /// The `sys_id` of the (first) record in a `result`.
    private static func resultSysID(_ body: Data) throws -> String {
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let record = try #require((json["result"] as? [[String: Any]])?.first ?? json["result"] as? [String: Any])
        return try #require(record["sys_id"] as? String)
    }

    /// The mode bits of `path`, or nil when it does not exist.
    private static func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o777
    }

    @Test(arguments: ["000", "022"])
    func theDatabaseAndAttachmentsAreTheOwnersAloneWhateverTheUmask(umask: String) async throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let home = directory.appendingPathComponent("home").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let database = directory.appendingPathComponent("served.db").path
        let named = try await ServeProcess(["--db", database, "--password", "pw"], umask: umask)
        let byDefault = try await ServeProcess(["--password", "pw"], environment: ["HOME": home], umask: umask)
        let client = HTTPTestClient(port: named.port)
        let incident = try await client.send(
            "GET", "/api/now/table/incident?sysparm_limit=1&sysparm_fields=sys_id", headers: Self.basic("admin", "pw"))
        let sysID = try Self.resultSysID(incident.body)
        let uploaded = try await client.send(
            "POST", "/api/now/attachment/file?table_name=incident&table_sys_id=\(sysID)&file_name=notes.txt",
            headers: Self.basic("admin", "pw").merging(["Content-Type": "text/plain"]) { $1 },
            body: Data("private notes".utf8))
        #expect(uploaded.status == 201)
        let attachmentID = try Self.resultSysID(uploaded.body)
        let nowflow = home + "/.nowflow"
        #expect(Self.mode(database) == 0o600)
        #expect(Self.mode(database + "-wal") == 0o600)
        #expect(Self.mode(database + "-shm") == 0o600)
        #expect(Self.mode(database + ".attachments") == 0o700)
        #expect(Self.mode(database + ".attachments/" + attachmentID) == 0o600)
        #expect(Self.mode(nowflow) == 0o700)
        #expect(Self.mode(nowflow + "/local.db") == 0o600)
        #expect(Self.mode(nowflow + "/local.db-wal") == 0o600)
        #expect(Self.mode(nowflow + "/local.db.attachments") == 0o700)
        for server in [named, byDefault] {
            server.send(SIGTERM)
            #expect(await server.waitForExit().status == 0)
        }
    }
}
