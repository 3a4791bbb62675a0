import Foundation
import NowData
import Testing

@testable import LocalInstance

/// The Change Management API (`/api/sn_chg_rest/change...`) on the demo instance: a standard change made from a
/// template and moved through its model (with the refusals of moves the model has no transition for or whose
/// conditions are not met), normal changes, tasks, models and templates, the errors, and the API's roles.
@Suite struct ChangeManagementAPITests {
    static let reboot = DemoData.sysID("std_change_record_producer", "Reboot Windows Server")
    static let base = "/api/sn_chg_rest/change"

    /// The record of `table` as the Change Management API answers it, made here from the Table API's
    /// `sysparm_display_value=all` answer: each field a pair, the value typed as the dictionary types the field.
    static func pairs(_ harness: Harness, _ table: String, _ sysID: String) async throws -> String {
        let record = try await harness.send(
            "GET", "/api/now/table/\(table)/\(sysID)",
            query: [("sysparm_display_value", "all"), ("sysparm_exclude_reference_link", "true")])
        guard case .object(let fields) = try JSONValue(json: record.body).object?["result"] ?? .null,
            let definition = harness.instance.handler.dictionary.table(table)
        else { throw TableAPIError.internalFailure }
        var answer = JSONObject()
        for (name, pair) in fields {
            let display = pair.object?["display_value"] ?? ""
            let text = pair.object?["value"]?.string ?? ""
            let type = definition.field(name)?.type
            let value: JSONValue =
                switch type {
                case .integer?, .decimal?: JSONNumber(text: text).map(JSONValue.number) ?? .string(text)
                case .boolean? where text == "true" || text == "false": .bool(text == "true")
                default: .string(text)
                }
            var entry: JSONObject = ["display_value": display, "value": value]
            if type == .dateTime { entry["display_value_internal"] = display }
            answer[name] = .object(entry)
        }
        return String(decoding: JSONValue.object(["result": .object(answer)]).jsonData(), as: UTF8.self)
    }

    static func error(_ message: String, _ detail: String) -> String {
        String(
            decoding: JSONValue.object([
                "error": ["message": .string(message), "detail": .string(detail)], "status": "failure",
            ]).jsonData(), as: UTF8.self)
    }

    static func sysID(_ response: NowHTTPResponse) throws -> String {
        try #require(try JSONValue(json: response.body).value(at: "result.sys_id.value").string)
    }

    @Test func aStandardChangeFromATemplateMovesThroughItsModel() async throws {
        let harness = try Harness()
        let templates = try await harness.send("GET", "\(Self.base)/standard/template")
        #expect(templates.statusCode == 200)
        let names = try Harness.results(templates).compactMap { ($0["name"] as? [String: Any])?["value"] as? String }
        #expect(names == DemoData.standardChangeTemplates.map(\.name))

        let created = try await harness.send(
            "POST", "\(Self.base)/standard/\(Self.reboot)",
            body: #"{"assignment_group":"\#(DemoData.sysID("sys_user_group", "Change Management"))","#
                + #""description":"not this one"}"#)
        #expect(created.statusCode == 200)
        let sysID = try Self.sysID(created)
        #expect(Harness.text(created) == (try await Self.pairs(harness, "change_request", sysID)))
        let result = try JSONValue(json: created.body)
        #expect(try result.value(at: "result.type").jsonData() == Data(#"{"display_value":"Standard","value":"standard"}"#.utf8))
        #expect(try result.value(at: "result.state").jsonData() == Data(#"{"display_value":"New","value":-5}"#.utf8))
        #expect(try result.value(at: "result.short_description.value").string == "Reboot Windows Server")
        #expect(
            try result.value(at: "result.description.value").string
                == "Reboot a Windows server during its maintenance window.")
        #expect(try result.value(at: "result.chg_model.display_value").string == "Standard")
        #expect(try result.value(at: "result.active.value") == .bool(true))

        let path = "\(Self.base)/\(sysID)"
        let skipping = try await harness.send("PATCH", path, body: #"{"state":"implement"}"#)
        #expect(skipping.statusCode == 400)
        #expect(
            Harness.text(skipping)
                == Self.error(
                    "Change Request cannot move to state: implement",
                    "The Standard change model has no transition from New to Implement; from New a change can move "
                        + "to: Scheduled, Canceled"))

        let scheduled = try await harness.send("PATCH", path, body: #"{"state":"scheduled"}"#)
        #expect(scheduled.statusCode == 200)
        #expect(try JSONValue(json: scheduled.body).value(at: "result.state.value") == .number(JSONNumber(-2)))

        let unplanned = try await harness.send("PATCH", "\(Self.base)/standard/\(sysID)", body: #"{"state":"-1"}"#)
        #expect(
            Harness.text(unplanned)
                == Self.error(
                    "Change Request cannot move to state: implement",
                    "Transition conditions from Scheduled to Implement: Not On hold: passed; Planned start and end "
                        + "dates are set: not passed"))

        let next = try await harness.send("GET", "\(path)/nextstates")
        let transition = { (to: String, label: String, available: Bool, conditions: String) in
            #"[{"sys_id":"\#(DemoData.sysID("chg_model_transition", "-2:\(to)"))","#
                + #""display_value":"Scheduled to \#(label)","from_state":"-2","to_state":"\#(to)","#
                + #""transition_available":\#(available),"automatic_transition":false,"conditions":[\#(conditions)]}]"#
        }
        let condition = { (name: String, passed: Bool) in
            #"{"passed":\#(passed),"condition":{"name":"\#(name)","description":null,"#
                + #""sys_id":"\#(DemoData.sysID("chg_model_condition", name))"}}"#
        }
        #expect(
            Harness.text(next)
                == #"{"result":{"available_states":["4","-2"],"state_transitions":["#
                + transition(
                    "-1", "Implement", false,
                    condition("Not On hold", true) + "," + condition("Planned start and end dates are set", false))
                + "," + transition("4", "Canceled", true, "")
                + #"],"state_label":{"-1":"Implement","4":"Canceled","-2":"Scheduled"}}}"#)

        let implementing = try await harness.send(
            "PATCH", path,
            body: #"{"state":"implement","start_date":"2026-12-05 22:00:00","end_date":"2026-12-05 23:00:00"}"#)
        #expect(implementing.statusCode == 200)
        let task = try await harness.send("POST", "\(path)/task", body: #"{"short_description":"Reboot the server"}"#)
        #expect(task.statusCode == 200)
        let taskID = try Self.sysID(task)
        #expect(Harness.text(task) == (try await Self.pairs(harness, "change_task", taskID)))
        #expect(try JSONValue(json: task.body).value(at: "result.change_request.value").string == sysID)

        let early = try await harness.send("PATCH", path, body: #"{"state":"review"}"#)
        #expect(
            Harness.text(early)
                == Self.error(
                    "Change Request cannot move to state: review",
                    "Transition conditions from Implement to Review: Not On hold: passed; No active Change Tasks: "
                        + "not passed"))
        let tasks = try await harness.send("GET", "\(path)/task")
        #expect(try Harness.results(tasks).count == 1)
        let closedTask = try await harness.send("PATCH", "\(path)/task/\(taskID)", body: #"{"state":"3"}"#)
        #expect(closedTask.statusCode == 200)
        #expect(try await harness.send("PATCH", path, body: #"{"state":"review"}"#).statusCode == 200)
        let unexplained = try await harness.send("PATCH", path, body: #"{"state":"closed"}"#)
        #expect(
            Harness.text(unexplained)
                == Self.error(
                    "Change Request cannot move to state: closed",
                    "Transition conditions from Review to Closed: Close code is not empty: not passed; Close notes "
                        + "are not empty: not passed"))
        let closing = #"{"state":"closed","close_code":"successful","close_notes":"Rebooted."}"#
        let closed = try await harness.send("PATCH", path, body: closing)
        #expect(closed.statusCode == 200)
        #expect(try JSONValue(json: closed.body).value(at: "result.active.value") == .bool(false))
        // The same request again: the change is Closed already, so nothing moves and nothing is refused.
        let again = try await harness.send("PATCH", path, body: closing)
        #expect(again.statusCode == 200)
        #expect(Harness.text(again) == (try await Self.pairs(harness, "change_request", sysID)))
        let reopened = try await harness.send("PATCH", path, body: #"{"state":"new"}"#)
        #expect(
            Harness.text(reopened)
                == Self.error(
                    "Change Request cannot move to state: new",
                    "The Standard change model has no transition from Closed to New; from Closed a change can move "
                        + "to: nothing"))
    }

    @Test func aNormalChangeNeedsAnAssignmentGroupToBeAssessed() async throws {
        let harness = try Harness()
        let created = try await harness.send("POST", "\(Self.base)/normal", body: #"{"short_description":"Add disk"}"#)
        #expect(created.statusCode == 200)
        let sysID = try Self.sysID(created)
        #expect(try JSONValue(json: created.body).value(at: "result.chg_model.display_value").string == "Normal")
        let assess = try await harness.send("PATCH", "\(Self.base)/\(sysID)", body: #"{"state":"assess"}"#)
        #expect(assess.statusCode == 400)
        #expect(
            Harness.text(assess)
                == Self.error(
                    "Change Request cannot move to state: assess",
                    "Transition conditions from New to Assess: Not On hold: passed; Assignment group is not empty: "
                        + "not passed"))
        let group = DemoData.sysID("sys_user_group", "Change Management")
        let assessed = try await harness.send(
            "PATCH", "\(Self.base)/normal/\(sysID)", body: #"{"state":"assess","assignment_group":"\#(group)"}"#)
        #expect(assessed.statusCode == 200)
        // As a standard change, it is not there.
        let asStandard = try await harness.send("GET", "\(Self.base)/standard/\(sysID)")
        #expect(asStandard.statusCode == 404)
        #expect(
            Harness.text(asStandard)
                == Self.error("No Record found", "Record doesn't exist or ACL restricts the record retrieval"))
        // A second identical POST makes a second change.
        let second = try await harness.send("POST", "\(Self.base)/normal", body: #"{"short_description":"Add disk"}"#)
        #expect(try Self.sysID(second) != sysID)
        let listed = try await harness.send(
            "GET", "\(Self.base)/normal", query: [("short_description", "Add disk"), ("sysparm_limit", "5")])
        #expect(try Harness.results(listed).count == 2)
    }

    @Test func aChangeTakesItsModelOrTypeAndRefusesUnknownOnes() async throws {
        let harness = try Harness()
        let emergency = try await harness.send("POST", Self.base, body: #"{"chg_model":"Emergency"}"#)
        #expect(try JSONValue(json: emergency.body).value(at: "result.type.value").string == "emergency")
        let typed = try await harness.send("POST", Self.base, query: [("type", "Standard")])
        #expect(try JSONValue(json: typed.body).value(at: "result.chg_model.display_value").string == "Standard")
        let plain = try await harness.send("POST", Self.base, body: "{}")
        #expect(try JSONValue(json: plain.body).value(at: "result.type.value").string == "normal")
        let unknown = try await harness.send("POST", Self.base, body: #"{"chg_model":"Cloud"}"#)
        #expect(unknown.statusCode == 400)
        #expect(
            Harness.text(unknown)
                == Self.error("Invalid change model", "'Cloud' is no change model: give one of Normal, Standard, Emergency"))
        let badType = try await harness.send("POST", Self.base, body: #"{"type":"minor"}"#)
        #expect(
            Harness.text(badType)
                == Self.error("Invalid type", "'minor' is no change type: give one of normal, standard, emergency"))
        let noTemplate = try await harness.send("POST", "\(Self.base)/standard/\(String(repeating: "0", count: 32))")
        #expect(noTemplate.statusCode == 404)
        let models = try await harness.send("GET", "\(Self.base)/model")
        #expect(
            try Harness.results(models).compactMap { ($0["name"] as? [String: Any])?["value"] as? String }
                == ["Normal", "Standard", "Emergency"])
        let model = try await harness.send("GET", "\(Self.base)/model/\(ChangeModel.standard.sysID)")
        #expect(Harness.text(model) == (try await Self.pairs(harness, "chg_model", ChangeModel.standard.sysID)))
        let impacted = try await harness.send("POST", "\(Self.base)/\(try Self.sysID(plain))/refresh_impacted_services")
        #expect(impacted.statusCode == 400)
        #expect(Harness.text(impacted).contains("Requested URI does not represent any resource"))
        let badState = try await harness.send("PATCH", "\(Self.base)/\(try Self.sysID(plain))", body: #"{"state":"done"}"#)
        #expect(
            Harness.text(badState)
                == Self.error(
                    "Change Request cannot move to state: done",
                    "'done' is no change request state: give one of -5 (New), -4 (Assess), -3 (Authorize), "
                        + "-2 (Scheduled), -1 (Implement), 0 (Review), 3 (Closed), 4 (Canceled)"))
    }

    @Test func theAPIsRolesComeBeforeTheTables() async throws {
        let attack = try await AttackHarness()
        let change = DemoData.sysID("change_request", "CHG0")
        let anonymous = try await attack.send(.anonymous, "GET", Self.base)
        #expect(anonymous.statusCode == 401)
        #expect(
            Harness.text(anonymous) == Self.error("User Not Authenticated", "Required to provide Auth information"))
        let employee = try await attack.send(.joe, "GET", "\(Self.base)/\(change)")
        #expect(employee.statusCode == 403)
        #expect(
            Harness.text(employee)
                == Self.error(
                    "User Not Authorized",
                    "GET on the Change Management API needs one of the roles change_manager, itil, sn_change_read, "
                        + "admin"))
        let employeeCreate = try await attack.send(.joe, "POST", "\(Self.base)/normal", body: "{}")
        #expect(
            Harness.text(employeeCreate)
                == Self.error(
                    "User Not Authorized",
                    "POST on the Change Management API needs one of the roles change_manager, itil, admin"))
        #expect(try await attack.send(.itil, "GET", "\(Self.base)/\(change)").statusCode == 200)
        let created = try await attack.send(.itil, "POST", "\(Self.base)/normal", body: #"{"short_description":"x"}"#)
        #expect(created.statusCode == 200)
        let itilDelete = try await attack.send(.itil, "DELETE", "\(Self.base)/\(change)")
        #expect(
            Harness.text(itilDelete)
                == Self.error(
                    "User Not Authorized", "DELETE on the Change Management API needs one of the roles "
                        + "change_manager, admin"))
        let before = try await Self.pairs(attack.harness, "change_request", change)
        let deleted = try await attack.send(.admin, "DELETE", "\(Self.base)/\(change)")
        #expect(deleted.statusCode == 200)
        #expect(Harness.text(deleted) == before)
        let gone = try await attack.send(.admin, "DELETE", "\(Self.base)/\(change)")
        #expect(gone.statusCode == 404)
    }
}
