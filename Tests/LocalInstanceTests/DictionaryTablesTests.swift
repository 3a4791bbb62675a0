import Foundation
import NowData
import Testing

@testable import LocalInstance

/// `sys_db_object`, `sys_dictionary` and `sys_choice`, generated from the dictionary and read-only.
@Suite struct DictionaryTablesTests {
    private func list(_ harness: Harness, _ table: String, _ query: String, fields: String) async throws -> String {
        let response = try await harness.send(
            "GET", "/api/now/table/\(table)", query: [("sysparm_query", query), ("sysparm_fields", fields)])
        #expect(response.statusCode == 200)
        return Harness.text(response)
    }

    @Test func sysDictionaryListsTheFieldsATableDefines() async throws {
        let harness = try Harness()
        let fields = try Harness.results(
            try await harness.send(
                "GET", "/api/now/table/sys_dictionary",
                query: [("sysparm_query", "name=incident^elementISNOTEMPTY"), ("sysparm_fields", "element")]))
        #expect(
            fields.compactMap { $0["element"] as? String } == [
                // contact_type is task's (incident gives it its own choices), as on a PDI.
                "caller_id", "category", "subcategory", "hold_reason", "close_code", "resolved_at", "resolved_by",
                "problem_id", "rfc", "reopen_count", "business_impact", "business_stc", "calendar_stc", "cause",
                "caused_by", "child_incidents", "incident_state", "notify", "origin_id", "origin_table",
                "parent_incident", "reopened_by", "reopened_time", "severity",
            ])
        let entry = try await list(
            harness, "sys_dictionary", "name=incident^element=caller_id",
            fields: "name,element,column_label,internal_type,reference,max_length,mandatory,display,default_value")
        #expect(
            entry == #"{"result":[{"name":"incident","element":"caller_id","column_label":"Caller","#
                + #""internal_type":"reference","reference":"sys_user","max_length":"32","mandatory":"false","#
                + #""display":"false","default_value":""}]}"#)
        let inherited = try await list(
            harness, "sys_dictionary", "name=task^elementINnumber,state,sys_id,sys_updated_on",
            fields: "element,internal_type,max_length,display,default_value")
        #expect(
            inherited == #"{"result":[{"element":"number","internal_type":"string","max_length":"","display":"true","#
                + #""default_value":""},{"element":"state","internal_type":"integer","max_length":"","display":"false","#
                + #""default_value":"1"},{"element":"sys_id","internal_type":"GUID","max_length":"32","#
                + #""display":"false","default_value":""},{"element":"sys_updated_on","#
                + #""internal_type":"glide_date_time","max_length":"","display":"false","default_value":""}]}"#)
        let collection = try await list(
            harness, "sys_dictionary", "name=incident^elementISEMPTY", fields: "name,element,column_label,internal_type")
        #expect(
            collection
                == #"{"result":[{"name":"incident","element":"","column_label":"Incident","internal_type":"collection"}]}"#)
    }

    /// `incident_task` extends `task` and defines one field, `incident`; its states are task's, so `sys_choice` lists
    /// none on it, and an incident task is a task record of its class, numbered as a PDI numbers it.
    @Test func incidentTaskExtendsTaskWithItsIncident() async throws {
        let harness = try Harness(seed: false)
        let table = try await list(
            harness, "sys_db_object", "name=incident_task", fields: "name,label,super_class.name")
        #expect(table == #"{"result":[{"name":"incident_task","label":"Incident Task","super_class.name":"task"}]}"#)
        let fields = try await list(
            harness, "sys_dictionary", "name=incident_task^elementISNOTEMPTY",
            fields: "element,internal_type,reference")
        #expect(fields == #"{"result":[{"element":"incident","internal_type":"reference","reference":"incident"}]}"#)
        let choices = try await harness.send(
            "GET", "/api/now/table/sys_choice", query: [("sysparm_query", "name=incident_task"), ("sysparm_limit", "1")])
        #expect(choices.headers["X-Total-Count"] == "0")

        let incident = try Harness.result(
            try await harness.send("POST", "/api/now/table/incident", body: #"{"short_description":"Disk full"}"#))
        let incidentID = try #require(incident["sys_id"] as? String)
        let created = try await harness.send(
            "POST", "/api/now/table/incident_task",
            query: [("sysparm_fields", "number,incident,state,priority,active,sys_class_name"),
                ("sysparm_exclude_reference_link", "true")],
            body: #"{"short_description":"Free space on db-prod-01","incident":"\#(incidentID)"}"#)
        #expect(
            Harness.text(created) == #"{"result":{"number":"TASK0010001","incident":"\#(incidentID)","state":"1","#
                + #""priority":"4","active":"true","sys_class_name":"incident_task"}}"#)
        let asTask = try await list(
            harness, "task", "sys_class_name=incident_task", fields: "number,short_description,sys_class_name")
        #expect(
            asTask == #"{"result":[{"number":"TASK0010001","short_description":"Free space on db-prod-01","#
                + #""sys_class_name":"incident_task"}]}"#)
    }

    @Test func sysDBObjectNamesEveryTableAndItsParentWithStableSysIDs() async throws {
        let harness = try Harness()
        let task = try #require(
            try Harness.results(
                try await harness.send(
                    "GET", "/api/now/table/sys_db_object",
                    query: [("sysparm_query", "name=task"), ("sysparm_fields", "sys_id")])
            ).first?["sys_id"] as? String)
        let incident = try await list(
            harness, "sys_db_object", "name=incident", fields: "name,label,super_class,super_class.name")
        #expect(
            incident == #"{"result":[{"name":"incident","label":"Incident","super_class":{"link":"#
                + #""http://localhost/api/now/table/sys_db_object/\#(task)","value":"\#(task)"},"#
                + #""super_class.name":"task"}]}"#)
        let all = try await harness.send(
            "GET", "/api/now/table/sys_db_object", query: [("sysparm_fields", "name"), ("sysparm_limit", "3")])
        #expect(all.headers.value(named: "X-Total-Count") == "88")
        let again = try Harness(seed: false)
        let sysIDs = try await list(again, "sys_db_object", "nameINtask,incident", fields: "name,sys_id")
        #expect(sysIDs == (try await list(harness, "sys_db_object", "nameINtask,incident", fields: "name,sys_id")))
        #expect(sysIDs.contains(task))
    }

    @Test func sysChoiceListsTheChoicesWhereTheyAreDefined() async throws {
        let harness = try Harness()
        let states = try await list(
            harness, "sys_choice", "name=incident^element=state^ORDERBYsequence",
            fields: "name,element,value,label,sequence,inactive")
        let expected = [("1", "New"), ("2", "In Progress"), ("3", "On Hold"), ("6", "Resolved"), ("7", "Closed"),
            ("8", "Canceled")].enumerated().map { index, choice in
            #"{"name":"incident","element":"state","value":"\#(choice.0)","label":"\#(choice.1)","#
                + #""sequence":"\#(index + 1)","inactive":"false"}"#
        }
        #expect(states == #"{"result":["# + expected.joined(separator: ",") + "]}")
        let impact = try await list(harness, "sys_choice", "element=impact", fields: "name,value")
        #expect(impact == #"{"result":[{"name":"task","value":"1"},{"name":"task","value":"2"},{"name":"task","value":"3"}]}"#)
    }

    @Test(arguments: [
        ("POST", "/api/now/table/sys_dictionary", #"{"name":"incident","element":"u_extra"}"#),
        ("PATCH", "/api/now/table/sys_dictionary/\(String(repeating: "0", count: 32))", #"{"column_label":"X"}"#),
        ("DELETE", "/api/now/table/sys_dictionary/\(String(repeating: "0", count: 32))", nil),
    ])
    func writesAreRefused(method: String, path: String, body: String?) async throws {
        let harness = try Harness()
        let response = try await harness.send(method, path, body: body)
        #expect(response.statusCode == 403)
        #expect(
            Harness.text(response)
                == #"{"error":{"message":"The local instance's dictionary is read-only","detail":"sys_dictionary is "#
                + #"generated from the table definitions: the built-in tables and the dictionary file (nowflow serve "#
                + #"--schema FILE); to add a table or a field, edit the dictionary file and restart"},"status":"failure"}"#)
    }

    @Test func aTableOfTheDictionaryFileIsDescribed() async throws {
        let path = try temporaryDictionaryFile(DictionaryFileTests.audit)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let harness = try Harness { $0.schemaFile = path }
        #expect(
            try await list(harness, "sys_db_object", "name=u_ci_audit", fields: "name,label,super_class")
                == #"{"result":[{"name":"u_ci_audit","label":"CI Audit","super_class":""}]}"#)
        #expect(
            try await list(
                harness, "sys_dictionary", "name=u_ci_audit^elementSTARTSWITHu_", fields: "element,internal_type,reference")
                == #"{"result":[{"element":"u_name","internal_type":"string","reference":""},"#
                + #"{"element":"u_result","internal_type":"integer","reference":""},"#
                + #"{"element":"u_ci","internal_type":"reference","reference":"cmdb_ci_server"},"#
                + #"{"element":"u_checked_on","internal_type":"glide_date_time","reference":""}]}"#)
        #expect(
            try await list(harness, "sys_choice", "name=u_ci_audit", fields: "element,value,label")
                == #"{"result":[{"element":"u_result","value":"1","label":"Pass"},"#
                + #"{"element":"u_result","value":"2","label":"Fail"}]}"#)
    }

    @Test func reopeningADatabaseRebuildsTheTablesWithoutDuplicates() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("meta-\(UUID().uuidString).db").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        var counts: [String] = []
        for _ in 0..<2 {
            let harness = try Harness { $0.databasePath = path }
            let response = try await harness.send(
                "GET", "/api/now/table/sys_dictionary", query: [("sysparm_fields", "sys_id"), ("sysparm_limit", "1")])
            counts.append(response.headers.value(named: "X-Total-Count") ?? "")
            harness.instance.close()
        }
        #expect(counts.count == 2 && counts[0] == counts[1] && !counts[0].isEmpty)
    }
}
