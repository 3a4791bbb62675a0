import Foundation
@testable import LocalInstance
import NowData
import TestSupport
import Testing

/// The web views as a ServiceNow user reads them: condition chips with choice labels and the conditions the
/// instance ignores marked so, a form in its table's layout with Update and Delete in its header, labels without
/// their types, reference fields written and saved by display value, and each record's field-level history.
@Suite struct WebPlatformViewTests {
    let server: LocalInstanceServer

    static let incidentID = "77c017c10d784d2d1c396fa61dce21ac"  // INC0010001 in the demo data
    static let abelTuter = "dbbd5520a9542c7bfd1b56b7cc0fb54a"
    static let admin = "Basic " + Data("admin:admin".utf8).base64EncodedString()

    init() throws {
        server = try LocalInstanceServer(options: LocalInstance.Options(adminPassword: "admin", log: { _ in }))
    }

    func loggedIn() throws -> WebClient {
        let client = WebClient(port: server.port)
        #expect(try client.logIn().status == 303)
        return client
    }

    func incident(_ fields: String) async throws -> JSONValue {
        let response = try await HTTPTestClient(port: server.port).send(
            "GET",
            "/api/now/table/incident/\(Self.incidentID)?sysparm_fields=\(fields)&sysparm_exclude_reference_link=true",
            headers: ["Authorization": Self.admin])
        return try JSONValue(json: response.body)["result"] ?? .null
    }

    @Test func chipsShowChoiceLabelsAndMarkTheConditionsTheInstanceIgnores() async throws {
        defer { server.stop() }
        let counted = try await HTTPTestClient(port: server.port).send(
            "GET", "/api/now/table/incident?sysparm_query=state!%3D7%5EpriorityIN1,2&sysparm_limit=1",
            headers: ["Authorization": Self.admin])
        let total = try #require(counted.header("X-Total-Count"))
        let page = try loggedIn().get(
            "/incident_list.do?sysparm_query=priorty%3D1%5Eactive%3Dyes%5Estate!%3D7%5EpriorityIN1,2"
                + "&sysparm_fields=number")
        #expect(page.status == 200)
        let base = "/incident_list.do?sysparm_query="
        #expect(
            page.main.contains(
                """
                <ul class="chips" aria-label="Conditions">
                <li class="chip invalid"><s>priorty is 1</s> <span class="note">ignored: incident has no field \
                &#39;priorty&#39;</span> <a href="\(base)active%3Dyes%5Estate%21%3D7%5EpriorityIN1%2C2&amp;\
                sysparm_fields=number" aria-label="Remove priorty is 1" title="Remove">\u{00D7}</a></li>
                <li class="chip invalid"><span class="join">and</span> <s>Active is yes</s> <span class="note">ignored: \
                active is a boolean field, &#39;yes&#39; is not true or false</span> <a href="\(base)priorty%3D1%5E\
                state%21%3D7%5EpriorityIN1%2C2&amp;sysparm_fields=number" aria-label="Remove Active is yes" \
                title="Remove">\u{00D7}</a></li>
                <li class="chip"><span class="join">and</span> State is not Closed <a href="\(base)priorty%3D1%5E\
                active%3Dyes%5EpriorityIN1%2C2&amp;sysparm_fields=number" aria-label="Remove State is not Closed" \
                title="Remove">\u{00D7}</a></li>
                <li class="chip"><span class="join">and</span> Priority is one of 1 - Critical, 2 - High <a \
                href="\(base)priorty%3D1%5Eactive%3Dyes%5Estate%21%3D7&amp;sysparm_fields=number" aria-label="Remove \
                Priority is one of 1 - Critical, 2 - High" title="Remove">\u{00D7}</a></li>
                </ul>
                """))
        // The count is that of the conditions applied, as the API's.
        #expect(page.main.contains("<p class=\"count\" role=\"status\">Rows 1 - \(total) of \(total)</p>"))
    }

    @Test func theFormHasUpdateAndDeleteInItsHeaderAndLabelsWithoutTypes() throws {
        defer { server.stop() }
        let form = try loggedIn().get("/incident.do?sys_id=\(Self.incidentID)")
        let delete = "/incident.do?sys_id=\(Self.incidentID)&amp;sysparm_action=delete"
        #expect(
            form.main.hasPrefix(
                """
                <div class="form-header"><h1>Incident <span class="muted">INC0010001</span></h1><div class="actions">\
                <button type="submit" form="record">Update</button> <a href="\(delete)">Delete\u{2026}</a></div></div>
                <p><a href="/incident_list.do">\u{2190} Incident list</a></p>
                <form id="record" method="post" action="/incident.do?sys_id=\(Self.incidentID)">
                """))
        #expect(
            form.main.contains(
                """
                </details>
                <div class="actions"><button type="submit" form="record">Update</button> <a href="\(delete)">\
                Delete\u{2026}</a></div>
                <datalist id="l_sys_user">
                """))
        #expect(
            form.main.contains(
                #"<label for="f_state" title="state (integer)">State</label><span class="value"><select id="f_state" "#
                    + #"name="state"><option value="">-- None --</option><option value="1" selected>New</option>"#))
        #expect(!form.main.contains(#"class="type""#))
        #expect(
            form.main.contains(
                #"<span class="label" title="sys_mod_count (integer)">Updates</span><span class="value">1</span>"#))
    }

    /// The form's sections, columns and fields, one line each, up to the folded "Other fields".
    static func skeleton(_ html: String) throws -> String {
        let pattern = try NSRegularExpression(
            pattern: #"<section class="form-section">(?:<h2>([^<]*)</h2>)?|<div class="(columns|fields)">"#
                + #"|<summary>(Other fields)</summary>|<label for="f_(\w+)"|<span class="label" title="(\w+)"#)
        var lines: [String] = []
        for match in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            func group(_ index: Int) -> String? { Range(match.range(at: index), in: html).map { String(html[$0]) } }
            if let other = group(3) {
                lines.append("## \(other)")
                break
            } else if let kind = group(2) {
                lines.append(kind)
            } else if let name = group(4) ?? group(5) {
                lines.append("  " + name)
            } else {
                lines.append("## " + (group(1) ?? ""))
            }
        }
        return lines.joined(separator: "\n")
    }

    @Test func aFormShowsItsTablesLayoutAndTheOtherFieldsFolded() throws {
        defer { server.stop() }
        let client = try loggedIn()
        let incident = try client.get("/incident.do?sys_id=\(Self.incidentID)")
        #expect(
            try Self.skeleton(incident.main) == """
                ## 
                columns
                fields
                  number
                  caller_id
                  category
                  subcategory
                  business_service
                  service_offering
                  cmdb_ci
                fields
                  opened_at
                  contact_type
                  state
                  hold_reason
                  impact
                  urgency
                  priority
                  assignment_group
                  assigned_to
                fields
                  short_description
                  description
                ## Notes
                fields
                  watch_list
                  comments
                  work_notes
                ## Related Records
                columns
                fields
                  parent_incident
                  problem_id
                fields
                  rfc
                  caused_by
                ## Resolution Information
                columns
                fields
                  knowledge
                  close_code
                  resolved_by
                fields
                  resolved_at
                fields
                  close_notes
                ## Other fields
                """)
        // Every field is still on the form, once.
        let table = try #require(TableDictionary.builtIn.table("incident"))
        for field in table.fields where !TableDefinition.systemFieldNames.contains(field.name) {
            #expect(incident.main.components(separatedBy: "for=\"f_\(field.name)\"").count == 2, "\(field.name)")
        }
        // A table without a declared layout: its fields in two columns, the description across the page below.
        let group = try client.get("/sys_user_group.do?sys_id=4ab9afd4f0c9a2c86da09d2223067458")
        #expect(
            try Self.skeleton(group.main) == """
                ## 
                columns
                fields
                  name
                  email
                  manager
                  parent
                  active
                  cost_center
                  default_assignee
                fields
                  exclude_manager
                  include_members
                  roles
                  source
                  sys_tags
                  type
                fields
                  description
                fields
                  sys_id
                  sys_created_on
                  sys_created_by
                  sys_updated_on
                  sys_updated_by
                  sys_mod_count
                  sys_class_name
                """)
    }

    @Test func everyFieldADeclaredLayoutNamesIsOneOfItsTables() throws {
        defer { server.stop() }
        for (name, layout) in FormLayout.builtIn {
            let table = try #require(TableDictionary.builtIn.table(name), "\(name)")
            for field in layout.sections.flatMap(\.fieldNames) {
                #expect(table.field(field) != nil, "\(name) has no field \(field)")
            }
        }
    }

    @Test func aReferenceIsWrittenAndSavedByDisplayValue() async throws {
        defer { server.stop() }
        let client = try loggedIn()
        let form = try client.get("/incident.do?sys_id=\(Self.incidentID)")
        let token = try #require(form.csrfToken)
        let lookup = "/lookup.do?sysparm_table=incident&amp;sys_id=\(Self.incidentID)&amp;sysparm_field=assignment_group"
        let row: String =
            #"<label for="f_assignment_group" title="assignment_group (reference to sys_user_group)">"#
            + #"Assignment group</label><span class="value"><input type="text" id="f_assignment_group" "#
            + #"name="assignment_group" list="l_sys_user_group" value="Service Desk" autocomplete="off"> "#
            + #"<a href="\#(lookup)">Look up</a>"#
            + #"<span><a href="/sys_user_group.do?sys_id=4ab9afd4f0c9a2c86da09d2223067458">Service Desk</a>"#
            + "</span></span>\n"
        #expect(form.main.contains(row))
        #expect(form.main.contains(#"<option value="Abel Tuter"></option>"#))
        let path = "/incident.do?sys_id=\(Self.incidentID)"

        // The display value as shown is no change.
        let same = try client.post(
            path, [("sysparm_ck", token), ("sysparm_action", "save"), ("assignment_group", "Service Desk")])
        #expect(same.status == 303)
        #expect(try await incident("sys_mod_count")["sys_mod_count"]?.string == "1")

        let saved = try client.post(
            path, [("sysparm_ck", token), ("sysparm_action", "save"), ("assigned_to", "Abel Tuter")])
        #expect(saved.status == 303)
        #expect(
            try await incident("assigned_to,sys_mod_count")
                == ["assigned_to": .string(Self.abelTuter), "sys_mod_count": "2"])

        let unknown = try client.post(
            path, [("sysparm_ck", token), ("sysparm_action", "save"), ("assigned_to", "Nobody Here")])
        #expect(unknown.status == 400)
        #expect(
            unknown.main.contains(
                #"<p class="error" role="alert">Assigned to: no User record is named &#39;Nobody Here&#39;; pick "#
                    + "one from the list as you type</p>"))
        #expect(try await incident("assigned_to")["assigned_to"]?.string == Self.abelTuter)

        let cleared = try client.post(path, [("sysparm_ck", token), ("sysparm_action", "save"), ("assigned_to", "")])
        #expect(cleared.status == 303)
        #expect(try await incident("assigned_to")["assigned_to"]?.string == "")
    }

    /// `html` with every `<time>` (the moment a test ran) as `TIME`.
    static func timeless(_ html: String) -> String {
        html.replacingOccurrences(of: #"<time [^>]*>[^<]*</time>"#, with: "TIME", options: .regularExpression)
    }

    @Test func aRecordsHistoryShowsEachWriteFromTheAPIAndTheFormAndNoPassword() async throws {
        defer { server.stop() }
        let http = HTTPTestClient(port: server.port)
        let patched = try await http.send(
            "PATCH", "/api/now/table/incident/\(Self.incidentID)",
            headers: ["Authorization": Self.admin, "Content-Type": "application/json"],
            body: Data(#"{"short_description":"From the API","assigned_to":"\#(Self.abelTuter)"}"#.utf8))
        #expect(patched.status == 200)
        let client = try loggedIn()
        let form = try client.get("/incident.do?sys_id=\(Self.incidentID)")
        let saved = try client.post(
            "/incident.do?sys_id=\(Self.incidentID)",
            [("sysparm_ck", form.csrfToken ?? ""), ("sysparm_action", "save"), ("state", "2")])
        #expect(saved.status == 303)
        let password = try await http.send(
            "PATCH", "/api/now/table/sys_user/\(Self.abelTuter)",
            headers: ["Authorization": Self.admin, "Content-Type": "application/json"],
            body: Data(#"{"user_password":"Hist-Secret-2026"}"#.utf8))
        #expect(password.status == 200)

        let history = Self.timeless(try client.get("/incident.do?sys_id=\(Self.incidentID)").main)
        let abel = #"<a href="/sys_user.do?sys_id=\#(Self.abelTuter)">Abel Tuter</a>"#
        #expect(
            history.contains(
                """
                <h2>History</h2>
                <div class="scroll"><table><thead><tr><th scope="col">When</th><th scope="col">Field</th>\
                <th scope="col">Was</th><th scope="col">Now</th><th scope="col">By</th></tr></thead><tbody>
                <tr><td>TIME</td><td>State</td><td>New</td><td>In Progress</td><td>admin</td></tr>
                <tr><td>TIME</td><td>Short description</td><td>Email server is down</td><td>From the API</td>\
                <td>admin</td></tr>
                <tr><td>TIME</td><td>Assigned to</td><td></td><td>\(abel)</td><td>admin</td></tr>
                </tbody></table></div>

                """))
        let changes = Self.timeless(try client.get("/changes.do?since=2000-01-01").main)
        let incident = #"<td>Incident</td><td><a href="/incident.do?sys_id=\#(Self.incidentID)">INC0010001</a></td>"#
        #expect(
            changes.contains(
                """
                <h2>Field changes (4)</h2>
                <div class="scroll"><table><thead><tr><th scope="col">When</th><th scope="col">Table</th>\
                <th scope="col">Record</th><th scope="col">Field</th><th scope="col">Was</th><th scope="col">Now</th>\
                <th scope="col">By</th></tr></thead><tbody>
                <tr><td>TIME</td><td>User</td><td>\(abel)</td><td>Password</td><td colspan="2" class="muted">changed \
                (a password: not shown)</td><td>admin</td></tr>
                <tr><td>TIME</td>\(incident)<td>State</td><td>New</td><td>In Progress</td><td>admin</td></tr>
                <tr><td>TIME</td>\(incident)<td>Short description</td><td>Email server is down</td><td>From the API\
                </td><td>admin</td></tr>
                <tr><td>TIME</td>\(incident)<td>Assigned to</td><td></td><td>\(abel)</td><td>admin</td></tr>
                </tbody></table></div>
                """))
        // The password is recorded as changed, without its value (nor its hash).
        let audit = try await http.send(
            "GET",
            "/api/now/table/sys_audit?sysparm_query=documentkey=\(Self.abelTuter)"
                + "&sysparm_fields=fieldname,oldvalue,newvalue,user",
            headers: ["Authorization": Self.admin])
        #expect(
            String(decoding: audit.body, as: UTF8.self)
                == #"{"result":[{"fieldname":"user_password","oldvalue":"","newvalue":"","user":"admin"}]}"#)
        #expect(!changes.contains("Hist-Secret-2026"))
    }

    @Test func aCreatedRecordsHistoryAndADeletionShowOnTheFormAndInWhatChanged() async throws {
        defer { server.stop() }
        let client = try loggedIn()
        let http = HTTPTestClient(port: server.port)
        let created = try await http.send(
            "POST", "/api/now/table/sys_user_group",
            headers: ["Authorization": Self.admin, "Content-Type": "application/json"],
            body: Data(#"{"name":"Night Shift","description":"Weekends"}"#.utf8))
        #expect(created.status == 201)
        let sysID = try #require(try JSONValue(json: created.body).value(at: "result.sys_id").string)
        let location = "/sys_user_group.do?sys_id=\(sysID)"
        let form = Self.timeless(try client.get(location).main)
        #expect(
            form.contains(
                """
                <h2>History</h2>
                <div class="scroll"><table><thead><tr><th scope="col">When</th><th scope="col">Field</th>\
                <th scope="col">Was</th><th scope="col">Now</th><th scope="col">By</th></tr></thead><tbody>
                <tr><td>TIME</td><td>Name</td><td class="muted">created</td><td>Night Shift</td><td>admin</td></tr>
                <tr><td>TIME</td><td>Description</td><td class="muted">created</td><td>Weekends</td><td>admin</td></tr>
                <tr><td>TIME</td><td>Active</td><td class="muted">created</td><td>true</td><td>admin</td></tr>
                <tr><td>TIME</td><td>Exclude manager</td><td class="muted">created</td><td>false</td><td>admin</td></tr>
                <tr><td>TIME</td><td>Include members</td><td class="muted">created</td><td>false</td><td>admin</td></tr>
                </tbody></table></div>

                """))
        let deleted = try await http.send(
            "DELETE", "/api/now/table/sys_user_group/\(sysID)", headers: ["Authorization": Self.admin])
        #expect(deleted.status == 204)
        let changes = Self.timeless(try client.get("/changes.do?since=2000-01-01").main)
        let group = #"<td>Group</td><td><a href="/sys_user_group.do?sys_id=\#(sysID)">\#(sysID)</a></td>"#
        #expect(
            changes.contains(
                """
                <h2>Field changes (6)</h2>
                <div class="scroll"><table><thead><tr><th scope="col">When</th><th scope="col">Table</th>\
                <th scope="col">Record</th><th scope="col">Field</th><th scope="col">Was</th><th scope="col">Now</th>\
                <th scope="col">By</th></tr></thead><tbody>
                <tr><td>TIME</td>\(group)<td colspan="3">Record deleted</td><td>admin</td></tr>
                <tr><td>TIME</td>\(group)<td>Name</td><td class="muted">created</td><td>Night Shift</td><td>admin</td></tr>
                <tr><td>TIME</td>\(group)<td>Description</td><td class="muted">created</td><td>Weekends</td>\
                <td>admin</td></tr>
                <tr><td>TIME</td>\(group)<td>Active</td><td class="muted">created</td><td>true</td><td>admin</td></tr>
                <tr><td>TIME</td>\(group)<td>Exclude manager</td><td class="muted">created</td><td>false</td>\
                <td>admin</td></tr>
                <tr><td>TIME</td>\(group)<td>Include members</td><td class="muted">created</td><td>false</td>\
                <td>admin</td></tr>
                </tbody></table></div>
                """))
    }

    @Test func theNavigatorHasOneSearchBoxAndThePlatformsApplications() async throws {
        defer { server.stop() }
        let http = HTTPTestClient(port: server.port)
        var counts: [String: String] = [:]
        for table in [
            "chg_mgt_worker", "chg_model", "change_request", "change_task", "std_change_record_producer",
            "std_change_producer_version",
        ] {
            counts[table] = try await http.send(
                "GET", "/api/now/table/\(table)?sysparm_limit=1", headers: ["Authorization": Self.admin]
            ).header("X-Total-Count")
        }
        let page = try loggedIn().get("/now?sysparm_search=change")
        #expect(page.body.components(separatedBy: "role=\"search\"").count == 2)
        #expect(
            page.body.contains(
                #"<input id="nav-search" name="sysparm_search" type="search" placeholder="Search tables" "#
                    + #"value="change">"#))
        func item(_ name: String, _ label: String) -> String {
            #"<li><a href="/\#(name)_list.do">\#(label)</a><span class="count" title="\#(name)">"#
                + "\(counts[name] ?? "")</span></li>\n"
        }
        #expect(
            page.main
                == "<h1>Tables</h1>\n<p class=\"count\" role=\"status\">6 of 88 tables match \u{201C}change\u{201D} "
                + "<a href=\"/now\">Show all</a></p>\n<div class=\"groups\">\n"
                + "<section aria-label=\"Change\"><h2>Change</h2><ul>\n"
                + item("chg_mgt_worker", "Change Management Worker") + item("chg_model", "Change Model") + item("change_request", "Change Request")
                + item("change_task", "Change Task") + item("std_change_record_producer", "Standard Change Template")
                + item("std_change_producer_version", "Standard Change Template Version")
                + "</ul></section>\n</div>\n")
        let all = try loggedIn().get("/now").main
        let groups = all.components(separatedBy: "<h2>").dropFirst().compactMap { $0.components(separatedBy: "</h2>").first }
        #expect(
            groups == [
                "Asset", "Change", "Configuration", "Incident", "Knowledge", "Organization", "Problem", "Self-Service",
                "Service Catalog", "Service Desk", "System Definition", "System Import Sets", "System Logs",
                "System OAuth", "System Security", "System UI", "System Web Services", "User Administration",
            ])
    }

    @Test func aReferenceIsLookedUpOnAPageOfItsOwnAndChosenForTheForm() async throws {
        defer { server.stop() }
        let client = try loggedIn()
        let form = try client.get("/incident.do?sys_id=\(Self.incidentID)")
        let link =
            "/lookup.do?sysparm_table=incident&amp;sys_id=\(Self.incidentID)&amp;sysparm_field=assigned_to"
        #expect(form.main.contains(#"autocomplete="off"> <a href="\#(link)">Look up</a>"#))

        let users = try await HTTPTestClient(port: server.port).send(
            "GET", "/api/now/table/sys_user?sysparm_limit=1", headers: ["Authorization": Self.admin])
        let total = try #require(users.header("X-Total-Count"))
        let all = try client.get(link.replacingOccurrences(of: "&amp;", with: "&"))
        #expect(all.main.contains("<p class=\"count\" role=\"status\">Rows 1 - 20 of \(total)</p>\n"))
        #expect(all.main.contains(#"rel="next">Next"#))

        let page = try client.get(link.replacingOccurrences(of: "&amp;", with: "&") + "&sysparm_search=abel")
        let back = "/incident.do?sys_id=\(Self.incidentID)"
        #expect(
            page.main
                == """
                <h1>Look up User for Assigned to</h1>
                <p><a href="\(back)">← Back to the Incident (nothing chosen)</a></p>
                <form class="query" method="get" action="/lookup.do" role="search">\
                <input type="hidden" name="sysparm_table" value="incident">\
                <input type="hidden" name="sys_id" value="\(Self.incidentID)">\
                <input type="hidden" name="sysparm_field" value="assigned_to">\
                <label for="lookup-search">User name contains</label>\
                <input type="text" id="lookup-search" name="sysparm_search" value="abel">\
                <button type="submit">Search</button></form>
                <p class="count" role="status">Rows 1 - 1 of 1</p>
                <ul class="lookup">
                <li><a href="\(back)&amp;sysparm_lookup_field=assigned_to&amp;sysparm_lookup_value=\(Self.abelTuter)">\
                Abel Tuter</a></li>
                </ul>

                """)
        let chosen = try client.get(
            "\(back)&sysparm_lookup_field=assigned_to&sysparm_lookup_value=\(Self.abelTuter)")
        #expect(
            chosen.main.contains(
                #"name="assigned_to" list="l_sys_user" value="Abel Tuter" autocomplete="off"> <a href="\#(link)">"#
                    + #"Look up</a><span><a href="/sys_user.do?sys_id=\#(Self.abelTuter)">Abel Tuter</a></span>"#
                    + #"<span class="note">Chosen: saved on Update</span></span>"#))
        let saved = try client.post(
            back, [("sysparm_ck", chosen.csrfToken ?? ""), ("sysparm_action", "save"), ("assigned_to", "Abel Tuter")])
        #expect(saved.status == 303)
        #expect(try await incident("assigned_to")["assigned_to"]?.string == Self.abelTuter)
        #expect(try client.get("/lookup.do?sysparm_table=incident&sys_id=x&sysparm_field=short_description").status == 400)
    }
}
