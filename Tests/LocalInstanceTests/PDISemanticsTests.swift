import Foundation
import NowData
import Testing

@testable import LocalInstance

/// The platform's query and write semantics that tests written against a PDI rely on: JOIN and RLQUERY
/// conditions, case-insensitive text, the `javascript:gs.*` date helpers, date-time display values in the user's
/// time zone and format, and business rules that abort a write.
@Suite struct PDISemanticsTests {
    let harness: Harness

    init() throws {
        harness = try Harness()
    }

    private func names(_ table: String, _ query: String, field: String = "name") async throws -> String {
        let response = try await harness.send(
            "GET", "/api/now/table/\(table)", query: [("sysparm_query", query), ("sysparm_fields", field)])
        return Harness.text(response)
    }

    @Test func joinFindsTheUsersWhoManageAnActiveGroup() async throws {
        #expect(
            try await names("sys_user", "JOINsys_user.sys_id=sys_user_group.manager!active=true^ORDERBYuser_name",
                field: "user_name")
                == #"{"result":[{"user_name":"beth.anglin"},{"user_name":"bud.richman"},"#
                + #"{"user_name":"charlie.whitherspoon"},{"user_name":"david.loo"},{"user_name":"don.goodliffe"},"#
                + #"{"user_name":"luke.wilson"},{"user_name":"ron.kettering"}]}"#)
        #expect(
            try await names("sys_user", "JOINsys_user.sys_id=sys_user_group.manager!active=false", field: "user_name")
                == #"{"result":[]}"#)
    }

    @Test func joinThroughTheRolesCountsTheAdministrators() async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/sys_user",
            query: [
                ("sysparm_query", "JOINsys_user.sys_id=sys_user_has_role.user!role=2831a114c611228501d4ea6c309d626d"),
                ("sysparm_fields", "user_name"), ("sysparm_limit", "3"),
            ])
        #expect(response.headers["X-Total-Count"] == "12")
        #expect(
            Harness.text(response)
                == #"{"result":[{"user_name":"admin"},{"user_name":"bud.richman"},"#
                + #"{"user_name":"charlie.whitherspoon"}]}"#)
    }

    @Test func relatedListQueryCountsTheRelatedRecords() async throws {
        #expect(
            try await names(
                "sys_user_group", "RLQUERYsys_group_has_role.group,>0,m2m^role.nameLIKEadmin^ENDRLQUERY^ORDERBYname")
                == #"{"result":[{"name":"Change Management"},{"name":"Problem Solving"},{"name":"Service Desk"},"#
                + #"{"name":"Software"}]}"#)
        #expect(
            try await names(
                "sys_user_group", "RLQUERYsys_group_has_role.group,=0^role.nameLIKEadmin^ENDRLQUERY^ORDERBYname")
                == #"{"result":[{"name":"Database"},{"name":"Hardware"},{"name":"Network"}]}"#)
        #expect(
            try await names("sys_user_group", "RLQUERYsys_user_grmember.group,>=3^ENDRLQUERY^ORnameSTARTSWITHHard")
                == #"{"result":[{"name":"Service Desk"},{"name":"Hardware"}]}"#)
    }

    @Test func anInvalidJoinIsIgnoredWithAWarning() async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/sys_user_group",
            query: [("sysparm_query", "JOINsys_user_group.sys_id=no_table.group!active=true^name=Network"),
                ("sysparm_fields", "name")])
        #expect(Harness.text(response) == #"{"result":[{"name":"Network"}]}"#)
        #expect(
            harness.log.all.contains(
                "local instance: sys_user_group: ignored invalid condition "
                    + "'JOINsys_user_group.sys_id=no_table.group!active=true': no_table has no field 'group'"))
    }

    @Test func textComparesCaseInsensitively() async throws {
        let pairs = try await harness.send(
            "GET", "/api/now/table/sys_user_group", query: [("name", "network"), ("sysparm_fields", "name")])
        #expect(Harness.text(pairs) == #"{"result":[{"name":"Network"}]}"#)
        #expect(
            try await names("sys_user_group", "nameINnetwork,DATABASE^ORDERBYname")
                == #"{"result":[{"name":"Database"},{"name":"Network"}]}"#)
        #expect(
            try await names("sys_user_group", "name!=NETWORK^nameSTARTSWITHha^ORnameLIKEDESK^ORDERBYname")
                == #"{"result":[{"name":"Hardware"},{"name":"Service Desk"}]}"#)
        #expect(
            try await names("sys_user_group", "nameNOT INnetwork,hardware,database,software^ORDERBYname")
                == #"{"result":[{"name":"Change Management"},{"name":"Problem Solving"},{"name":"Service Desk"}]}"#)
    }

    @Test func dateHelpersOfListFiltersAreComputed() async throws {
        let created = try await harness.send(
            "POST", "/api/now/table/incident", body: #"{"short_description":"Opened today"}"#)
        let number = try #require(try Harness.result(created)["number"] as? String)
        let today = #"{"result":[{"number":"\#(number)"}]}"#
        #expect(try await names("incident", "opened_at>=javascript:gs.beginningOfToday()", field: "number") == today)
        #expect(
            try await names(
                "incident", "opened_atONToday@javascript:gs.beginningOfToday()@javascript:gs.endOfToday()",
                field: "number") == today)
        #expect(
            try await names(
                "incident", "opened_atBETWEENjavascript:gs.minutesAgo(1)@javascript:gs.daysAgoEnd(0)",
                field: "number") == today)
        #expect(
            try await names("incident", "opened_at>javascript:gs.endOfToday()^ORopened_at<javascript:gs.yearsAgo(1)",
                field: "number") == #"{"result":[]}"#)
        // The "Last N" ranges, as servicenow-rest-api's README filters incidents opened in the last 6 months.
        #expect(
            try await names(
                "incident",
                "short_description=Opened today^opened_atONLast 6 months@javascript:gs.beginningOfLast6Months()"
                    + "@javascript:gs.endOfLast6Months()", field: "number") == today)
        let refused = try await harness.send(
            "GET", "/api/now/table/incident", query: [("sysparm_query", "caller_id=javascript:gs.getUserID()")])
        #expect(refused.statusCode == 400)
        #expect(
            Harness.text(refused)
                == #"{"error":{"message":"Invalid query","detail":"encoded query condition "#
                + #"'caller_id=javascript:gs.getUserID()' has a javascript: value; the local instance does not run "#
                + #"scripts"},"status":"failure"}"#)
    }

    @Test func dateHelpersAreComputedInTheSessionUsersTimeZone() async throws {
        // The clock stands at 2026-11-30 09:00:00 UTC: 01:00 in Los Angeles (UTC-8), 18:00 in Tokyo (UTC+9).
        for (name, opened) in [
            ("tz-a", "2026-11-29 23:30:00"), ("tz-b", "2026-11-30 05:00:00"), ("tz-c", "2026-11-30 08:30:00"),
        ] {
            _ = try await harness.send(
                "POST", "/api/now/table/incident", body: #"{"short_description":"\#(name)","opened_at":"\#(opened)"}"#)
        }
        let admin = DemoData.sysID("sys_user", "admin")
        func found(in zone: String, _ condition: String) async throws -> String {
            _ = try await harness.send(
                "PATCH", "/api/now/table/sys_user/\(admin)", body: #"{"time_zone":"\#(zone)"}"#)
            return try await names(
                "incident", "\(condition)^short_descriptionSTARTSWITHtz-^ORDERBYshort_description",
                field: "short_description")
        }
        func result(_ names: String...) -> String {
            #"{"result":["# + names.map { #"{"short_description":"\#($0)"}"# }.joined(separator: ",") + "]}"
        }
        let today = "opened_at>=javascript:gs.beginningOfToday()"
        // Midnight in UTC, Los Angeles (08:00 UTC) and Tokyo (15:00 UTC the day before).
        #expect(try await found(in: "", today) == result("tz-b", "tz-c"))
        #expect(try await found(in: "America/Los_Angeles", today) == result("tz-c"))
        #expect(try await found(in: "Asia/Tokyo", today) == result("tz-a", "tz-b", "tz-c"))
        // Yesterday in Los Angeles: 2026-11-29 08:00:00 to 2026-11-30 07:59:59 UTC.
        let yesterday = "opened_atBETWEENjavascript:gs.daysAgoStart(1)@javascript:gs.daysAgoEnd(1)"
        #expect(try await found(in: "America/Los_Angeles", yesterday) == result("tz-a", "tz-b"))
        // Yesterday in Tokyo: 2026-11-28 15:00:00 to 2026-11-29 14:59:59 UTC.
        #expect(try await found(in: "Asia/Tokyo", yesterday) == result())
        // The beginning of this hour is the same instant in every zone whole hours from UTC.
        #expect(
            try await found(in: "Asia/Tokyo", "opened_at>=javascript:gs.beginningOfCurrentHour()") == result())
        let counted = try await harness.send(
            "GET", "/api/now/stats/incident",
            query: [("sysparm_count", "true"), ("sysparm_query", "\(today)^short_descriptionSTARTSWITHtz-")])
        #expect(Harness.text(counted) == #"{"result":{"stats":{"count":"3"}}}"#)
    }

    @Test func isoDateTimesAreStoredInTheServiceNowForm() async throws {
        let created = try await harness.send(
            "POST", "/api/now/table/change_request",
            query: [("sysparm_fields", "start_date,end_date")],
            body: #"{"start_date":"2021-07-15T08:00:00","end_date":"2021-07-15 09:30:00"}"#)
        #expect(
            Harness.text(created) == #"{"result":{"start_date":"2021-07-15 08:00:00","end_date":"2021-07-15 09:30:00"}}"#)
    }

    @Test func dateTimeDisplayValuesFollowTheUsersTimeZoneAndFormat() async throws {
        let created = try await harness.send(
            "POST", "/api/now/table/incident", query: [("sysparm_fields", "sys_id")], body: "{}")
        let sysID = try #require(try Harness.result(created)["sys_id"] as? String)
        func opened() async throws -> String {
            Harness.text(
                try await harness.send(
                    "GET", "/api/now/table/incident/\(sysID)",
                    query: [("sysparm_fields", "opened_at,sys_created_on"), ("sysparm_display_value", "all")]))
        }
        #expect(
            try await opened()
                == #"{"result":{"opened_at":{"display_value":"2026-11-30 09:00:00","value":"2026-11-30 09:00:00"},"#
                + #""sys_created_on":{"display_value":"2026-11-30 09:00:00","value":"2026-11-30 09:00:00"}}}"#)
        let admin = DemoData.sysID("sys_user", "admin")
        _ = try await harness.send(
            "PATCH", "/api/now/table/sys_user/\(admin)", body: #"{"time_zone":"America/Los_Angeles"}"#)
        // As a PDI's admin: 09:00 UTC on 30 November is 01:00 in Los Angeles.
        #expect(
            try await opened()
                == #"{"result":{"opened_at":{"display_value":"2026-11-30 01:00:00","value":"2026-11-30 09:00:00"},"#
                + #""sys_created_on":{"display_value":"2026-11-30 01:00:00","value":"2026-11-30 09:00:00"}}}"#)
        _ = try await harness.send(
            "PATCH", "/api/now/table/sys_user/\(admin)", body: #"{"time_zone":"Europe/Paris","date_format":"dd.MM.yyyy"}"#)
        #expect(
            try await opened()
                == #"{"result":{"opened_at":{"display_value":"30.11.2026 10:00:00","value":"2026-11-30 09:00:00"},"#
                + #""sys_created_on":{"display_value":"30.11.2026 10:00:00","value":"2026-11-30 09:00:00"}}}"#)
        let plain = try await harness.send(
            "GET", "/api/now/table/incident/\(sysID)",
            query: [("sysparm_fields", "opened_at"), ("sysparm_display_value", "false")])
        #expect(Harness.text(plain) == #"{"result":{"opened_at":"2026-11-30 09:00:00"}}"#)
    }

    @Test func scTaskOrderAndTheVMInstanceIDAreFieldsAsOnAPDI() async throws {
        // servicenow.itsm's itsm_catalog_request_task sets sc_task.order; itsm_configuration_item_batch writes and
        // reads vm_inst_id on cmdb_ci_ec2_instance, which extends cmdb_ci_vm_instance and cmdb_ci_vm_object.
        let task = try await harness.send(
            "POST", "/api/now/table/sc_task", query: [("sysparm_fields", "order,upon_reject,sys_domain")],
            body: #"{"short_description":"ordered","order":"200"}"#)
        #expect(
            Harness.text(task)
                == #"{"result":{"order":"200","upon_reject":"cancel","#
                + #""sys_domain":{"link":"http://localhost/api/now/table/sys_user_group/global","value":"global"}}}"#)
        let vm = try await harness.send(
            "POST", "/api/now/table/cmdb_ci_ec2_instance",
            query: [("sysparm_fields", "name,vm_inst_id,ip_address,termination_protection,sys_class_name")],
            body: #"{"name":"vm-1","vm_inst_id":"i-0123456789abcdef0","ip_address":"10.0.0.5"}"#)
        #expect(
            Harness.text(vm)
                == #"{"result":{"name":"vm-1","vm_inst_id":"i-0123456789abcdef0","ip_address":"10.0.0.5","#
                + #""termination_protection":"false","sys_class_name":"cmdb_ci_ec2_instance"}}"#)
        let objects = try await harness.send(
            "GET", "/api/now/table/cmdb_ci_vm_object",
            query: [("sysparm_query", "ORDERBYname"), ("sysparm_fields", "name,sys_class_name")])
        // The demo EC2 instance and the new one are both VM objects.
        #expect(
            Harness.text(objects)
                == #"{"result":[{"name":"i-0a1b2c3d4e5f60718","sys_class_name":"cmdb_ci_ec2_instance"},"#
                + #"{"name":"vm-1","sys_class_name":"cmdb_ci_ec2_instance"}]}"#)
    }

    @Test func aUserWithoutATimeZoneSeesTheSystemTimeZone() async throws {
        // `nowflow serve`'s default, a PDI's glide.sys.default.tz.
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let pdi = try Harness { $0.systemTimeZone = zone }
        let created = try await pdi.send(
            "POST", "/api/now/table/incident", query: [("sysparm_fields", "sys_id")],
            body: #"{"short_description":"tz-system"}"#)
        let sysID = try #require(try Harness.result(created)["sys_id"] as? String)
        func opened() async throws -> String {
            Harness.text(
                try await pdi.send(
                    "GET", "/api/now/table/incident/\(sysID)",
                    query: [("sysparm_fields", "opened_at"), ("sysparm_display_value", "all")]))
        }
        // 09:00 UTC on 30 November is 01:00 in Los Angeles; the stored value stays UTC.
        #expect(
            try await opened()
                == #"{"result":{"opened_at":{"display_value":"2026-11-30 01:00:00","value":"2026-11-30 09:00:00"}}}"#)
        // Date helpers too: today began at 08:00 UTC in Los Angeles.
        let today = try await pdi.send(
            "GET", "/api/now/table/incident",
            query: [
                ("sysparm_query", "opened_at>=javascript:gs.beginningOfToday()^short_description=tz-system"),
                ("sysparm_fields", "short_description"),
            ])
        #expect(Harness.text(today) == #"{"result":[{"short_description":"tz-system"}]}"#)
        let yesterday = try await pdi.send(
            "GET", "/api/now/table/incident",
            query: [
                ("sysparm_query", "opened_at<javascript:gs.beginningOfToday()^short_description=tz-system"),
                ("sysparm_fields", "short_description"),
            ])
        #expect(Harness.text(yesterday) == #"{"result":[]}"#)
        // A user's own time_zone wins over the system's.
        _ = try await pdi.send(
            "PATCH", "/api/now/table/sys_user/\(DemoData.sysID("sys_user", "admin"))", body: #"{"time_zone":"UTC"}"#)
        #expect(
            try await opened()
                == #"{"result":{"opened_at":{"display_value":"2026-11-30 09:00:00","value":"2026-11-30 09:00:00"}}}"#)
    }

    @Test func aBusinessRuleWithAbortActionRefusesTheWritesItsFilterMatches() async throws {
        let rule = try await harness.send(
            "POST", "/api/now/table/sys_script",
            body: #"{"name":"no EICAR","collection":"task","active":"true","when":"before","action_insert":"true","#
                + #""action_update":"true","abort_action":"true","add_message":"true","message":"rejected","#
                + #""filter_condition":"short_descriptionLIKEEICAR^ORdescriptionLIKEEICAR^EQ"}"#)
        #expect(rule.statusCode == 201)
        let refused = try await harness.send(
            "POST", "/api/now/table/problem", body: #"{"short_description":"an EICAR test"}"#)
        #expect(refused.statusCode == 403)
        #expect(
            Harness.text(refused)
                == #"{"error":{"message":"Operation Failed","detail":"Error during insert of problem (PRB0040011)"},"#
                + #""status":"failure"}"#)
        let fine = try await harness.send(
            "POST", "/api/now/table/problem", query: [("sysparm_fields", "sys_id,number")],
            body: #"{"short_description":"clean"}"#)
        #expect(fine.statusCode == 201)
        let sysID = try #require(try Harness.result(fine)["sys_id"] as? String)
        let update = try await harness.send(
            "PATCH", "/api/now/table/problem/\(sysID)", body: #"{"description":"now with eicar"}"#)
        #expect(update.statusCode == 403)
        #expect(
            Harness.text(update)
                == #"{"error":{"message":"Operation Failed","detail":"Error during update of problem (PRB0040011)"},"#
                + #""status":"failure"}"#)
        let kept = try await harness.send(
            "GET", "/api/now/table/problem/\(sysID)", query: [("sysparm_fields", "number,description")])
        #expect(Harness.text(kept) == #"{"result":{"number":"PRB0040011","description":""}}"#)
        #expect(
            harness.log.all.contains(
                "local instance: problem: business rule 'no EICAR' aborted the update of PRB0040011: rejected"))
    }

    @Test func aPathTooLongToParseGetsTheHTMLErrorPage() async throws {
        let response = try await harness.send("GET", "/api/now/table/" + String(repeating: "A", count: 9000))
        #expect(response.statusCode == 400)
        #expect(response.headers["Content-Type"] == "text/html;charset=utf-8")
        #expect(
            Harness.text(response)
                == "<!doctype html><html lang=\"en\"><head><title>HTTP Status 400 – Bad Request</title></head>"
                + "<body><h1>HTTP Status 400 – Bad Request</h1><hr class=\"line\" /><p><b>Type</b> Status Report</p>"
                + "<p><b>Message</b> Request header is too large</p><p><b>Description</b> The server cannot or will "
                + "not process the request due to something that is perceived to be a client error (e.g., malformed "
                + "request syntax, invalid request message framing, or deceptive request routing).</p>"
                + "<hr class=\"line\" /></body></html>")
    }

    @Test func aQueryOfThousandsOfIgnoredConditionsStillRuns() async throws {
        let query =
            Array(repeating: "AAAA=BBBB", count: 2300).joined(separator: "^")
            + "^sys_id=6816f79cc0a8016401c5a33be04be441"
        let response = try await harness.send(
            "GET", "/api/now/table/sys_user", query: [("sysparm_query", query), ("sysparm_fields", "user_name")])
        #expect(Harness.text(response) == #"{"result":[{"user_name":"admin"}]}"#)
    }

    @Test func sysDomainIsAReferenceToTheGlobalDomainAsOnAPDI() async throws {
        // A PDI answers sys_domain as a reference linked to sys_user_group/global and displayed global, though no
        // group has that sys_id (docs/reference/pdi-fields/task.json); servicenow.servicenow's tests read
        // record.sys_domain.display_value.
        let link = "http://localhost/api/now/table/sys_user_group/global"
        let created = try await harness.send(
            "POST", "/api/now/table/cmdb_ci_server", query: [("sysparm_fields", "name,sys_domain")],
            body: #"{"name":"domain-check"}"#)
        #expect(
            Harness.text(created)
                == #"{"result":{"name":"domain-check","sys_domain":{"link":"\#(link)","value":"global"}}}"#)
        // A dot-walk through it reaches no record, so only ANYTHING holds through it.
        #expect(try await names("cmdb_ci_server", "name=domain-check^sys_domain.name=global") == #"{"result":[]}"#)
        #expect(try await names("cmdb_ci_server", "name=domain-check^sys_domain.nameISEMPTY") == #"{"result":[]}"#)
        #expect(
            try await names("cmdb_ci_server", "name=domain-check^sys_domain.nameANYTHING")
                == #"{"result":[{"name":"domain-check"}]}"#)
        let shown = try await harness.send(
            "GET", "/api/now/table/incident",
            query: [("sysparm_limit", "1"), ("sysparm_fields", "sys_domain"), ("sysparm_display_value", "all")])
        #expect(
            Harness.text(shown)
                == #"{"result":[{"sys_domain":{"display_value":"global","value":"global","link":"\#(link)"}}]}"#)
        let plain = try await harness.send(
            "GET", "/api/now/table/sys_user",
            query: [
                ("sysparm_query", "user_name=admin"), ("sysparm_fields", "sys_domain"),
                ("sysparm_display_value", "true"), ("sysparm_exclude_reference_link", "true"),
            ])
        #expect(Harness.text(plain) == #"{"result":[{"sys_domain":"global"}]}"#)
        // A condition on its value holds as on a PDI.
        #expect(
            try await names("cmdb_ci_server", "name=domain-check^sys_domain=global")
                == #"{"result":[{"name":"domain-check"}]}"#)
        // Its dictionary entry says domain_id, as a PDI's does, with sys_user_group as its reference.
        let entry = try await harness.send(
            "GET", "/api/now/table/sys_dictionary",
            query: [
                ("sysparm_query", "name=task^element=sys_domain"),
                ("sysparm_fields", "element,internal_type,reference,max_length,default_value"),
            ])
        #expect(
            Harness.text(entry)
                == #"{"result":[{"element":"sys_domain","internal_type":"domain_id","reference":"sys_user_group","#
                + #""max_length":"32","default_value":"global"}]}"#)
    }

    @Test func aNewCIGetsTheModelUnknownAndLocationsAreReferences() async throws {
        // servicenow.servicenow's cmdb_ci_server test reads model_id's link, and its display value "Unknown".
        let unknown = "4ed329e3db27901026fca015ca9619fc"
        let created = try await harness.send(
            "POST", "/api/now/table/cmdb_ci_server",
            query: [("sysparm_fields", "name,model_id,location"), ("sysparm_display_value", "true")],
            body: #"{"name":"model-check"}"#)
        #expect(
            Harness.text(created)
                == #"{"result":{"name":"model-check","model_id":{"display_value":"Unknown","#
                + #""link":"http://localhost/api/now/table/cmdb_model/\#(unknown)"},"location":""}}"#)
        let named = try await harness.send(
            "POST", "/api/now/table/cmdb_ci", query: [("sysparm_fields", "model_id")],
            body: #"{"name":"no model","model_id":""}"#)
        #expect(Harness.text(named) == #"{"result":{"model_id":""}}"#)
        let location = DemoData.sysID("cmn_location", DemoData.dataCenter)
        let server = try await harness.send(
            "GET", "/api/now/table/cmdb_ci_server",
            query: [
                ("sysparm_query", "name=app-prod-01"), ("sysparm_fields", "location,location.city"),
                ("sysparm_display_value", "all"), ("sysparm_exclude_reference_link", "true"),
            ])
        #expect(
            Harness.text(server)
                == #"{"result":[{"location":{"display_value":"Data Center 1","value":"\#(location)"},"#
                + #""location.city":{"display_value":"San Diego","value":"San Diego"}}]}"#)
        let user = try await harness.send(
            "PATCH", "/api/now/table/sys_user/\(DemoData.sysID("sys_user", "abel.tuter"))",
            query: [("sysparm_fields", "location"), ("sysparm_display_value", "true")],
            body: #"{"location":"\#(location)"}"#)
        #expect(
            Harness.text(user)
                == #"{"result":{"location":{"display_value":"Data Center 1","#
                + #""link":"http://localhost/api/now/table/cmn_location/\#(location)"}}}"#)
    }

    @Test func approvalsAndKnowledgeArticlesAreTablesAsOnAPDI() async throws {
        // servicenow-mcp asks for an approval of a change and approves it; it publishes a knowledge article and
        // lists the articles of a base by a dot-walk on kb_knowledge_base.
        let change = try Harness.result(
            try await harness.send("POST", "/api/now/table/change_request", body: #"{"short_description":"approve"}"#))
        let changeID = try #require(change["sys_id"] as? String)
        let approval = try await harness.send(
            "POST", "/api/now/table/sysapproval_approver",
            query: [("sysparm_fields", "state,source_table,document_id")],
            body: #"{"document_id":"\#(changeID)","source_table":"change_request","state":"requested"}"#)
        #expect(
            Harness.text(approval)
                == #"{"result":{"state":"requested","source_table":"change_request","document_id":"\#(changeID)"}}"#)
        let base = try Harness.result(
            try await harness.send("POST", "/api/now/table/kb_knowledge_base", body: #"{"title":"Runbooks"}"#))
        let baseID = try #require(base["sys_id"] as? String)
        let article = try await harness.send(
            "POST", "/api/now/table/kb_knowledge",
            query: [("sysparm_fields", "number,workflow_state,article_type,kb_knowledge_base")],
            body: #"{"short_description":"Clearing a jam","text":"<p>Open tray 2.</p>","#
                + #""kb_knowledge_base":"\#(baseID)"}"#)
        let number = try #require(try Harness.result(article)["number"] as? String)
        #expect(number.hasPrefix("KB00"))
        let listed = try await harness.send(
            "GET", "/api/now/table/kb_knowledge",
            query: [
                ("sysparm_query", "kb_knowledge_base.sys_id=\(baseID)"), ("sysparm_display_value", "all"),
                ("sysparm_fields", "number,workflow_state,kb_knowledge_base"),
                ("sysparm_exclude_reference_link", "true"),
            ])
        #expect(
            Harness.text(listed)
                == #"{"result":[{"number":{"display_value":"\#(number)","value":"\#(number)"},"#
                + #""workflow_state":{"display_value":"Draft","value":"draft"},"#
                + #""kb_knowledge_base":{"display_value":"Runbooks","value":"\#(baseID)"}}]}"#)
        // author defaults to the user who creates the article (a PDI's javascript:gs.getUserID()); one given, an
        // empty one too, stays.
        let abel = try #require(
            try Harness.results(
                try await harness.send(
                    "GET", "/api/now/table/sys_user",
                    query: [("sysparm_query", "user_name=abel.tuter"), ("sysparm_fields", "sys_id")])
            ).first?["sys_id"] as? String)
        for (body, author) in [
            (#"{"short_description":"Mine"}"#, "System Administrator"),
            (#"{"short_description":"Abel's","author":"\#(abel)"}"#, "Abel Tuter"),
            (#"{"short_description":"Nobody's","author":""}"#, ""),
        ] {
            let created = try await harness.send(
                "POST", "/api/now/table/kb_knowledge",
                query: [
                    ("sysparm_fields", "author"), ("sysparm_display_value", "true"),
                    ("sysparm_exclude_reference_link", "true"),
                ], body: body)
            #expect(Harness.text(created) == #"{"result":{"author":"\#(author)"}}"#, "\(body)")
        }
    }
}
