import Foundation
import LocalInstance
import NowData
import Testing

/// A run reaches an instance over HTTPS through the proxy `HTTPS_PROXY` names, its OAuth token requests too, and
/// straight when `NO_PROXY` names the instance's host: the built `nowflow` against the local instance over HTTPS,
/// through a real CONNECT proxy.
@Suite struct RunThroughProxyTests {
    @Test func httpsProxyCarriesEveryRequestTokenRequestsIncludedAndNoProxyBypassesIt() throws {
        let home = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let authority = try LocalCertificateAuthority(directory: home.appendingPathComponent("certificates"))
        let server = try LocalInstanceServer(
            tls: authority.identity,
            options: LocalInstance.Options(
                adminPassword: "pw", seedDemoData: false, oauthClients: ["runner": "s3cret"], log: { _ in }))
        defer { server.stop() }
        let port = try #require(server.tlsPort)
        let proxy = try ConnectProxy()
        defer { proxy.stop() }
        let refusing = try ConnectProxy(refusing: true)
        defer { refusing.stop() }

        let folder = home.appendingPathComponent(".nowflow")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
            profiles:
              remote: { url: "https://localhost:\(port)", ca_file: "\(authority.caFile.path)" }
            """.write(to: folder.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        let query = """
            steps:
              - id: users
                query: { table: sys_user, fields: [user_name] }
              - assert: "steps.users.count == 1"
            """
        try "name: Basic\n\(query)".write(
            to: home.appendingPathComponent("basic.yaml"), atomically: true, encoding: .utf8)
        try """
            name: OAuth
            auth:
              oauth: { client_id: runner, client_secret: s3cret, user: admin, password: pw }
            \(query)
            """.write(to: home.appendingPathComponent("oauth.yaml"), atomically: true, encoding: .utf8)
        func run(_ job: String, _ environment: [String: String]) throws -> ToolInvocation {
            try ToolInvocation.run(
                ["run", job, "--instance", "remote", "--quiet"], in: home,
                environment: environment.merging(["NOW_USER": "admin", "NOW_PASSWORD": "pw"]) { $1 })
        }
        let target = "localhost:\(port)"

        // Basic authentication: the one read goes through one tunnel to the instance.
        let basic = try run("basic.yaml", ["HTTPS_PROXY": "http://127.0.0.1:\(proxy.port)"])
        #expect(basic.status == 0, "\(basic.stderr)")
        #expect(proxy.connectTargets == [target])
        // OAuth: the token request (a write, on a connection of its own) is tunnelled too, then the read.
        let oauth = try run("oauth.yaml", ["https_proxy": "http://127.0.0.1:\(proxy.port)"])
        #expect(oauth.status == 0, "\(oauth.stderr)")
        #expect(proxy.connectTargets == [target, target, target])
        // A proxy that refuses the tunnel stops the first request, the token request: nothing reaches the instance
        // another way, and the refusal is said as such (not retried as a lost connection).
        let refused = try run("oauth.yaml", ["HTTPS_PROXY": "http://127.0.0.1:\(refusing.port)"])
        #expect(refused.status == 3)
        #expect(refusing.connectTargets == [target])
        #expect(
            refused.stderr.hasPrefix(
                "FAIL step 1 'users' (query): network error: the proxy refused the tunnel to the instance: it "
                    + "answered 403 to CONNECT (the proxy comes from HTTPS_PROXY or HTTP_PROXY; NO_PROXY names the "
                    + "hosts reached without one) ("),
            "\(refused.stderr)")
        // NO_PROXY naming the host: straight to the instance, the proxy sees nothing more.
        let bypassed = try run(
            "oauth.yaml", ["HTTPS_PROXY": "http://127.0.0.1:\(refusing.port)", "NO_PROXY": "localhost"])
        #expect(bypassed.status == 0, "\(bypassed.stderr)")
        #expect(refusing.connectTargets == [target])
    }
}
