import Foundation
import NowData
import TestSupport
import Testing

@testable import LocalInstance

/// The CMDB Instance API (`/api/now/cmdb/instance/{className}...`) over three Linux servers and two relationship
/// types: a CI's attributes with its outbound and inbound relations, adding relations (once), removing one, the
/// class's list, creating and updating CIs, and the errors.
@Suite struct CMDBInstanceAPITests {
    static let cools = "c0010000000000000000000000000001"
    static let exchanges = "e0010000000000000000000000000002"
    static let first = "a0000000000000000000000000000001"
    static let second = "a0000000000000000000000000000002"
    static let third = "a0000000000000000000000000000003"

    static func harness() async throws -> Harness {
        let harness = try Harness(seed: false)
        for (sysID, name) in [(cools, "Cools::Cooled By"), (exchanges, "Exchanges data with::Exchanges data with")] {
            let created = try await harness.send(
                "POST", "/api/now/table/cmdb_rel_type",
                body: #"{"sys_id":"\#(sysID)","name":"\#(name)","sys_name":"\#(name)"}"#)
            #expect(created.statusCode == 201)
        }
        for (sysID, name) in [(first, "lnx-1"), (second, "lnx-2"), (third, "lnx-3")] {
            let created = try await harness.send(
                "POST", "/api/now/table/cmdb_ci_linux_server", body: #"{"sys_id":"\#(sysID)","name":"\#(name)"}"#)
            #expect(created.statusCode == 201)
        }
        return harness
    }

    /// The CI's record as the Table API renders it without reference links: the API's `attributes`.
    static func attributes(_ harness: Harness, _ sysID: String) async throws -> String {
        let record = try await harness.send(
            "GET", "/api/now/table/cmdb_ci_linux_server/\(sysID)", query: [("sysparm_exclude_reference_link", "true")])
        let text = Harness.text(record)
        #expect(text.hasPrefix(#"{"result":"#) && text.hasSuffix("}"))
        return String(text.dropFirst(#"{"result":"#.count).dropLast())
    }

    static func relation(_ sysID: String, type: String, typeName: String, target: String, targetName: String)
        -> String
    {
        #"{"sys_id":"\#(sysID)","type":{"display_value":"\#(typeName)","#
            + #""link":"http://localhost/api/now/table/cmdb_rel_type/\#(type)","value":"\#(type)"},"#
            + #""target":{"display_value":"\#(targetName)","#
            + #""link":"http://localhost/api/now/cmdb/instance/cmdb_ci/\#(target)","value":"\#(target)"}}"#
    }

    static func instance(_ outbound: [String], _ attributes: String, _ inbound: [String]) -> String {
        #"{"result":{"outbound_relations":["# + outbound.joined(separator: ",") + #"],"attributes":"# + attributes
            + #","inbound_relations":["# + inbound.joined(separator: ",") + "]}}"
    }

    @Test func relationsAreAddedReadAndRemoved() async throws {
        let harness = try await Self.harness()
        let path = "/api/now/cmdb/instance/cmdb_ci_linux_server/\(Self.first)"
        let attributes = try await Self.attributes(harness, Self.first)

        let empty = try await harness.send("GET", path)
        #expect(empty.statusCode == 200)
        #expect(Harness.text(empty) == Self.instance([], attributes, []))

        let body =
            #"{"source":"ServiceNow","outbound_relations":[{"type":"\#(Self.cools)","target":"\#(Self.second)"},"#
            + #"{"type":"\#(Self.cools)","target":"\#(Self.third)"}],"#
            + #""inbound_relations":[{"type":"\#(Self.exchanges)","target":"\#(Self.third)"}]}"#
        let added = try await harness.send("POST", path + "/relation", body: body)
        #expect(added.statusCode == 200)
        let result = try Harness.result(added)
        let outboundIDs = try #require(result["outbound_relations"] as? [[String: Any]]).compactMap {
            $0["sys_id"] as? String
        }
        let inboundIDs = try #require(result["inbound_relations"] as? [[String: Any]]).compactMap {
            $0["sys_id"] as? String
        }
        #expect(outboundIDs.count == 2 && inboundIDs.count == 1)
        let toSecond = Self.relation(
            outboundIDs[0], type: Self.cools, typeName: "Cools::Cooled By", target: Self.second, targetName: "lnx-2")
        let toThird = Self.relation(
            outboundIDs[1], type: Self.cools, typeName: "Cools::Cooled By", target: Self.third, targetName: "lnx-3")
        let fromThird = Self.relation(
            inboundIDs[0], type: Self.exchanges, typeName: "Exchanges data with::Exchanges data with",
            target: Self.third, targetName: "lnx-3")
        let full = Self.instance([toSecond, toThird], attributes, [fromThird])
        #expect(Harness.text(added) == full)
        #expect(Harness.text(try await harness.send("GET", path)) == full)

        // The same relations again add nothing.
        let again = try await harness.send("POST", path + "/relation", body: body)
        #expect(again.statusCode == 200)
        #expect(Harness.text(again) == full)

        // The third server sees the relations from its side: the outbound one from the first is inbound to it.
        let thirdAttributes = try await Self.attributes(harness, Self.third)
        #expect(
            Harness.text(try await harness.send("GET", "/api/now/v1/cmdb/instance/cmdb_ci_linux_server/\(Self.third)"))
                == Self.instance(
                    [
                        Self.relation(
                            inboundIDs[0], type: Self.exchanges, typeName: "Exchanges data with::Exchanges data with",
                            target: Self.first, targetName: "lnx-1")
                    ], thirdAttributes,
                    [
                        Self.relation(
                            outboundIDs[1], type: Self.cools, typeName: "Cools::Cooled By", target: Self.first,
                            targetName: "lnx-1")
                    ]))

        let deleted = try await harness.send("DELETE", path + "/relation/\(outboundIDs[0])")
        #expect(deleted.statusCode == 204)
        #expect(deleted.body.isEmpty)
        #expect(Harness.text(try await harness.send("GET", path)) == Self.instance([toThird], attributes, [fromThird]))
        let rows = try await harness.send("GET", "/api/now/table/cmdb_rel_ci", query: [("sysparm_fields", "sys_id")])
        #expect(
            Harness.text(rows) == #"{"result":[{"sys_id":"\#(outboundIDs[1])"},{"sys_id":"\#(inboundIDs[0])"}]}"#)

        // A relation the CI is not part of (gone, or another CI's) is not found.
        let gone = try await harness.send("DELETE", path + "/relation/\(outboundIDs[0])")
        #expect(gone.statusCode == 404)
        #expect(
            Harness.text(gone)
                == #"{"error":{"message":"No Record found","detail":"Record doesn't exist or ACL restricts the "#
                + #"record retrieval"},"status":"failure"}"#)
        let others = try await harness.send(
            "DELETE", "/api/now/cmdb/instance/cmdb_ci_linux_server/\(Self.second)/relation/\(inboundIDs[0])")
        #expect(others.statusCode == 404)
    }

    @Test func theClassListsItsConfigurationItems() async throws {
        let harness = try await Self.harness()
        let list = try await harness.send(
            "GET", "/api/now/cmdb/instance/cmdb_ci_linux_server", query: [("sysparm_query", "nameINlnx-1,lnx-3")])
        #expect(list.statusCode == 200)
        #expect(
            Harness.text(list)
                == #"{"result":[{"sys_id":"\#(Self.first)","name":"lnx-1"},"#
                + #"{"sys_id":"\#(Self.third)","name":"lnx-3"}]}"#)
        #expect(
            Harness.text(try await harness.send("GET", "/api/now/cmdb/instance/cmdb_ci_win_server"))
                == #"{"result":[]}"#)
    }

    /// Expects `response` to be the platform's error body with `message` and `detail`, and `status`.
    private func failure(_ response: NowHTTPResponse, _ status: Int, _ message: String, _ detail: String) {
        #expect(response.statusCode == status)
        #expect(
            Harness.text(response) == #"{"error":{"message":"\#(message)","detail":"\#(detail)"},"status":"failure"}"#)
    }

    @Test func errorsAnswerWithTheirBodies() async throws {
        let harness = try await Self.harness()
        let path = "/api/now/cmdb/instance/cmdb_ci_linux_server/\(Self.first)/relation"
        failure(
            try await harness.send("GET", "/api/now/cmdb/instance/incident/\(Self.first)"), 400, "Invalid class",
            "'incident' is not a CMDB class (a table extending cmdb_ci)")
        failure(
            try await harness.send("GET", "/api/now/cmdb/instance/cmdb_ci_win_server/\(Self.first)"), 404,
            "No Record found", "Record doesn't exist or ACL restricts the record retrieval")
        failure(
            try await harness.send(
                "POST", path, body: #"{"outbound_relations":[{"type":"\#(Self.second)","target":"\#(Self.third)"}]}"#),
            400, "Invalid relations", "no relationship type (cmdb_rel_type) has the sys_id '\(Self.second)'")
        failure(
            try await harness.send(
                "POST", path, body: #"{"inbound_relations":[{"type":"\#(Self.cools)","target":"\#(Self.cools)"}]}"#),
            400, "Invalid relations", "no configuration item (cmdb_ci) has the sys_id '\(Self.cools)'")
        failure(
            try await harness.send("POST", path, body: #"{"outbound_relations":[{"type":"\#(Self.cools)"}]}"#), 400,
            "Invalid relations", "each of 'outbound_relations' needs a 'type' and a 'target' sys_id")
        failure(
            try await harness.send("POST", path, body: #"{"source":"ServiceNow"}"#), 400, "Invalid relations",
            "give 'outbound_relations' or 'inbound_relations'")
        let unauthenticated = try await harness.send(
            "GET", "/api/now/cmdb/instance/cmdb_ci_linux_server/\(Self.first)", headers: [])
        #expect(unauthenticated.statusCode == 401)
        #expect(
            Harness.text(try await harness.send("GET", "/api/now/table/cmdb_rel_ci")) == #"{"result":[]}"#)
    }

    @Test func aCIIsCreatedWithItsRelationsAndUpdated() async throws {
        let harness = try await Self.harness()
        let created = try await harness.send(
            "POST", "/api/now/cmdb/instance/cmdb_ci_linux_server",
            body: #"{"attributes":{"name":"linux99","firewall_status":"Intranet","colour":"blue"},"#
                + #""source":"ServiceNow","#
                + #""outbound_relations":[{"type":"\#(Self.cools)","target":"\#(Self.second)"}],"#
                + #""inbound_relations":[{"type":"\#(Self.exchanges)","target":"\#(Self.third)"}]}"#)
        #expect(created.statusCode == 200)
        #expect(
            created.headers.value(named: "X-Nowflow-Warning")
                == "ignored fields: 'colour' (cmdb_ci_linux_server has no such field)")
        let found = try await harness.send(
            "GET", "/api/now/table/cmdb_ci_linux_server",
            query: [
                ("sysparm_query", "name=linux99"),
                ("sysparm_fields", "sys_id,firewall_status,discovery_source,first_discovered,last_discovered"),
            ])
        let sysID = try #require(try Harness.results(found).first?["sys_id"] as? String)
        #expect(
            Harness.text(found)
                == #"{"result":[{"sys_id":"\#(sysID)","firewall_status":"Intranet","discovery_source":"ServiceNow","#
                + #""first_discovered":"2026-11-30 09:00:00","last_discovered":"2026-11-30 09:00:00"}]}"#)
        let relations = try await harness.send(
            "GET", "/api/now/table/cmdb_rel_ci",
            query: [("sysparm_fields", "sys_id,parent,child,type"), ("sysparm_exclude_reference_link", "true")])
        let rows = try Harness.results(relations)
        #expect(rows.count == 2)
        let outboundID = try #require(rows.first { $0["parent"] as? String == sysID }?["sys_id"] as? String)
        let inboundID = try #require(rows.first { $0["child"] as? String == sysID }?["sys_id"] as? String)
        let outbound = Self.relation(
            outboundID, type: Self.cools, typeName: "Cools::Cooled By", target: Self.second, targetName: "lnx-2")
        let inbound = Self.relation(
            inboundID, type: Self.exchanges, typeName: "Exchanges data with::Exchanges data with", target: Self.third,
            targetName: "lnx-3")
        #expect(
            Harness.text(created) == Self.instance([outbound], try await Self.attributes(harness, sysID), [inbound]))

        harness.clock.advance(seconds: 90)
        let path = "/api/now/cmdb/instance/cmdb_ci_linux_server/\(sysID)"
        for method in ["PATCH", "PUT"] {
            let updated = try await harness.send(
                method, path,
                body: #"{"attributes":{"cpu_name":"i5","discovery_source":"Manual Entry"},"source":"ServiceNow"}"#)
            #expect(updated.statusCode == 200)
            #expect(
                Harness.text(updated)
                    == Self.instance([outbound], try await Self.attributes(harness, sysID), [inbound]))
        }
        let after = try await harness.send(
            "GET", "/api/now/table/cmdb_ci_linux_server/\(sysID)",
            query: [
                ("sysparm_fields", "name,cpu_name,discovery_source,first_discovered,last_discovered,sys_mod_count")
            ])
        #expect(
            Harness.text(after)
                == #"{"result":{"name":"linux99","cpu_name":"i5","discovery_source":"ServiceNow","#
                + #""first_discovered":"2026-11-30 09:00:00","last_discovered":"2026-11-30 09:01:30","#
                + #""sys_mod_count":"1"}}"#)
    }

    @Test func ciWritesTakeTheTableAPIsRolesAndRefuseBadBodies() async throws {
        let harness = try await Self.harness()
        let path = "/api/now/cmdb/instance/cmdb_ci_linux_server"
        let sources = "ServiceNow, Manual Entry, ImportSet, SCCM, Altiris, LANDesk, OpenView, Other Automated"
        failure(
            try await harness.send("POST", path, body: #"{"attributes":{"name":"x"}}"#), 400, "Invalid source",
            "give 'source', one of the discovery sources: \(sources)")
        failure(
            try await harness.send("POST", path, body: #"{"attributes":{"name":"x"},"source":"Nowhere"}"#), 400,
            "Invalid source", "give 'source', one of the discovery sources: \(sources)")
        failure(
            try await harness.send("PATCH", "\(path)/\(Self.first)", body: #"{"source":"ServiceNow"}"#), 400,
            "Invalid attributes", "give 'attributes', an object of the CI's values")
        failure(
            try await harness.send(
                "POST", path,
                body: #"{"attributes":{"name":"x"},"source":"ServiceNow","#
                    + #""outbound_relations":[{"type":"\#(Self.cools)","target":"\#(Self.cools)"}]}"#),
            400, "Invalid relations", "no configuration item (cmdb_ci) has the sys_id '\(Self.cools)'")
        failure(
            try await harness.send(
                "PATCH", "\(path)/\(String(repeating: "f", count: 32))",
                body: #"{"attributes":{"name":"x"},"source":"ServiceNow"}"#),
            404, "No Record found", "Record doesn't exist or ACL restricts the record retrieval")
        #expect(
            Harness.text(
                try await harness.send(
                    "GET", "/api/now/table/cmdb_ci", query: [("sysparm_query", "name=x"), ("sysparm_fields", "name")]))
                == #"{"result":[]}"#)

        // Without the itil role, the Table API's 403.
        let user = try await harness.send(
            "POST", "/api/now/table/sys_user", body: #"{"user_name":"viewer","user_password":"pw"}"#)
        #expect(user.statusCode == 201)
        let headers = [
            ("Authorization", "Basic " + Data("viewer:pw".utf8).base64EncodedString()),
            ("Content-Type", "application/json"),
        ]
        let refusal =
            #"{"error":{"message":"Operation Failed","detail":"ACL Exception \#("Insert") Failed due to security "#
            + #"constraints"},"status":"failure"}"#
        let refused = try await harness.send(
            "POST", path, body: #"{"attributes":{"name":"x"},"source":"ServiceNow"}"#, headers: headers)
        #expect(refused.statusCode == 403)
        #expect(Harness.text(refused) == refusal)
        let refusedUpdate = try await harness.send(
            "PATCH", "\(path)/\(Self.first)", body: #"{"attributes":{"name":"x"},"source":"ServiceNow"}"#,
            headers: headers)
        #expect(Harness.text(refusedUpdate) == refusal.replacingOccurrences(of: "Insert", with: "Update"))
    }
}
