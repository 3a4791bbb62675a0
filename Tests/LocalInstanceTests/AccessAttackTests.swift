import Foundation
import NowData
import Testing

@testable import LocalInstance

/// Issue 23's attacks on what a user may read and write, made in process by a user without roles
/// (`joe.employee`), an ITIL user and an anonymous client: secret fields through the Aggregate API, attachments of
/// records the user cannot write, `sys_attachment` through the Table API, active downloads and long file names.
@Suite struct AccessAttackTests {
    static let incident = DemoData.sysID("incident", "INC0")
    static let adminUser = DemoData.sysID("sys_user", "admin")

    @Test func theAggregateAPINeverGroupsOrAggregatesASecretField() async throws {
        let attack = try await AttackHarness()
        let asks: [(String, [(String, String)], String, String)] = [
            (
                "sys_user", [("sysparm_group_by", "user_password"), ("sysparm_count", "true")], "sys_user",
                "user_password"
            ),
            ("sys_user", [("sysparm_min_fields", "user_password")], "sys_user", "user_password"),
            ("sys_user", [("sysparm_max_fields", "user_password")], "sys_user", "user_password"),
            (
                "sys_user", [("sysparm_group_by", "user_name"), ("sysparm_having", "max^user_password^>^0")],
                "sys_user", "user_password"
            ),
            ("oauth_entity", [("sysparm_group_by", "client_secret")], "oauth_entity", "client_secret"),
            ("sys_api_key", [("sysparm_max_fields", "token")], "sys_api_key", "token"),
        ]
        for caller in [AttackHarness.Caller.joe, .itil, .admin] {
            for (table, query, secretTable, field) in asks {
                for version in ["", "/v1"] {
                    let answer = try await attack.send(
                        caller, "GET", "/api/now\(version)/stats/\(table)",
                        query: query + [("sysparm_query", "user_name=admin")])
                    #expect(answer.statusCode == 403, "\(caller) \(table) \(query)")
                    #expect(Harness.text(answer) == AttackHarness.secretField(secretTable, field))
                }
            }
        }
        let anonymous = try await attack.send(
            .anonymous, "GET", "/api/now/stats/sys_user", query: [("sysparm_group_by", "user_password")])
        #expect(anonymous.statusCode == 401)
        #expect(Harness.text(anonymous) == AttackHarness.notAuthenticated)
    }

    @Test func aConditionOnAPasswordFieldProbesNothingAndIsNotLogged() async throws {
        let attack = try await AttackHarness()
        let hash = try #require(try attack.instance.loginHash(of: "admin"))
        let probe = "user_name=admin^user_passwordSTARTSWITH" + String(hash.prefix(6))
        let wrong = "user_name=admin^user_passwordSTARTSWITHzz-not-it"
        for caller in [AttackHarness.Caller.joe, .itil] {
            for query in [probe, wrong] {
                let stats = try await attack.send(
                    caller, "GET", "/api/now/stats/sys_user",
                    query: [("sysparm_count", "true"), ("sysparm_query", query)])
                #expect(Harness.text(stats) == #"{"result":{"stats":{"count":"1"}}}"#)
                let list = try await attack.send(
                    caller, "GET", "/api/now/table/sys_user",
                    query: [("sysparm_query", query), ("sysparm_fields", "user_name")])
                #expect(Harness.text(list) == #"{"result":[{"user_name":"admin"}]}"#)
            }
        }
        let notices = attack.harness.log.all.filter { $0.contains("user_password") }
        #expect(!notices.isEmpty)
        #expect(
            notices.allSatisfy {
                $0 == "local instance: sys_user: ignored a condition on the password field 'user_password'"
            })
        #expect(!attack.harness.log.all.contains { $0.contains(String(hash.prefix(6))) || $0.contains("zz-not-it") })
    }

    @Test func aUserWhoCannotWriteARecordAttachesNothingToIt() async throws {
        let attack = try await AttackHarness()
        let oauth = try await attack.send(.admin, "POST", "/api/now/table/oauth_entity", body: #"{"name":"app"}"#)
        let oauthID = try AttackHarness.sysID(oauth)
        for (caller, table, record) in [
            (AttackHarness.Caller.joe, "incident", Self.incident), (.joe, "sys_user", Self.adminUser),
            (.itil, "sys_user", Self.adminUser),
        ] {
            let raw = try await attack.upload(caller, table: table, record: record)
            #expect(raw.statusCode == 403, "\(caller) \(table)")
            #expect(Harness.text(raw) == AttackHarness.refusal("Insert"))
            let multipart = try await Self.multipart(attack, caller, table: table, record: record)
            #expect(multipart.statusCode == 403, "\(caller) \(table)")
            #expect(Harness.text(multipart) == AttackHarness.refusal("Insert"))
        }
        for caller in [AttackHarness.Caller.joe, .itil] {
            let hidden = try await attack.upload(caller, table: "oauth_entity", record: oauthID)
            #expect(hidden.statusCode == 404)
            #expect(
                Harness.text(hidden)
                    == #"{"error":{"message":"Failed to create the attachment","detail":"No record \#(oauthID) in "#
                    + #"the table oauth_entity"},"status":"failure"}"#)
        }
        let anonymous = try await attack.upload(.anonymous, table: "incident", record: Self.incident)
        #expect(Harness.text(anonymous) == AttackHarness.notAuthenticated)
        // Those who may write the record attach, with the file's own Content-Type and no Origin (PySNC's way).
        #expect(try await attack.upload(.itil, table: "incident", record: Self.incident).statusCode == 201)
        #expect(try await attack.upload(.admin, table: "oauth_entity", record: oauthID).statusCode == 201)
        let list = try await attack.send(
            .admin, "GET", "/api/now/attachment",
            query: [("sysparm_fields", "table_name,sys_created_by"), ("sysparm_query", "ORDERBYtable_name")])
        #expect(
            Harness.text(list)
                == #"{"result":[{"table_name":"incident","sys_created_by":"itil"},"#
                + #"{"table_name":"oauth_entity","sys_created_by":"admin"}]}"#)
    }

    @Test func aUserWhoCannotWriteARecordDeletesNoneOfItsAttachments() async throws {
        let attack = try await AttackHarness()
        let uploaded = try await attack.upload(.admin, table: "incident", record: Self.incident)
        let sysID = try AttackHarness.sysID(uploaded)
        let refused = try await attack.send(.joe, "DELETE", "/api/now/attachment/\(sysID)")
        #expect(refused.statusCode == 403)
        #expect(Harness.text(refused) == AttackHarness.refusal("Delete"))
        let anonymous = try await attack.send(.anonymous, "DELETE", "/api/now/attachment/\(sysID)")
        #expect(Harness.text(anonymous) == AttackHarness.notAuthenticated)
        #expect(try await attack.send(.joe, "GET", "/api/now/attachment/\(sysID)/file").body == Data("some notes".utf8))
        let deleted = try await attack.send(.itil, "DELETE", "/api/now/attachment/\(sysID)")
        #expect(deleted.statusCode == 204)
        #expect(try await attack.send(.admin, "GET", "/api/now/attachment/\(sysID)").statusCode == 404)
    }

    @Test func anAttachmentOfARecordTheUserCannotReadIsNotThere() async throws {
        let attack = try await AttackHarness()
        let oauth = try await attack.send(.admin, "POST", "/api/now/table/oauth_entity", body: #"{"name":"app"}"#)
        let uploaded = try await attack.upload(
            .admin, table: "oauth_entity", record: try AttackHarness.sysID(oauth), name: "keys.txt")
        let sysID = try AttackHarness.sysID(uploaded)
        for caller in [AttackHarness.Caller.joe, .itil] {
            for path in ["/api/now/attachment/\(sysID)", "/api/now/attachment/\(sysID)/file"] {
                let hidden = try await attack.send(caller, "GET", path)
                #expect(hidden.statusCode == 404)
                #expect(Harness.text(hidden) == AttackHarness.noRecord)
            }
            let list = try await attack.send(caller, "GET", "/api/now/attachment")
            #expect(Harness.text(list) == #"{"result":[]}"#)
            let table = try await attack.send(caller, "GET", "/api/now/table/sys_attachment")
            #expect(Harness.text(table) == #"{"result":[]}"#)
            let stats = try await attack.send(
                caller, "GET", "/api/now/stats/sys_attachment", query: [("sysparm_count", "true")])
            #expect(Harness.text(stats) == #"{"result":{"stats":{"count":"0"}}}"#)
            let entities = try await attack.send(caller, "GET", "/api/now/table/oauth_entity")
            #expect(Harness.text(entities) == #"{"result":[]}"#)
            #expect(entities.headers["X-Total-Count"] == "0")
            let delete = try await attack.send(caller, "DELETE", "/api/now/attachment/\(sysID)")
            #expect(Harness.text(delete) == AttackHarness.noRecord)
        }
        #expect(
            try await attack.send(.admin, "GET", "/api/now/attachment/\(sysID)/file").body == Data("some notes".utf8))
    }

    @Test func theTableAPIWritesNoAttachmentRecords() async throws {
        let attack = try await AttackHarness()
        let sysID = try AttackHarness.sysID(try await attack.upload(.admin, table: "incident", record: Self.incident))
        for caller in [AttackHarness.Caller.joe, .itil, .admin] {
            let renamed = try await attack.send(
                caller, "PATCH", "/api/now/table/sys_attachment/\(sysID)", body: #"{"file_name":"evil.html"}"#)
            #expect(renamed.statusCode == 403)
            #expect(Harness.text(renamed) == AttackHarness.refusal("Update"))
            let repointed = try await attack.send(
                caller, "PUT", "/api/now/table/sys_attachment/\(sysID)",
                body: #"{"table_name":"sys_user","table_sys_id":"\#(Self.adminUser)"}"#)
            #expect(Harness.text(repointed) == AttackHarness.refusal("Update"))
            let inserted = try await attack.send(
                caller, "POST", "/api/now/table/sys_attachment",
                body: #"{"file_name":"evil.html","table_name":"incident","table_sys_id":"\#(Self.incident)"}"#)
            #expect(Harness.text(inserted) == AttackHarness.refusal("Insert"))
        }
        let deleted = try await attack.send(.joe, "DELETE", "/api/now/table/sys_attachment/\(sysID)")
        #expect(Harness.text(deleted) == AttackHarness.refusal("Delete"))
        let metadata = try await attack.send(
            .admin, "GET", "/api/now/table/sys_attachment/\(sysID)", query: [("sysparm_fields", "file_name,table_name")]
        )
        #expect(Harness.text(metadata) == #"{"result":{"file_name":"notes.txt","table_name":"incident"}}"#)
        #expect(try await attack.send(.itil, "DELETE", "/api/now/table/sys_attachment/\(sysID)").statusCode == 204)
    }

    @Test func aDownloadIsSavedNeverShownAsAPage() async throws {
        let attack = try await AttackHarness()
        for (name, type) in [("evil.html", "text/html"), ("evil.svg", "image/svg+xml")] {
            let page = "<script>alert(document.cookie)</script>"
            let uploaded = try await attack.upload(
                .itil, table: "incident", record: Self.incident, name: name, contentType: type, bytes: page)
            let download = try await attack.send(
                .joe, "GET", "/api/now/attachment/\(try AttackHarness.sysID(uploaded))/file")
            #expect(download.statusCode == 200)
            #expect(download.body == Data(page.utf8))
            #expect(download.headers["Content-Type"] == type)
            #expect(download.headers["Content-Disposition"] == "attachment; filename*=UTF-8''\(name)")
            #expect(download.headers["X-Content-Type-Options"] == "nosniff")
            #expect(download.headers["Content-Security-Policy"] == "sandbox")
        }
    }

    @Test func aFileNameLongerThan255BytesIsRefused() async throws {
        let attack = try await AttackHarness()
        for length in [256, 70_000] {
            let name = String(repeating: "n", count: length)
            let raw = try await attack.upload(.itil, table: "incident", record: Self.incident, name: name)
            #expect(raw.statusCode == 400)
            #expect(
                Harness.text(raw)
                    == #"{"error":{"message":"Failed to create the attachment","detail":"file_name is \#(length) "#
                    + #"bytes long; the local instance takes at most 255 bytes"},"status":"failure"}"#)
            let multipart = try await Self.multipart(
                attack, .itil, table: "incident", record: Self.incident, name: name)
            #expect(multipart.statusCode == 400)
        }
        let longest = String(repeating: "é", count: 127) + "x"
        #expect(
            try await attack.upload(.itil, table: "incident", record: Self.incident, name: longest).statusCode == 201)
        #expect(try await attack.send(.admin, "GET", "/api/now/attachment").body.count < 10_000)
    }

    /// A multipart upload (`POST /api/now/attachment/upload`) of one small file as `caller`.
    static func multipart(
        _ attack: AttackHarness, _ caller: AttackHarness.Caller, table: String, record: String,
        name: String = "form.txt"
    ) async throws -> NowHTTPResponse {
        let boundary = "----attack-boundary"
        var body = "--\(boundary)\r\nContent-Disposition: form-data; name=\"table_name\"\r\n\r\n\(table)\r\n"
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"table_sys_id\"\r\n\r\n\(record)\r\n"
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"uploadFile\"; filename=\"\(name)\"\r\n"
        body += "Content-Type: text/plain\r\n\r\nform file\r\n--\(boundary)--\r\n"
        return try await attack.send(
            caller, "POST", "/api/now/attachment/upload",
            headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")], rawBody: Data(body.utf8))
    }

    @Test func anAnonymousClientReachesNoRoute() async throws {
        let attack = try await AttackHarness()
        let attachment = try AttackHarness.sysID(
            try await attack.upload(.itil, table: "incident", record: Self.incident))
        let routes: [(String, String, String?)] = [
            ("GET", "/api/now/table/incident", nil), ("POST", "/api/now/table/incident", "{}"),
            ("GET", "/api/now/v2/table/sys_user/\(Self.adminUser)", nil),
            ("DELETE", "/api/now/table/incident/\(Self.incident)", nil),
            ("GET", "/api/now/stats/incident", nil), ("GET", "/api/now/v1/stats/sys_user", nil),
            ("POST", "/api/now/v1/batch", #"{"rest_requests":[]}"#),
            ("POST", "/api/now/batch", #"{"rest_requests":[]}"#),
            ("GET", "/api/now/attachment", nil), ("GET", "/api/now/attachment/\(attachment)", nil),
            ("GET", "/api/now/attachment/\(attachment)/file", nil),
            ("DELETE", "/api/now/attachment/\(attachment)", nil),
            ("POST", "/api/now/attachment/upload", nil),
            ("GET", "/api/now/cmdb/instance/cmdb_ci_linux_server", nil),
            (
                "POST", "/api/now/cmdb/instance/cmdb_ci_linux_server",
                #"{"attributes":{"name":"x"},"source":"ServiceNow"}"#
            ),
            ("POST", "/api/now/tinyurl", #"{"url":"/incident_list.do?sysparm_query=active=true"}"#),
        ]
        for (method, path, body) in routes {
            let answer = try await attack.send(.anonymous, method, path, body: body)
            #expect(answer.statusCode == 401, "\(method) \(path)")
            #expect(Harness.text(answer) == AttackHarness.notAuthenticated, "\(method) \(path)")
            #expect(answer.headers["WWW-Authenticate"] == #"BASIC realm="Service-now""#)
        }
        #expect(try await attack.send(.admin, "GET", "/api/now/attachment/\(attachment)").statusCode == 200)
    }

    @Test func aUserWithoutRolesReadsButChangesNothingThroughTheCMDBAndTinyURLs() async throws {
        let attack = try await AttackHarness()
        let created = try await attack.send(
            .joe, "POST", "/api/now/cmdb/instance/cmdb_ci_linux_server",
            body: #"{"attributes":{"name":"joe's server"},"source":"ServiceNow"}"#)
        #expect(created.statusCode == 403)
        #expect(Harness.text(created) == AttackHarness.refusal("Insert"))
        let list = try await attack.send(
            .joe, "GET", "/api/now/cmdb/instance/cmdb_ci_linux_server", query: [("sysparm_query", "name=joe's server")])
        #expect(Harness.text(list) == #"{"result":[]}"#)
        #expect(
            try await attack.send(
                .itil, "POST", "/api/now/cmdb/instance/cmdb_ci_linux_server",
                body: #"{"attributes":{"name":"itil's server"},"source":"ServiceNow"}"#
            ).statusCode == 200)
        // A tiny URL only stands for a query: expanding one reads as its user, secret fields included.
        let tiny = try await attack.send(
            .joe, "POST", "/api/now/tinyurl",
            body: #"{"url":"/sys_user_list.do?sysparm_query=user_name=admin&sysparm_fields=user_name,user_password"}"#)
        #expect(tiny.statusCode == 200)
        let key = try #require(
            (try Harness.json(tiny)["result"] as? String)?.components(separatedBy: "sysparm_tiny=").last)
        let expanded = try await attack.send(.joe, "GET", "/api/now/table/sys_user", query: [("sysparm_tiny", key)])
        #expect(Harness.text(expanded) == #"{"result":[{"user_name":"admin","user_password":"********"}]}"#)
    }
}
