import Foundation
import LocalInstance
import NowData
import TestSupport
import Testing

@testable import LocalInstance

/// Issue 23's secrets: with a known admin password, OAuth client secret and API key token, a whole run of requests
/// over every route (Table, Aggregate, Batch, Attachment, CMDB, tiny URLs, OAuth, the web views), as the admin, a
/// user without roles, an ITIL user, an API key and an anonymous client, never shows a secret or a stored hash in
/// any answer's status line, headers or body (a batch's inner bodies decoded), nor in the server's log, in any
/// encoding: plain, base64, hex, percent-encoded.
@Suite struct SecretLeakTests {
    static let adminPassword = "Adm1n-S3cret-Pw!"
    static let clientSecret = "Cl1ent-S3cret-Value"
    static let apiToken = "Ap1-K3y-T0ken-Value"

    @Test func noSecretOrHashAppearsInAnyAnswerOrLogLine() async throws {
        let log = LogLines()
        let server = try LocalInstanceServer(
            options: LocalInstance.Options(
                adminPassword: Self.adminPassword, oauthClients: ["leak-client": Self.clientSecret], log: log.sink,
                // The wrong admin password below is sent on every route, far more often than the lock allows: the
                // lock itself is LoginLockoutTests' concern; the answers to the admin after it are this test's.
                passwordIterations: 1_000, loginFailureLimit: 1_000))
        defer { server.stop() }
        let admin = "Basic " + Data("admin:\(Self.adminPassword)".utf8).base64EncodedString()
        var answers: [(request: String, text: String)] = []
        func send(
            _ method: String, _ target: String, _ authorization: String?, body: String? = nil,
            contentType: String = "application/json"
        ) async throws -> RawHTTPClient.Reply {
            var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n"
            if let authorization { head += "Authorization: \(authorization)\r\n" }
            if let body { head += "Content-Type: \(contentType)\r\nContent-Length: \(body.utf8.count)\r\n" }
            let reply = try await RawHTTPClient.exchangeOnItsOwnThread(
                Array((head + "\r\n" + (body ?? "")).utf8), port: server.port)
            answers.append(("\(method) \(target)", reply.head + "\n" + reply.body))
            if let object = try? JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any],
                let serviced = object["serviced_requests"] as? [[String: Any]]
            {
                for item in serviced {
                    let inner = Data(base64Encoded: item["body"] as? String ?? "") ?? Data()
                    answers.append(
                        (
                            "\(method) \(target) item \(item["id"] ?? "")",
                            "\(item)\n" + String(decoding: inner, as: UTF8.self)
                        ))
                }
            }
            return reply
        }

        let users = [("joe.employee", "joe-Pa55word"), ("itil", "itil-Pa55word")]
        for (user, password) in users {
            let set = try await send(
                "PATCH", "/api/now/table/sys_user/\(DemoData.sysID("sys_user", user))", admin,
                body: #"{"user_password":"\#(password)"}"#)
            #expect(set.status == 200)
        }
        let key = try await send(
            "POST", "/api/now/table/sys_api_key", admin,
            body: #"{"name":"leak key","token":"\#(Self.apiToken)","user":"\#(DemoData.sysID("sys_user", "itil"))"}"#)
        #expect(key.status == 201)
        let callers: [String?] =
            [admin, nil, "Basic " + Data("admin:wrong".utf8).base64EncodedString()]
            + users.map { "Basic " + Data("\($0.0):\($0.1)".utf8).base64EncodedString() }
        let adminID = DemoData.sysID("sys_user", "admin")
        let reads = [
            "/api/now/table/sys_user?sysparm_display_value=all&sysparm_query=user_name=admin",
            "/api/now/table/sys_user/\(adminID)?sysparm_fields=user_name,user_password&sysparm_display_value=true",
            "/api/now/table/sys_user?sysparm_query=user_passwordSTARTSWITHsha^ORDERBYuser_password",
            "/api/now/table/oauth_entity?sysparm_display_value=all",
            "/api/now/table/sys_api_key?sysparm_display_value=all&sysparm_fields=token,user.user_password",
            "/api/now/table/incident?sysparm_fields=caller_id.user_password&sysparm_limit=3",
            "/api/now/table/sys_dictionary?sysparm_query=name=sys_user",
            "/api/now/stats/sys_user?sysparm_group_by=user_password&sysparm_count=true",
            "/api/now/stats/sys_user?sysparm_min_fields=user_password&sysparm_max_fields=user_password",
            "/api/now/v1/stats/oauth_entity?sysparm_group_by=client_secret",
            "/api/now/stats/sys_api_key?sysparm_max_fields=token",
            "/api/now/stats/sys_user?sysparm_count=true&sysparm_query=user_passwordLIKE1^user_name=admin",
            "/api/now/attachment", "/api/now/cmdb/instance/cmdb_ci_linux_server",
            "/api/now/table/sys_user?sysparm_query=user_password="
                + (Self.adminPassword.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""),
        ]
        for caller in callers {
            for target in reads { _ = try await send("GET", target, caller) }
            let items = reads.enumerated().map { index, target in
                #"{"id":"\#(index)","method":"GET","url":"\#(target)"}"#
            }
            _ = try await send(
                "POST", "/api/now/v1/batch", caller, body: #"{"rest_requests":["# + items.joined(separator: ",") + "]}")
        }
        let apiKeyRead = try RawHTTPClient.send(
            "GET", "/api/now/table/sys_api_key?sysparm_display_value=all", headers: ["x-sn-apikey": Self.apiToken],
            port: server.port)
        answers.append(("GET sys_api_key with x-sn-apikey", apiKeyRead.head + "\n" + apiKeyRead.body))
        let uploaded = try await send(
            "POST",
            "/api/now/attachment/file?table_name=incident&table_sys_id=\(DemoData.sysID("incident", "INC0"))"
                + "&file_name=a.txt",
            admin, body: "attached", contentType: "text/plain")
        let attachment = try #require(
            (try JSONSerialization.jsonObject(with: Data(uploaded.body.utf8)) as? [String: Any]).flatMap {
                ($0["result"] as? [String: Any])?["sys_id"] as? String
            })
        _ = try await send("GET", "/api/now/attachment/\(attachment)", admin)
        _ = try await send("GET", "/api/now/attachment/\(attachment)/file", admin)
        let tiny = try await send(
            "POST", "/api/now/tinyurl", admin, body: #"{"url":"/sys_user_list.do?sysparm_query=user_name=admin"}"#)
        #expect(tiny.status == 200)
        let grants = [
            "grant_type=password&client_id=leak-client&client_secret=\(Self.clientSecret)&username=admin"
                + "&password=\(Self.adminPassword)",
            "grant_type=client_credentials&client_id=leak-client&client_secret=\(Self.clientSecret)",
            "grant_type=password&client_id=leak-client&client_secret=wrong&username=admin&password=wrong",
        ]
        for grant in grants {
            let encoded = grant.replacingOccurrences(of: "!", with: "%21")
            _ = try await send(
                "POST", "/oauth_token.do", nil, body: encoded, contentType: "application/x-www-form-urlencoded")
        }
        let web = WebClient(port: server.port)
        let login = try web.logIn(password: Self.adminPassword)
        #expect(login.status == 303)
        for target in [
            "/sys_user_list.do", "/sys_user.do?sys_id=\(adminID)", "/oauth_entity_list.do", "/sys_api_key_list.do",
            "/sys_user_list.do?sysparm_query=user_passwordSTARTSWITHsha", "/changes.do", "/now",
            "/sys_attachment.do?sys_id=\(attachment)",
        ] {
            let page = try web.get(target)
            answers.append(
                (
                    "web \(target)",
                    page.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n") + "\n" + page.body
                ))
        }

        let hashes = try server.instance.database.read { db in
            try ["sys_user": "user_password", "oauth_entity": "client_secret", "sys_api_key": "token"].flatMap {
                table, field in
                try db.query("SELECT \"\(field)\" FROM \"\(table)\" WHERE \"\(field)\" <> ''", []).compactMap { row in
                    if case .text(let text) = row.first { return text }
                    return nil
                }
            }
        }
        #expect(hashes.count == 5)
        var needles: [String: String] = [:]
        for secret in [Self.adminPassword, Self.clientSecret, Self.apiToken, "joe-Pa55word", "itil-Pa55word"] + hashes {
            // A hash's parts (its digest, its salt) are as secret as the whole.
            let parts =
                [secret]
                + secret.split(whereSeparator: { "$:".contains($0) }).map(String.init).filter { $0.count >= 16 }
            for part in parts {
                needles[part] = "plain \(part.prefix(4))…"
                needles[Data(part.utf8).base64EncodedString()] = "base64 of \(part.prefix(4))…"
                needles[Data(part.utf8).map { String(format: "%02x", $0) }.joined()] = "hex of \(part.prefix(4))…"
                needles[part.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? part] =
                    "percent-encoded \(part.prefix(4))…"
            }
        }
        #expect(answers.count > 100)
        for (needle, name) in needles {
            for answer in answers where answer.text.contains(needle) {
                Issue.record("\(name) appears in the answer to \(answer.request): \(answer.text.prefix(300))")
            }
            for line in log.all where line.contains(needle) {
                Issue.record("\(name) appears in the log line: \(line.prefix(300))")
            }
        }
    }
}
