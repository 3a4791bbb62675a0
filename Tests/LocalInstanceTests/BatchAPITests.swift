import Foundation
import NowData
import TestSupport
import Testing

@testable import LocalInstance

/// The Batch API as PySNC's `update_multiple` and `delete_multiple` use it: inner Table API requests run in
/// order, with the batch's authorisation, answered base64 in `serviced_requests`.
@Suite struct BatchAPITests {
    static let first = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa01"
    static let second = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa02"

    static func harness() async throws -> Harness {
        let harness = try Harness(seed: false)
        for id in [first, second] {
            let created = try await harness.send(
                "POST", "/api/now/table/incident", body: #"{"sys_id":"\#(id)","short_description":"batch \#(id)"}"#)
            #expect(created.statusCode == 201)
        }
        return harness
    }

    static func item(_ id: String, _ method: String, _ url: String, body: String? = nil) -> String {
        var fields = [
            #""id":"\#(id)""#, #""method":"\#(method)""#, #""url":"\#(url)""#,
            #""headers":[{"name":"Content-Type","value":"application/json"},{"name":"Accept","value":"application/json"}]"#,
        ]
        if let body { fields.append(#""body":"\#(Data(body.utf8).base64EncodedString())""#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// The serviced requests as (id, status, status text, decoded body).
    static func serviced(_ response: NowHTTPResponse) throws -> [(String, Int, String, String)] {
        let object = try Harness.json(response)
        let items = try #require(object["serviced_requests"] as? [[String: Any]])
        return try items.map { item in
            let encoded = try #require(item["body"] as? String)
            let body = try #require(Data(base64Encoded: encoded))
            #expect(item["execution_time"] is Int)
            return (
                try #require(item["id"] as? String), try #require(item["status_code"] as? Int),
                try #require(item["status_text"] as? String), String(decoding: body, as: UTF8.self)
            )
        }
    }

    @Test func runsEveryInnerRequestInOrder() async throws {
        let harness = try await Self.harness()
        let batch =
            #"{"batch_request_id":7,"rest_requests":["#
            + [
                Self.item(
                    "1", "PATCH", "/api/now/table/incident/\(Self.first)?sysparm_fields=short_description,urgency",
                    body: #"{"urgency":"1"}"#),
                Self.item("2", "DELETE", "/api/now/table/incident/\(Self.second)"),
                Self.item(
                    "3", "GET",
                    "/api/now/table/incident?sysparm_query=short_descriptionSTARTSWITHbatch+aa&sysparm_fields=sys_id"),
                Self.item("4", "GET", "/api/now/table/incident/\(Self.second)"),
                #"{"id":"5","method":"GET"}"#,
            ].joined(separator: ",") + "]}"
        let response = try await harness.send("POST", "/api/now/v1/batch", body: batch)
        #expect(response.statusCode == 200)
        let object = try Harness.json(response)
        #expect(object["batch_request_id"] as? String == "7")
        #expect(object["unserviced_requests"] as? [String] == ["5"])
        let answers = try Self.serviced(response)
        #expect(answers.map(\.0) == ["1", "2", "3", "4"])
        #expect(answers.map(\.1) == [200, 204, 200, 404])
        #expect(answers.map(\.2) == ["OK", "No Content", "OK", "Not Found"])
        #expect(answers[0].3 == #"{"result":{"short_description":"batch \#(Self.first)","urgency":"1"}}"#)
        #expect(answers[1].3 == "")
        #expect(answers[2].3 == #"{"result":[{"sys_id":"\#(Self.first)"}]}"#)
        #expect(
            answers[3].3
                == #"{"error":{"message":"No Record found","detail":"Record doesn't exist or ACL restricts the "#
                + #"record retrieval"},"status":"failure"}"#)
    }

    @Test func theBatchNeedsCredentialsAndAJSONBody() async throws {
        let harness = try await Self.harness()
        let anonymous = try await harness.send(
            "POST", "/api/now/v1/batch", body: #"{"rest_requests":[]}"#, headers: [("Content-Type", "application/json")])
        #expect(anonymous.statusCode == 401)
        let invalid = try await harness.send("POST", "/api/now/v1/batch", body: "[1]")
        #expect(invalid.statusCode == 400)
        #expect(try await harness.send("GET", "/api/now/v1/batch").statusCode == 405)
    }

    @Test func overHTTP() async throws {
        let instance = try LocalInstance(options: .init(adminPassword: "secret", seedDemoData: false, log: { _ in }))
        let listener = try HTTPListener { request in instance.reply(to: request) }
        defer {
            listener.stop()
            instance.close()
        }
        let client = HTTPTestClient(port: listener.port)
        let headers = ["Authorization": Harness.adminAuth, "Content-Type": "application/json"]
        let created = try await client.send(
            "POST", "/api/now/table/incident", headers: headers, body: Data(#"{"sys_id":"\#(Self.first)"}"#.utf8))
        #expect(created.status == 201)
        let reply = try await client.send(
            "POST", "/api/now/v1/batch", headers: headers,
            body: Data(
                (#"{"batch_request_id":"b1","rest_requests":["#
                    + Self.item("x", "DELETE", "/api/now/table/incident/\(Self.first)") + "]}").utf8))
        #expect(reply.status == 200)
        let object = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        let items = try #require(object["serviced_requests"] as? [[String: Any]])
        #expect(items.map { $0["status_code"] as? Int } == [204])
        let gone = try await client.send("GET", "/api/now/table/incident/\(Self.first)", headers: headers)
        #expect(gone.status == 404)
    }
}
