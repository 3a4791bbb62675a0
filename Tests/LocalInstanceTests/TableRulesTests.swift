import Foundation
import NowData
import Testing

@testable import LocalInstance

/// The per-table rules (``TableRules``) declared beside each table's definition, inherited through `parent`: by
/// the built-in task tables and by a dictionary file's table that extends a built-in one.
@Suite struct TableRulesTests {
    @Test func aRuleDeclaredOnTaskAppliesToIncident() {
        var task = TableDictionary.task
        task.rules.automaticValues = ["approval": ["requested": "approved"]]
        let dictionary = TableDictionary([task, TableDictionary.incident])
        let rules = dictionary.rules(of: "incident")
        #expect(rules.automaticValues == ["approval": ["requested": "approved"]])
        #expect(rules.writeRole == "itil")
        #expect(rules.stampsOpening == true)
        #expect(rules.priorityFromImpactAndUrgency == true)
        // Incident declares its own state effects, which win over task's.
        #expect(rules.stateEffects == .init(inactive: ["7", "8"], resolved: ["6", "7"], closed: ["7"]))
        #expect(dictionary.rules(of: "task").priorityFromImpactAndUrgency == nil)
        #expect(dictionary.rules(of: "u_unknown") == TableRules())
    }

    @Test func theBuiltInTablesRulesInForce() {
        let dictionary = TableDictionary.builtIn
        let taskEffects = TableRules.StateEffects(inactive: ["3", "4", "7"], closed: ["3", "4", "7"])
        for name in ["change_task", "sc_request", "sc_req_item", "sc_task"] {
            #expect(dictionary.rules(of: name).stateEffects == taskEffects, "\(name)")
            #expect(dictionary.rules(of: name).writeRole == "itil", "\(name)")
        }
        #expect(dictionary.rules(of: "problem_task").stateEffects == .init(inactive: ["157"], closed: ["157"]))
        #expect(dictionary.rules(of: "cmdb_ci_ec2_instance").writeRole == "itil")
        #expect(dictionary.rules(of: "sys_dictionary").writeRole == nil)
        #expect(dictionary.rules(of: "change_request").fillsFromTemplate == true)
        #expect(dictionary.rules(of: "incident").fillsFromTemplate == nil)
    }

    @Test func aChangeTaskClosedThroughTasksRulesIsInactiveAndStamped() async throws {
        let harness = try Harness()
        let created = try await harness.send(
            "POST", "/api/now/table/change_task", query: [("sysparm_fields", "sys_id")],
            body: #"{"short_description":"reboot"}"#)
        let sysID = try #require(try Harness.result(created)["sys_id"] as? String)
        harness.clock.advance(seconds: 60)
        let closed = try await harness.send(
            "PATCH", "/api/now/table/change_task/\(sysID)",
            query: [("sysparm_fields", "state,active,closed_at,closed_by")], body: #"{"state":"3"}"#)
        let admin = DemoData.sysID("sys_user", "admin")
        #expect(
            Harness.text(closed)
                == #"{"result":{"state":"3","active":"false","closed_at":"2026-11-30 09:01:00","closed_by":"#
                + #"{"link":"http://localhost/api/now/table/sys_user/\#(admin)","value":"\#(admin)"}}}"#)
    }

    static let workItem = """
        {"tables": [{
          "name": "u_work_item", "label": "Work Item", "extends": "task",
          "fields": [{"name": "u_site", "label": "Site"}]
        }]}
        """

    @Test func aDictionaryFileTableExtendingTaskGetsTasksRules() async throws {
        let path = try temporaryDictionaryFile(Self.workItem)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let harness = try Harness { $0.schemaFile = path }
        let table = try #require(harness.instance.dictionary.table("u_work_item"))
        #expect(table.parent == "task")
        #expect(table.displayField == "number")
        #expect(harness.instance.dictionary.rules(of: "u_work_item") == harness.instance.dictionary.rules(of: "task"))

        _ = try await harness.send(
            "PATCH", "/api/now/table/sys_user/\(DemoData.sysID("sys_user", "abel.tuter"))",
            body: #"{"user_password":"pw"}"#)
        let refused = try await harness.send(
            "POST", "/api/now/table/u_work_item", body: #"{"u_site":"Lyon"}"#,
            headers: [
                ("Authorization", "Basic " + Data("abel.tuter:pw".utf8).base64EncodedString()),
                ("Content-Type", "application/json"),
            ])
        #expect(
            Harness.text(refused)
                == #"{"error":{"message":"Operation Failed","detail":"ACL Exception Insert Failed due to security "#
                + #"constraints"},"status":"failure"}"#)

        let admin = DemoData.sysID("sys_user", "admin")
        let user = #"{"link":"http://localhost/api/now/table/sys_user/\#(admin)","value":"\#(admin)"}"#
        let created = try await harness.send(
            "POST", "/api/now/table/u_work_item",
            query: [("sysparm_fields", "sys_id,u_site,state,active,opened_at,opened_by,closed_at")],
            body: #"{"u_site":"Lyon","short_description":"Badge reader"}"#)
        let record = try Harness.result(created)
        let sysID = try #require(record["sys_id"] as? String)
        #expect(
            Harness.text(created)
                == #"{"result":{"sys_id":"\#(sysID)","u_site":"Lyon","state":"1","active":"true","#
                + #""opened_at":"2026-11-30 09:00:00","opened_by":\#(user),"closed_at":""}}"#)
        harness.clock.advance(seconds: 120)
        let closed = try await harness.send(
            "PATCH", "/api/now/table/u_work_item/\(sysID)",
            query: [("sysparm_fields", "state,active,closed_at,closed_by")], body: #"{"state":"4"}"#)
        #expect(
            Harness.text(closed)
                == #"{"result":{"state":"4","active":"false","closed_at":"2026-11-30 09:02:00","closed_by":\#(user)}}"#)
        let listed = try await harness.send(
            "GET", "/api/now/table/task",
            query: [
                ("sysparm_query", "sys_class_name=u_work_item"),
                ("sysparm_fields", "short_description,sys_class_name,active"),
            ])
        #expect(
            Harness.text(listed)
                == #"{"result":[{"short_description":"Badge reader","sys_class_name":"u_work_item","active":"false"}]}"#
        )
    }

    static let appliance = """
        {"tables": [{
          "name": "u_cmdb_ci_appliance", "label": "Appliance", "extends": "cmdb_ci_server",
          "fields": [{"name": "u_rack", "label": "Rack"}]
        }]}
        """

    @Test func aDictionaryFileCMDBClassIsFoundThroughCMDBCI() async throws {
        let path = try temporaryDictionaryFile(Self.appliance)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let harness = try Harness { $0.schemaFile = path }
        let created = try await harness.send(
            "POST", "/api/now/table/u_cmdb_ci_appliance", query: [("sysparm_fields", "sys_id,name,u_rack,cpu_count")],
            body: #"{"name":"appliance-01","u_rack":"R12","cpu_count":"8"}"#)
        #expect(created.statusCode == 201)
        let sysID = try #require(try Harness.result(created)["sys_id"] as? String)
        #expect(
            Harness.text(created)
                == #"{"result":{"sys_id":"\#(sysID)","name":"appliance-01","u_rack":"R12","cpu_count":"8"}}"#)
        let listed = try await harness.send(
            "GET", "/api/now/table/cmdb_ci",
            query: [("sysparm_query", "name=appliance-01"), ("sysparm_fields", "sys_id,name,sys_class_name")])
        #expect(
            Harness.text(listed)
                == #"{"result":[{"sys_id":"\#(sysID)","name":"appliance-01","sys_class_name":"u_cmdb_ci_appliance"}]}"#)
        let classes = try await harness.send(
            "GET", "/api/now/cmdb/instance/cmdb_ci", query: [("sysparm_query", "name=appliance-01")])
        #expect(Harness.text(classes) == #"{"result":[{"sys_id":"\#(sysID)","name":"appliance-01"}]}"#)
        let ownClass = try await harness.send("GET", "/api/now/cmdb/instance/u_cmdb_ci_appliance")
        #expect(Harness.text(ownClass) == #"{"result":[{"sys_id":"\#(sysID)","name":"appliance-01"}]}"#)
        let metadata = try await harness.send(
            "GET", "/api/now/table/sys_db_object",
            query: [("sysparm_query", "name=u_cmdb_ci_appliance"), ("sysparm_fields", "name,super_class.name")])
        #expect(
            Harness.text(metadata)
                == #"{"result":[{"name":"u_cmdb_ci_appliance","super_class.name":"cmdb_ci_server"}]}"#)
    }
}
