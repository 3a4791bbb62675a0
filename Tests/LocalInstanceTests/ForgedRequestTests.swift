import Foundation
import LocalInstance
import NowData
import TestSupport
import Testing

@testable import LocalInstance

/// Issue 23's requests a browser could be made to send: writes from another site's page (`Origin`, `Referer`),
/// Batch and CMDB bodies that are not JSON, DNS rebinding through `Host`, and a login that would send the browser
/// elsewhere.
@Suite struct ForgedRequestTests {
    static let incident = DemoData.sysID("incident", "INC0")

    static func crossSite(_ header: String, _ value: String, host: String = "127.0.0.1:8080") -> String {
        #"{"error":{"message":"Cross-site request refused","detail":"The request's \#(header) '\#(value)' is not "#
            + #"this instance (\#(host)): a write sent by another site's page is refused"},"status":"failure"}"#
    }

    @Test func aWriteFromAnotherSitesPageIsRefused() async throws {
        let attack = try await AttackHarness()
        let host = ("Host", "127.0.0.1:8080")
        let writes: [(String, String, String?)] = [
            ("POST", "/api/now/table/incident", "{}"),
            ("PATCH", "/api/now/table/incident/\(Self.incident)", #"{"urgency":"1"}"#),
            ("DELETE", "/api/now/table/incident/\(Self.incident)", nil),
            ("POST", "/api/now/v1/batch", #"{"rest_requests":[]}"#),
            ("POST", "/api/now/cmdb/instance/cmdb_ci_linux_server", #"{"attributes":{"name":"x"}}"#),
            ("POST", "/api/now/tinyurl", #"{"url":"/incident_list.do"}"#),
            ("DELETE", "/api/now/attachment/0123", nil),
        ]
        for caller in [AttackHarness.Caller.itil, .admin] {
            for (method, path, body) in writes {
                for (header, value) in [
                    ("Origin", "http://evil.example"), ("Origin", "null"), ("Origin", "http://127.0.0.1:9999"),
                    ("Referer", "http://evil.example/page.html"),
                ] {
                    let refused = try await attack.send(
                        caller, method, path, body: body, headers: [host, (header, value)])
                    #expect(refused.statusCode == 403, "\(method) \(path) \(header): \(value)")
                    #expect(Harness.text(refused) == Self.crossSite(header, value))
                }
            }
        }
        let raw = try await attack.send(
            .itil, "POST", "/api/now/attachment/file",
            query: [("table_name", "incident"), ("table_sys_id", Self.incident), ("file_name", "a.txt")],
            headers: [host, ("Content-Type", "text/plain"), ("Origin", "http://evil.example")], rawBody: Data("x".utf8))
        #expect(Harness.text(raw) == Self.crossSite("Origin", "http://evil.example"))
        // The instance's own origin, and API clients that send none, write; reads are never refused.
        for headers in [
            [host, ("Origin", "http://127.0.0.1:8080")], [host, ("Referer", "http://127.0.0.1:8080/x")], [host],
        ] {
            #expect(
                try await attack.send(.itil, "POST", "/api/now/table/incident", body: "{}", headers: headers).statusCode
                    == 201)
        }
        let local = try await attack.send(
            .itil, "POST", "/api/now/table/incident", body: "{}",
            headers: [("Host", "localhost"), ("Origin", "http://localhost:80")])
        #expect(local.statusCode == 201)
        let read = try await attack.send(
            .joe, "GET", "/api/now/table/incident", query: [("sysparm_limit", "1")],
            headers: [host, ("Origin", "http://evil.example")])
        #expect(read.statusCode == 200)
        #expect(try await attack.upload(.itil, table: "incident", record: Self.incident).statusCode == 201)
    }

    @Test func theBatchAndCMDBAPIsTakeOnlyJSON() async throws {
        let attack = try await AttackHarness()
        let batch =
            #"{"rest_requests":[{"id":"1","method":"DELETE","url":"/api/now/table/incident/\#(Self.incident)"}]}"#
        for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
            let refused = try await attack.send(
                .admin, "POST", "/api/now/v1/batch", body: batch, headers: [("Content-Type", type)])
            #expect(refused.statusCode == 415)
            #expect(
                Harness.text(refused)
                    == #"{"error":{"message":"Unsupported Media Type","detail":"Content-Type '\#(type)' is not "#
                    + #"supported; send application/json"},"status":"failure"}"#)
            let cmdb = try await attack.send(
                .admin, "POST", "/api/now/cmdb/instance/cmdb_ci_linux_server",
                body: #"{"attributes":{"name":"forged"},"source":"ServiceNow"}"#, headers: [("Content-Type", type)])
            #expect(cmdb.statusCode == 415)
        }
        let untyped = try await attack.harness.send(
            "POST", "/api/now/v1/batch", headers: [("Authorization", Harness.adminAuth)], rawBody: Data(batch.utf8))
        #expect(untyped.statusCode == 400)
        #expect(
            Harness.text(untyped)
                == #"{"error":{"message":"Exception while reading request","detail":"Content-Type header is missing; "#
                + #"send application/json"},"status":"failure"}"#)
        #expect(try await attack.send(.admin, "GET", "/api/now/table/incident/\(Self.incident)").statusCode == 200)
        let forged = try await attack.send(
            .admin, "GET", "/api/now/table/cmdb_ci_linux_server", query: [("sysparm_query", "name=forged")])
        #expect(Harness.text(forged) == #"{"result":[]}"#)
    }

    static func hostRefusal(_ host: String) -> String {
        #"{"error":{"message":"Invalid Host header","detail":"The Host header '\#(host)' does not name this server: "#
            + #"on a loopback address it answers localhost, loopback addresses and the names given with nowflow "#
            + #"serve --allowed-host"},"status":"failure"}"#
    }

    @Test func aHostNamingAnotherSiteIsRefusedOnALoopbackAddress() async throws {
        let server = try LocalInstanceServer(
            allowedHosts: ["proxy.example"], options: LocalInstance.Options(adminPassword: "admin", log: { _ in }))
        defer { server.stop() }
        func get(_ target: String, host: String) async throws -> RawHTTPClient.Reply {
            let head =
                "GET \(target) HTTP/1.1\r\nHost: \(host)\r\nAuthorization: Basic YWRtaW46YWRtaW4=\r\n"
                + "Connection: close\r\n\r\n"
            return try await RawHTTPClient.exchangeOnItsOwnThread(Array(head.utf8), port: server.port)
        }
        let target = "/api/now/table/sys_user?sysparm_limit=1&sysparm_fields=user_name"
        for host in ["rebind.attacker.example:\(server.port)", "rebind.attacker.example", "10.0.0.1:\(server.port)"] {
            for path in [target, "/login.do", "/incident_list.do"] {
                let refused = try await get(path, host: host)
                #expect(refused.status == 400, "\(host) \(path)")
                #expect(refused.body == Self.hostRefusal(host))
            }
        }
        for host in [
            "127.0.0.1:\(server.port)", "localhost:\(server.port)", "LOCALHOST", "127.1.2.3", "proxy.example",
            "proxy.example:443", "app.localhost:\(server.port)",
        ] {
            #expect(try await get(target, host: host).status == 200, "\(host)")
        }
    }

    @Test func aLoginNeverSendsTheBrowserToAnotherSite() async throws {
        let server = try LocalInstanceServer(options: LocalInstance.Options(adminPassword: "admin", log: { _ in }))
        defer { server.stop() }
        let targets: [(String, String)] = [
            ("/\t/evil.example", "/now"), ("/\n/evil.example", "/now"), ("\\\\evil.example", "/now"),
            ("/\\evil.example", "/now"), (" //evil.example", "/now"), ("\t//evil.example", "/now"),
            ("https://evil.example", "/now"), ("/\r\n/evil.example", "/now"), ("javascript:alert(1)", "/now"),
            ("/incident_list.do", "/incident_list.do"), (" /incident_list.do\t", "/incident_list.do"),
            ("\\incident_list.do", "/incident_list.do"),
        ]
        for (goto, expected) in targets {
            let client = WebClient(port: server.port)
            let form = try client.get("/login.do")
            let login = try client.post(
                "/login.do",
                [
                    ("sysparm_ck", form.csrfToken ?? ""), ("sysparm_goto", goto), ("user_name", "admin"),
                    ("user_password", "admin"),
                ])
            #expect(login.status == 303)
            #expect(login.header("Location") == expected, "\(goto.debugDescription)")
        }
        let page = try WebClient(port: server.port).get("/login.do?sysparm_goto=%2F%09%2Fevil.example")
        #expect(page.body.contains(#"<input type="hidden" name="sysparm_goto" value="/now">"#))
    }
}
