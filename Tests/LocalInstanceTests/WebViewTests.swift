import Foundation
import LocalInstance
import NowData
import TestSupport
import Testing

/// The web views of `nowflow serve` over real HTTP: login and its cookies, CSRF tokens, escaping, the security
/// headers, and list, form and what-changed pages as their text.
@Suite struct WebViewTests {
    let server: LocalInstanceServer

    static let incidentID = "77c017c10d784d2d1c396fa61dce21ac"
    static let csp =
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    init() throws {
        server = try LocalInstanceServer(options: LocalInstance.Options(adminPassword: "admin", log: { _ in }))
    }

    /// A client logged in with the form.
    func loggedIn() throws -> WebClient {
        let client = WebClient(port: server.port)
        let login = try client.logIn()
        #expect(login.status == 303)
        return client
    }

    /// The incident as the Table API gives it.
    func incident(_ fields: String) async throws -> JSONValue {
        let response = try await HTTPTestClient(port: server.port).send(
            "GET", "/api/now/table/incident/\(Self.incidentID)?sysparm_fields=\(fields)",
            headers: ["Authorization": "Basic " + Data("admin:admin".utf8).base64EncodedString()])
        return try JSONValue(json: response.body)["result"] ?? .null
    }

    @Test func aPageWithoutCredentialsSendsToTheLoginFormWhichSetsAStrictHttpOnlyCookie() throws {
        defer { server.stop() }
        let client = WebClient(port: server.port)

        let list = try client.get("/incident_list.do?sysparm_query=active%3Dtrue")
        #expect(list.status == 303)
        #expect(
            list.header("Location") == "/login.do?sysparm_goto=%2Fincident_list.do%3Fsysparm_query%3Dactive%253Dtrue")
        #expect(list.header("Content-Security-Policy") == Self.csp)

        let form = try client.get("/login.do?sysparm_goto=%2Fincident_list.do")
        #expect(form.status == 200)
        #expect(form.header("Content-Type") == "text/html;charset=UTF-8")
        #expect(form.header("Content-Security-Policy") == Self.csp)
        #expect(form.header("X-Frame-Options") == "DENY")
        #expect(form.header("Cache-Control") == "no-store")
        let token = try #require(form.csrfToken)
        #expect(form.setCookies == ["nowflow_login=\(token); Path=/; HttpOnly; SameSite=Strict"])
        #expect(
            form.main == """
                <h1>Log in</h1>
                <form class="login" method="post" action="/login.do">
                <input type="hidden" name="sysparm_ck" value="\(token)">
                <input type="hidden" name="sysparm_goto" value="/incident_list.do">
                <label for="user_name">User name</label>
                <input id="user_name" name="user_name" autocomplete="username" required autofocus>
                <label for="user_password">Password</label>
                <input id="user_password" name="user_password" type="password" autocomplete="current-password">
                <button type="submit">Log in</button>
                </form>
                """)
        #expect(!form.body.contains("<script"))

        let wrong = try client.post(
            "/login.do", [("sysparm_ck", token), ("user_name", "admin"), ("user_password", "nope")])
        #expect(wrong.status == 401)
        #expect(
            wrong.main.hasPrefix(
                "<h1>Log in</h1>\n<p class=\"error\" role=\"alert\">User name or password invalid</p>\n"))

        let retry = try client.get("/login.do")
        let login = try client.post(
            "/login.do",
            [
                ("sysparm_ck", retry.csrfToken ?? ""), ("sysparm_goto", "/incident_list.do"), ("user_name", "admin"),
                ("user_password", "admin"),
            ])
        #expect(login.status == 303)
        #expect(login.header("Location") == "/incident_list.do")
        let session = try #require(client.cookies["nowflow_session"])
        #expect(session.count == 64)
        #expect(
            login.setCookies == [
                "nowflow_session=\(session); Path=/; HttpOnly; SameSite=Strict",
                "nowflow_login=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict",
            ])
        #expect(try client.get("/incident_list.do").status == 200)
    }

    @Test func aLoginWithoutItsFormsTokenOrToAnotherSiteIsRefused() throws {
        defer { server.stop() }
        let client = WebClient(port: server.port)
        let noToken = try client.post("/login.do", [("user_name", "admin"), ("user_password", "admin")])
        #expect(noToken.status == 403)
        #expect(
            noToken.main == """
                <h1>Invalid security token</h1>
                <p class="error" role="alert">The login form did not carry its security token; reload the login page \
                and try again.</p>
                """)
        #expect(client.cookies["nowflow_session"] == nil)

        let form = try client.get("/login.do")
        let elsewhere = try client.post(
            "/login.do",
            [
                ("sysparm_ck", form.csrfToken ?? ""), ("sysparm_goto", "//evil.example/x"), ("user_name", "admin"),
                ("user_password", "admin"),
            ])
        #expect(elsewhere.header("Location") == "/now")
    }

    @Test func aFieldHoldingMarkupShowsAsTextInTheListAndTheForm() async throws {
        defer { server.stop() }
        let markup = "<img src=x onerror=alert(1)>"
        let client = try loggedIn()
        let form = try client.get("/incident.do?sys_id=\(Self.incidentID)")
        let saved = try client.post(
            "/incident.do?sys_id=\(Self.incidentID)",
            [("sysparm_ck", form.csrfToken ?? ""), ("sysparm_action", "save"), ("short_description", markup)])
        #expect(saved.status == 303)
        #expect(try await incident("short_description")["short_description"]?.string == markup)

        let shown = try client.get("/incident.do?sys_id=\(Self.incidentID)&sysparm_msg=saved")
        #expect(shown.main.hasPrefix(#"<p class="ok" role="status">Record updated</p>"# + "\n"))
        #expect(
            shown.main.contains(
                #"<label for="f_short_description" title="short_description (string)">Short description</label>"#
                    + #"<span class="value"><input type="text" id="f_short_description" name="short_description" "#
                    + #"value="&lt;img src=x onerror=alert(1)&gt;"></span>"#))
        #expect(!shown.body.contains("<img"))
        let list = try client.get(
            "/incident_list.do?sysparm_query=number%3DINC0010001&sysparm_fields=number,short_description")
        #expect(list.main.contains("<td>&lt;img src=x onerror=alert(1)&gt;</td>"))
        #expect(!list.body.contains("<img"))
        #expect(list.header("Content-Security-Policy") == Self.csp)
    }

    @Test func aPostWithoutTheSessionsTokenIsRefusedAndChangesNothing() async throws {
        defer { server.stop() }
        let client = try loggedIn()
        let before = try await incident("urgency,sys_mod_count")
        for fields in [
            [("sysparm_action", "save"), ("urgency", "3")],
            [("sysparm_ck", "0123"), ("sysparm_action", "save"), ("urgency", "3")],
            [("sysparm_ck", String(repeating: "a", count: 64)), ("sysparm_action", "delete")],
        ] {
            let refused = try client.post("/incident.do?sys_id=\(Self.incidentID)", fields)
            #expect(refused.status == 403)
            #expect(
                refused.main == """
                    <h1>Invalid security token</h1>
                    <p class="error" role="alert">The form did not carry this session&#39;s security token \
                    (sysparm_ck); reload the page and try again.</p>
                    """)
        }
        #expect(try await incident("urgency,sys_mod_count") == before)
        // Basic credentials, which a browser sends by itself, need the token too.
        let basic = WebClient(port: server.port)
        basic.authorization = "Basic " + Data("admin:admin".utf8).base64EncodedString()
        #expect(try basic.post("/incident.do?sys_id=\(Self.incidentID)", [("urgency", "3")]).status == 403)
        let page = try basic.get("/incident.do?sys_id=\(Self.incidentID)")
        #expect(page.status == 200)
        let accepted = try basic.post(
            "/incident.do?sys_id=\(Self.incidentID)",
            [("sysparm_ck", page.csrfToken ?? ""), ("sysparm_action", "save"), ("urgency", "3")])
        #expect(accepted.status == 303)
    }

    @Test func aSaveGoesThroughTheTableAPIsRulesAndARefusalShowsItsMessage() async throws {
        defer { server.stop() }
        let client = try loggedIn()
        let form = try client.get("/incident.do?sys_id=\(Self.incidentID)")
        let token = try #require(form.csrfToken)
        let saved = try client.post(
            "/incident.do?sys_id=\(Self.incidentID)",
            [("sysparm_ck", token), ("sysparm_action", "save"), ("urgency", "3"), ("impact", "1")])
        #expect(saved.status == 303)
        #expect(saved.header("Location") == "/incident.do?sys_id=\(Self.incidentID)&sysparm_msg=saved")
        // Priority from impact and urgency, and one more update, as a PATCH gives.
        #expect(
            try await incident("urgency,priority,sys_mod_count,sys_updated_by")
                == ["urgency": "3", "priority": "3", "sys_mod_count": "2", "sys_updated_by": "admin"])

        let refused = try client.post(
            "/incident.do?sys_id=\(Self.incidentID)",
            [("sysparm_ck", token), ("sysparm_action", "save"), ("opened_at", "2026-13-45 99:99:99")])
        #expect(refused.status == 400)
        #expect(
            refused.main.contains(
                #"<p class="error" role="alert">Invalid date value for opened_at: incident.opened_at is a "#
                    + #"glide_date_time field: &#39;2026-13-45 99:99:99&#39; is not a valid yyyy-MM-dd HH:mm:ss "#
                    + #"date-time (UTC)</p>"#))
        #expect(try await incident("sys_mod_count")["sys_mod_count"]?.string == "2")
    }

    @Test func theFormListsJournalEntriesAndAttachmentsAsDownloads() async throws {
        defer { server.stop() }
        let http = HTTPTestClient(port: server.port)
        let admin = "Basic " + Data("admin:admin".utf8).base64EncodedString()
        let uploaded = try await http.send(
            "POST",
            "/api/now/attachment/file?table_name=incident&table_sys_id=\(Self.incidentID)&file_name=r%C3%A9sum%C3%A9%20%3Cb%3E.txt",
            headers: ["Authorization": admin, "Content-Type": "text/plain"], body: Data("hello, file".utf8))
        #expect(uploaded.status == 201)
        let attachmentID = try #require(try JSONValue(json: uploaded.body)["result"]?["sys_id"]?.string)
        let client = try loggedIn()
        let form = try client.get("/incident.do?sys_id=\(Self.incidentID)")
        let noted = try client.post(
            "/incident.do?sys_id=\(Self.incidentID)",
            [("sysparm_ck", form.csrfToken ?? ""), ("sysparm_action", "save"), ("work_notes", "Called <the> user")])
        #expect(noted.status == 303)

        let shown = try client.get("/incident.do?sys_id=\(Self.incidentID)")
        #expect(
            shown.main.contains(
                #"<textarea id="f_work_notes" name="work_notes" placeholder="Add an entry"></textarea>"#
                    + #"<ul class="journal"><li>Called &lt;the&gt; user</li></ul>"#))
        #expect(
            shown.main.contains(
                """
                <h2>Attachments</h2>
                <ul>
                <li><a href="/sys_attachment.do?sys_id=\(attachmentID)" download>résumé &lt;b&gt;.txt</a> \
                <span class="muted">text/plain, 11 bytes</span></li>
                </ul>
                """))
        let file = try client.get("/sys_attachment.do?sys_id=\(attachmentID)")
        #expect(file.status == 200)
        #expect(file.body == "hello, file")
        #expect(file.header("Content-Disposition") == "attachment; filename*=UTF-8''r%C3%A9sum%C3%A9%20%3Cb%3E.txt")
        #expect(file.header("Content-Type") == "application/octet-stream")
        #expect(try client.get("/sys_attachment.do?sys_id=nothing").status == 404)
    }

    @Test func aPasswordIsShownMaskedAndNeverTakenFromTheForm() async throws {
        defer { server.stop() }
        let client = try loggedIn()
        let users = try client.get(
            "/sys_user_list.do?sysparm_query=user_name%3Dadmin&sysparm_fields=sys_id,user_password")
        let sysID = try #require(
            users.main.components(separatedBy: "/sys_user.do?sys_id=").dropFirst().first?.prefix { $0 != "\"" })
        #expect(users.main.contains("<td>********</td>"))
        let form = try client.get("/sys_user.do?sys_id=\(sysID)")
        #expect(
            form.main.contains(
                #"<span class="label" title="user_password (string)">Password</span><span class="value">********</span>"#
            ))
        #expect(!form.main.contains(#"name="user_password""#))
        let saved = try client.post(
            "/sys_user.do?sys_id=\(sysID)",
            [("sysparm_ck", form.csrfToken ?? ""), ("sysparm_action", "save"), ("user_password", "taken")])
        #expect(saved.status == 303)
        #expect(try WebClient(port: server.port).logIn(password: "admin").status == 303)
    }

    @Test func aUserWithoutTheTablesRoleIsRefusedAsThePATCHWouldBe() async throws {
        defer { server.stop() }
        let http = HTTPTestClient(port: server.port)
        let admin = "Basic " + Data("admin:admin".utf8).base64EncodedString()
        let found = try await http.send(
            "GET", "/api/now/table/sys_user?sysparm_query=user_name%3Dabel.tuter&sysparm_fields=sys_id",
            headers: ["Authorization": admin])
        let abel = try #require(try JSONValue(json: found.body)["result"]?[0]?["sys_id"]?.string)
        let set = try await http.send(
            "PATCH", "/api/now/table/sys_user/\(abel)",
            headers: ["Authorization": admin, "Content-Type": "application/json"],
            body: Data(#"{"user_password":"Abel-2026"}"#.utf8))
        #expect(set.status == 200)
        let client = WebClient(port: server.port)
        #expect(try client.logIn(user: "abel.tuter", password: "Abel-2026").status == 303)
        let before = try await incident("urgency,sys_mod_count")
        let form = try client.get("/incident.do?sys_id=\(Self.incidentID)")
        #expect(form.status == 200)
        let refused = try client.post(
            "/incident.do?sys_id=\(Self.incidentID)",
            [("sysparm_ck", form.csrfToken ?? ""), ("sysparm_action", "save"), ("urgency", "3")])
        #expect(refused.status == 403)
        #expect(
            refused.main.contains(
                #"<p class="error" role="alert">Operation Failed: ACL Exception Update Failed due to security "#
                    + #"constraints</p>"#))
        #expect(try await incident("urgency,sys_mod_count") == before)
    }

    @Test func theListShowsTheQueryAsChipsAndTextSortsPagesAndCounts() async throws {
        defer { server.stop() }
        let counted = try await HTTPTestClient(port: server.port).send(
            "GET", "/api/now/table/incident?sysparm_query=priority%3D1%5Eactive%3Dtrue&sysparm_limit=1",
            headers: ["Authorization": "Basic " + Data("admin:admin".utf8).base64EncodedString()])
        let total = try #require(counted.header("X-Total-Count"))
        let client = try loggedIn()
        // The page's numbers are the API's.
        let page = try client.get(
            "/incident_list.do?sysparm_query=priority%3D1%5Eactive%3Dtrue%5EORDERBYDESCnumber"
                + "&sysparm_fields=number,caller_id,opened_at&sysparm_rows=2&sysparm_first_row=3")
        #expect(page.status == 200)
        let main = page.main
        let base = "/incident_list.do?sysparm_query="
        #expect(
            main.contains(
                """
                <ul class="chips" aria-label="Conditions">
                <li class="chip">Priority is 1 - Critical <a href="\(base)active%3Dtrue%5EORDERBYDESCnumber&amp;\
                sysparm_fields=number%2Ccaller_id%2Copened_at" aria-label="Remove Priority is 1 - Critical" \
                title="Remove">\u{00D7}</a></li>
                <li class="chip"><span class="join">and</span> Active is true <a href="\(base)priority%3D1%5E\
                ORDERBYDESCnumber&amp;sysparm_fields=number%2Ccaller_id%2Copened_at" aria-label="Remove Active is \
                true" title="Remove">\u{00D7}</a></li>
                <li class="chip">order by Number (descending) <a href="\(base)priority%3D1%5Eactive%3Dtrue&amp;\
                sysparm_fields=number%2Ccaller_id%2Copened_at" aria-label="Remove order by Number (descending)" \
                title="Remove">\u{00D7}</a></li>
                </ul>
                """))
        #expect(main.contains(#"value="priority=1^active=true^ORDERBYDESCnumber""#))
        #expect(main.contains("<p class=\"count\" role=\"status\">Rows 3 - 4 of \(total)</p>"))
        #expect(
            main.contains(
                #"<th scope="col" aria-sort="descending"><a href="\#(base)priority%3D1%5Eactive%3Dtrue%5EORDERBYnumber"#
                    + #"&amp;sysparm_fields=number%2Ccaller_id%2Copened_at&amp;sysparm_rows=2">Number \#u{25BC}</a></th>"#
                    + #"<th scope="col"><a href="\#(base)priority%3D1%5Eactive%3Dtrue%5EORDERBYcaller_id&amp;"#
                    + #"sysparm_fields=number%2Ccaller_id%2Copened_at&amp;sysparm_rows=2">Caller</a></th>"#))
        #expect(main.contains(#"rel="prev">\#u{2039} Previous</a>"#))
        #expect(main.contains(#"sysparm_first_row=5" rel="next">Next \#u{203A}</a>"#))
        // A reference links to its record; a date-time is shown in the user's zone with UTC on hover.
        let added = try client.get(
            "/incident_list.do?sysparm_query=active%3Dtrue%5EORDERBYnumber&sysparm_add_field=short_description"
                + "&sysparm_add_op=%2A&sysparm_add_value=a%5Eb")
        #expect(added.status == 303)
        #expect(
            added.header("Location")
                == "/incident_list.do?sysparm_query=active%3Dtrue%5Eshort_description%2Aa%5E%5Eb%5EORDERBYnumber")
        #expect(try client.get("/nav_to.do?uri=%2Fproblem_list.do").header("Location") == "/problem_list.do")
        let rows = main.components(separatedBy: "<tbody>\n").last ?? ""
        let first = rows.prefix { $0 != "\n" }
        #expect(first.contains(#"<a href="/sys_user.do?sys_id="#))
        #expect(first.contains(#"<time datetime=""#) && first.contains(#" UTC">"#))
    }

    @Test func aDeleteAsksFirstThenShowsInWhatChanged() throws {
        defer { server.stop() }
        let client = try loggedIn()
        let confirm = try client.get("/incident.do?sys_id=\(Self.incidentID)&sysparm_action=delete")
        #expect(confirm.main.hasPrefix("<h1>Delete Incident INC0010001?</h1>\n"))
        let token = try #require(confirm.csrfToken)
        let deleted = try client.post(
            "/incident.do?sys_id=\(Self.incidentID)", [("sysparm_ck", token), ("sysparm_action", "delete")])
        #expect(deleted.status == 303)
        #expect(deleted.header("Location") == "/incident_list.do?sysparm_msg=deleted")
        #expect(try client.get("/incident.do?sys_id=\(Self.incidentID)").status == 404)

        let changes = try client.get("/changes.do?since=2000-01-01T00:00:00Z")
        #expect(changes.status == 200)
        #expect(changes.main.contains("<h2>Deleted (1)</h2>\n"))
        #expect(
            changes.main.contains("<td>Incident</td><td>INC0010001</td><td>\(Self.incidentID)</td><td>admin</td></tr>"))
        #expect(try client.get("/changes.do?since=yesterday").status == 400)
    }

    @Test func theNavigatorCountsAndLogoutEndsTheSession() async throws {
        defer { server.stop() }
        let counted = try await HTTPTestClient(port: server.port).send(
            "GET", "/api/now/table/incident?sysparm_limit=1",
            headers: ["Authorization": "Basic " + Data("admin:admin".utf8).base64EncodedString()])
        let total = try #require(counted.header("X-Total-Count"))
        let client = try loggedIn()
        let session = try #require(client.cookies["nowflow_session"])
        let page = try client.get("/now")
        #expect(
            page.main.contains(
                #"<li><a href="/incident_list.do">Incident</a><span class="count" title="incident">\#(total)</span></li>"#
            ))
        #expect(
            try client.get("/now?sysparm_search=zzz").main
                == "<h1>Tables</h1>\n<p class=\"count\" role=\"status\">0 of 88 tables match \u{201C}zzz\u{201D} "
                + "<a href=\"/now\">Show all</a></p>\n<div class=\"groups\">\n</div>\n")
        let out = try client.post("/logout.do", [("sysparm_ck", page.csrfToken ?? "")])
        #expect(out.status == 303)
        #expect(out.setCookies == ["nowflow_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict"])
        client.cookies["nowflow_session"] = session
        #expect(try client.get("/now").status == 303)
    }

    @Test func theNavigatorCountsOnlyTheRecordsTheUserMayRead() async throws {
        defer { server.stop() }
        let http = HTTPTestClient(port: server.port)
        let admin = "Basic " + Data("admin:admin".utf8).base64EncodedString()
        let created = try await http.send(
            "POST", "/api/now/table/oauth_entity", headers: ["Authorization": admin, "Content-Type": "application/json"],
            body: Data(#"{"name":"Secret integration","client_id":"navigator-test"}"#.utf8))
        #expect(created.status == 201)
        let found = try await http.send(
            "GET", "/api/now/table/sys_user?sysparm_query=user_name%3Djoe.employee&sysparm_fields=sys_id",
            headers: ["Authorization": admin])
        let joe = try #require(try JSONValue(json: found.body)["result"]?[0]?["sys_id"]?.string)
        let set = try await http.send(
            "PATCH", "/api/now/table/sys_user/\(joe)", headers: ["Authorization": admin, "Content-Type": "application/json"],
            body: Data(#"{"user_password":"Joe-2026"}"#.utf8))
        #expect(set.status == 200)
        let entity = #"<span class="count" title="oauth_entity">"#

        let administrator = try loggedIn()
        #expect(try administrator.get("/now?sysparm_search=oauth").main.contains(entity + "1</span>"))
        // joe.employee holds no role: the Table API gives him none of the OAuth applications, and neither does the
        // navigator's count.
        let employee = WebClient(port: server.port)
        #expect(try employee.logIn(user: "joe.employee", password: "Joe-2026").status == 303)
        #expect(try employee.get("/now?sysparm_search=oauth").main.contains(entity + "0</span>"))
    }

    @Test func theAPIsAnswerAsBeforeBesideTheWebViews() async throws {
        defer { server.stop() }
        let http = HTTPTestClient(port: server.port)
        let unknown = try await http.send("GET", "/api/now/tables/incident")
        #expect(unknown.status == 400)
        #expect(
            String(decoding: unknown.body, as: UTF8.self)
                == #"{"error":{"message":"Requested URI does not represent any resource","detail":null},"status":"failure"}"#
        )
        let anonymous = try await http.send("GET", "/api/now/table/incident")
        #expect(anonymous.status == 401)
        #expect(try await http.send("GET", "/u_nothing_list.do").status == 400)
        let css = try WebClient(port: server.port).get("/web/style.css")
        #expect(css.status == 200 && css.header("Content-Type") == "text/css;charset=UTF-8")
    }
}
