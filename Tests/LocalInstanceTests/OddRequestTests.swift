import Foundation
import NowData
import Testing

@testable import LocalInstance

@Suite struct OddRequestTests {
    let harness: Harness

    init() throws {
        harness = try Harness()
    }

    @Test(arguments: [
        ("GET", "/", 400), ("GET", "/api", 400), ("GET", "/api/now/table", 400), ("GET", "/api/now/v3/table/incident", 400),
        ("GET", "/api/now/table/incident/x/y", 400), ("GET", "/api/now/table/incident/%00", 404),
        ("GET", "/api/now/table/inc\"ident", 400), ("OPTIONS", "/api/now/table/incident", 405),
        ("HEAD", "/api/now/table/incident/abc", 405), ("GET", "/api/now/table/incident/", 200),
    ])
    func oddPathsAndMethodsGetClearAnswers(method: String, path: String, status: Int) async throws {
        let response = try await harness.send(method, path)
        #expect(response.statusCode == status)
        if status != 200 {
            let error = try #require(try Harness.json(response)["error"] as? [String: Any])
            #expect(error["message"] is String)
        }
    }

    @Test(arguments: [
        [("sysparm_limit", "abc"), ("sysparm_offset", "x")], [("sysparm_limit", "-5")],
        [("sysparm_limit", "99999999999999999999")], [("sysparm_fields", ",,,")], [("sysparm_fields", "caller_id..name")],
        [("sysparm_query", "^^^ORDERBY^NQ^OR")], [("sysparm_query", "short_descriptionLIKEé\u{0}\"\\")],
        [("sysparm_display_value", "sometimes")], [("", "")], [("caller_id.name", "Abel Tuter")],
    ])
    func oddParametersNeverFail(query: [(String, String)]) async throws {
        let response = try await harness.send("GET", "/api/now/table/incident", query: query)
        #expect(response.statusCode == 200)
        #expect(try Harness.json(response)["result"] is [Any])
    }

    @Test func bodiesWithEscapesAndUnicodeRoundTrip() async throws {
        let text = "Line 1\nLine \"2\"\t\\ é 漢字 \u{1}"
        let body = try JSONSerialization.data(withJSONObject: ["short_description": text, "description": ["nested"]])
        let created = try await harness.send(
            "POST", "/api/now/table/incident", body: String(decoding: body, as: UTF8.self))
        let record = try Harness.result(created)
        #expect(record["short_description"] as? String == text)
        #expect(record["description"] as? String == "")
        let invalidUTF8 = NowHTTPRequest(
            method: "POST", path: "/api/now/table/incident",
            headers: ["Authorization": Harness.adminAuth, "Content-Type": "application/json"],
            body: Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]))
        let response = try await harness.instance.transport.send(invalidUTF8)
        #expect(response.statusCode == 400)
    }
}
