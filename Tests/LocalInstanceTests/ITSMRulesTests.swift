import Foundation
import NowData
import Testing

@testable import LocalInstance

/// What servicenow.itsm's modules rely on beyond the Table API's basics: the problem state model, standard changes
/// from templates, writable choices, and the tiny-URL API for long queries.
@Suite struct ITSMRulesTests {
    let harness: Harness

    init() throws {
        harness = try Harness()
    }

    @Test func theProblemStateModelRefusesAssessToResolved() async throws {
        let created = try await harness.send(
            "POST", "/api/now/table/problem", query: [("sysparm_fields", "sys_id,number,state")],
            body: #"{"short_description":"bogus","state":"102"}"#)
        let sysID = try #require(try Harness.result(created)["sys_id"] as? String)
        let refused = try await harness.send(
            "PATCH", "/api/now/table/problem/\(sysID)", body: #"{"state":"106","resolution_code":"canceled"}"#)
        #expect(refused.statusCode == 403)
        #expect(
            Harness.text(refused)
                == #"{"error":{"message":"Operation Failed","detail":"Problem state transition from state 102 to "#
                + #"106 is not possible"},"status":"failure"}"#)
        let steps = try await ["103", "104", "106", "107"].asyncMap { state in
            Harness.text(
                try await harness.send(
                    "PATCH", "/api/now/table/problem/\(sysID)", query: [("sysparm_fields", "state,active")],
                    body: #"{"state":"\#(state)"}"#))
        }
        #expect(
            steps == [
                #"{"result":{"state":"103","active":"true"}}"#, #"{"result":{"state":"104","active":"true"}}"#,
                #"{"result":{"state":"106","active":"true"}}"#, #"{"result":{"state":"107","active":"false"}}"#,
            ])
    }

    @Test func theChangeStateModelsFollowTheChangesType() async throws {
        func change(_ type: String) async throws -> String {
            let created = try await harness.send(
                "POST", "/api/now/table/change_request", query: [("sysparm_fields", "sys_id")],
                body: #"{"short_description":"model","type":"\#(type)"}"#)
            return try #require(try Harness.result(created)["sys_id"] as? String)
        }
        func move(_ sysID: String, _ state: String) async throws -> NowHTTPResponse {
            try await harness.send(
                "PATCH", "/api/now/table/change_request/\(sysID)", query: [("sysparm_fields", "state,active")],
                body: #"{"state":"\#(state)"}"#)
        }
        func refusal(_ detail: String) -> String {
            #"{"error":{"message":"Operation Failed","detail":"\#(detail)"},"status":"failure"}"#
        }
        let normal = try await change("normal")
        let skipped = try await move(normal, "-1")
        #expect(skipped.statusCode == 403)
        #expect(
            Harness.text(skipped)
                == refusal("State Model for normal changes does not allow the state to change from New to Implement"))
        var steps: [String] = []
        for state in ["-4", "-3", "-2", "-1", "0", "3"] { steps.append(Harness.text(try await move(normal, state))) }
        #expect(
            steps == ["-4", "-3", "-2", "-1", "0"].map { #"{"result":{"state":"\#($0)","active":"true"}}"# }
                + [#"{"result":{"state":"3","active":"false"}}"#])
        let reopened = try await move(normal, "-1")
        #expect(reopened.statusCode == 403)
        #expect(
            Harness.text(reopened)
                == refusal(
                    "State Model for normal changes does not allow the state to change from Closed to Implement"))

        let standard = try await change("standard")
        let assessed = try await move(standard, "-4")
        #expect(
            Harness.text(assessed)
                == refusal("State Model for standard changes does not allow the state to change from New to Assess"))
        #expect(Harness.text(try await move(standard, "-2")) == #"{"result":{"state":"-2","active":"true"}}"#)
        #expect(Harness.text(try await move(standard, "4")) == #"{"result":{"state":"4","active":"false"}}"#)

        let emergency = try await change("emergency")
        #expect(
            Harness.text(try await move(emergency, "-4"))
                == refusal("State Model for emergency changes does not allow the state to change from New to Assess"))
        #expect(Harness.text(try await move(emergency, "-3")) == #"{"result":{"state":"-3","active":"true"}}"#)
    }

    @Test func anIncidentMovesBetweenAnyStates() async throws {
        let created = try await harness.send(
            "POST", "/api/now/table/incident", query: [("sysparm_fields", "sys_id")],
            body: #"{"short_description":"any state"}"#)
        let sysID = try #require(try Harness.result(created)["sys_id"] as? String)
        var steps: [String] = []
        for state in ["7", "6", "2", "8", "1"] {
            steps.append(
                Harness.text(
                    try await harness.send(
                        "PATCH", "/api/now/table/incident/\(sysID)", query: [("sysparm_fields", "state,active")],
                        body: #"{"state":"\#(state)"}"#)))
        }
        #expect(
            steps == [
                #"{"result":{"state":"7","active":"false"}}"#, #"{"result":{"state":"6","active":"true"}}"#,
                #"{"result":{"state":"2","active":"true"}}"#, #"{"result":{"state":"8","active":"false"}}"#,
                #"{"result":{"state":"1","active":"true"}}"#,
            ])
    }

    @Test func aSubmittedRequestIsInProcess() async throws {
        let fields = [("sysparm_fields", "request_state,stage")]
        let created = try await harness.send(
            "POST", "/api/now/table/sc_request", query: [("sysparm_fields", "sys_id,request_state,stage")],
            body: #"{"request_state":"draft"}"#)
        let sysID = try #require(try Harness.result(created)["sys_id"] as? String)
        #expect(
            Harness.text(created)
                == #"{"result":{"sys_id":"\#(sysID)","request_state":"draft","stage":"requested"}}"#)
        let submitted = try await harness.send(
            "PATCH", "/api/now/table/sc_request/\(sysID)", query: fields, body: #"{"request_state":"submitted"}"#)
        #expect(Harness.text(submitted) == #"{"result":{"request_state":"in_process","stage":"requested"}}"#)
    }

    @Test func aStandardChangeTakesItsTemplatesValues() async throws {
        let templates = try await harness.send(
            "GET", "/api/now/table/std_change_producer_version",
            query: [("sysparm_query", "name=Clear BGP sessions on a Cisco router - 1"), ("sysparm_fields", "sys_id")])
        let template = try #require(try Harness.results(templates).first?["sys_id"] as? String)
        let created = try await harness.send(
            "POST", "/api/now/table/change_request",
            query: [
                ("sysparm_fields", "type,short_description,description,risk,chg_model.name"),
                ("sysparm_exclude_reference_link", "true"),
            ],
            body: #"{"std_change_producer_version":"\#(template)","risk":"3"}"#)
        #expect(
            Harness.text(created)
                == #"{"result":{"type":"standard","short_description":"Clear BGP sessions on a Cisco router","#
                + #""description":"Resend the complete BGP table to neighboring routers by clearing the BGP sessions "#
                + #"(soft reset).","risk":"3","chg_model.name":"Standard"}}"#)
    }

    @Test func choicesCanBeAddedAndRemoved() async throws {
        let created = try await harness.send(
            "POST", "/api/now/table/sys_choice", query: [("sysparm_fields", "sys_id,name,element,value,label")],
            body: #"{"name":"change_request","element":"category","value":"cloud","label":"Cloud"}"#)
        #expect(created.statusCode == 201)
        let sysID = try #require(try Harness.result(created)["sys_id"] as? String)
        let listed = try await harness.send(
            "GET", "/api/now/table/sys_choice",
            query: [("sysparm_query", "name=change_request^element=category^valueINcloud,Other^ORDERBYlabel"),
                ("sysparm_fields", "value,label,sys_created_by")])
        #expect(
            Harness.text(listed)
                == #"{"result":[{"value":"cloud","label":"Cloud","sys_created_by":"admin"},"#
                + #"{"value":"Other","label":"Other","sys_created_by":"system"}]}"#)
        #expect(try await harness.send("DELETE", "/api/now/table/sys_choice/\(sysID)").statusCode == 204)
        let dictionary = try await harness.send("POST", "/api/now/table/sys_dictionary", body: "{}")
        #expect(dictionary.statusCode == 403)
    }

    @Test func aTinyURLStandsForTheLongQueryItWasGiven() async throws {
        let long =
            "http://localhost/api/now/table/incident?sysparm_query="
            + (1...300).map { "number=INC00100\(String(format: "%02d", $0 % 100))" }.joined(separator: "%5EOR")
            + "%5EORDERBYnumber&sysparm_fields=number&sysparm_limit=2"
        let tiny = try await harness.send(
            "POST", "/api/now/tinyurl", body: JSONValue.object(["url": .string(long)]).jsonText())
        #expect(tiny.statusCode == 200)
        let key = String(SHA256.hex("nowflow-tiny:" + long).prefix(32))
        #expect(Harness.text(tiny) == #"{"result":"incident_list.do?sysparm_tiny=\#(key)"}"#)
        let again = try await harness.send(
            "POST", "/api/now/tinyurl", body: JSONValue.object(["url": .string(long)]).jsonText())
        #expect(Harness.text(again) == Harness.text(tiny))
        let expanded = try await harness.send("GET", "/api/now/table/incident", query: [("sysparm_tiny", key)])
        #expect(Harness.text(expanded) == #"{"result":[{"number":"INC0010001"},{"number":"INC0010002"}]}"#)
        let unauthenticated = try await harness.send(
            "POST", "/api/now/tinyurl", body: #"{"url":"http://localhost/"}"#,
            headers: [("Content-Type", "application/json")])
        #expect(unauthenticated.statusCode == 401)
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
