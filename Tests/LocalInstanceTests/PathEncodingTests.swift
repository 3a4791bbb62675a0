import Foundation
import LocalInstance
import NowData
import TestSupport
import Testing

/// Table names and sys_ids arrive percent-encoded: the path is split on `/` first, then each segment decoded, and
/// the in-process transport and HTTP answer alike.
@Suite struct PathEncodingTests {
    static let authorization = "Basic " + Data("admin:admin".utf8).base64EncodedString()

    static let noRecord =
        #"{"error":{"message":"No Record found","detail":"Record doesn't exist or ACL restricts the record retrieval"},"#
        + #""status":"failure"}"#

    static func invalidTable(_ name: String) -> String {
        #"{"error":{"message":"Invalid table \#(name)","detail":null},"status":"failure"}"#
    }

    static func malformed(_ segment: String, of path: String) -> String {
        #"{"error":{"message":"Malformed percent-encoding in the request path","detail":"The segment '\#(segment)' "#
            + #"of \#(path) does not decode: a % must start two hexadecimal digits (a % sign itself is sent as %25) "#
            + #"and the bytes must be UTF-8 text"},"status":"failure"}"#
    }

    /// Paths as they go on the wire, and the instance's whole answer to a GET of each.
    static let cases: [(path: String, status: Int, body: String)] = [
        ("/api/now/table/my%20table", 400, invalidTable("my table")),
        ("/api/now/table/u_caf%C3%A9", 400, invalidTable("u_café")),
        ("/api/now/table/incident%3Fx%3D1%23top", 400, invalidTable("incident?x=1#top")),
        ("/api/now/table/no%2Fsuch", 400, invalidTable("no/such")),
        ("/api/now/table/100%25", 400, invalidTable("100%")),
        ("/api/now/table/incident/a%23b", 404, noRecord),
        ("/api/now/table/incident/a%2Fb", 404, noRecord),
        ("/api/now/v2/table/incident/..%2Fsys_user", 404, noRecord),
        ("/api/now/table/incident/%E2%9C%93%20ok", 404, noRecord),
        ("/api/now/table/a%zz", 400, malformed("a%zz", of: "/api/now/table/a%zz")),
        ("/api/now/table/incident/abc%", 400, malformed("abc%", of: "/api/now/table/incident/abc%")),
        ("/api/now/table/incident/%4", 400, malformed("%4", of: "/api/now/table/incident/%4")),
        ("/api/now/table/incident/%FF%FE", 400, malformed("%FF%FE", of: "/api/now/table/incident/%FF%FE")),
    ]

    @Test func eachCaseGetsThePlatformsAnswerInProcessAndOverHTTP() async throws {
        let server = try LocalInstanceServer(options: LocalInstance.Options(seedDemoData: false, log: { _ in }))
        defer { server.stop() }
        let instance = try LocalInstance(options: LocalInstance.Options(seedDemoData: false, log: { _ in }))
        defer { instance.close() }
        let port = try #require(URLComponents(string: server.url)?.port.map(UInt16.init))

        for (path, status, body) in Self.cases {
            let inProcess = try await instance.transport.send(
                NowHTTPRequest(method: "GET", path: path, headers: ["Authorization": Self.authorization]))
            #expect(inProcess.statusCode == status, "\(path)")
            #expect(String(decoding: inProcess.body, as: UTF8.self) == body, "\(path)")
            let overHTTP = try RawHTTPClient.send(
                "GET", path, headers: ["Authorization": Self.authorization], port: port)
            #expect(overHTTP.status == status, "\(path)")
            #expect(overHTTP.body == body, "\(path)")
        }
    }

    @Test func anEncodedSlashIsPartOfTheSegmentAndAPlainOneASeparator() async throws {
        let harness = try Harness()

        let encoded = try await harness.send("GET", "/api/now/table/incident/a%2Fb")
        let separated = try await harness.send("GET", "/api/now/table/incident/a/b")

        #expect(encoded.statusCode == 404)
        #expect(separated.statusCode == 400)
        #expect(
            Harness.text(separated)
                == #"{"error":{"message":"Requested URI does not represent any resource","detail":null},"#
                + #""status":"failure"}"#)
    }

    @Test func encodedSegmentsRouteAndLinksKeepThePathAsSent() async throws {
        let harness = try Harness()

        let list = try await harness.send("GET", "/api/now/t%61ble/inc%69dent", query: [("sysparm_limit", "1")])

        #expect(list.statusCode == 200)
        #expect(try Harness.results(list).count == 1)
        let first = try #require(list.headers["Link"]?.split(separator: ",").first)
        #expect(first == #"<http://localhost/api/now/t%61ble/inc%69dent?sysparm_limit=1&sysparm_offset=0>;rel="first""#)
    }

    @Test func aRecordIsReadWritesAndDeletedThroughEncodedPaths() async throws {
        let harness = try Harness()
        let created = try await harness.send(
            "POST", "/api/now/table/inc%69dent", body: #"{"short_description":"encoded path"}"#)
        let sysID = try #require(try Harness.result(created)["sys_id"] as? String)
        let encodedID = sysID.map { "%" + String(format: "%02X", $0.asciiValue ?? 0) }.joined()

        let read = try await harness.send("GET", "/api/now/table/incident/" + encodedID)
        let updated = try await harness.send(
            "PATCH", "/api/now/table/incident/" + encodedID, body: #"{"short_description":"changed"}"#)
        let deleted = try await harness.send("DELETE", "/api/now/table/incident/" + encodedID)

        #expect(try Harness.result(read)["short_description"] as? String == "encoded path")
        #expect(try Harness.result(updated)["short_description"] as? String == "changed")
        #expect(deleted.statusCode == 204)
    }
}
