import Foundation
import LocalInstance
import NowData
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The local instance's Table API over HTTP (the listener in front of the real handler) answers as it does in
/// process, with the platform's headers and status codes.
@Suite struct HTTPConformanceTests {
    static let authorization = "Basic " + Data("admin:secret".utf8).base64EncodedString()

    /// A demo instance in memory behind a listener on a free port.
    final class Served: Sendable {
        let instance: LocalInstance
        let listener: HTTPListener
        let client: HTTPTestClient

        init() throws {
            let instance = try LocalInstance(options: .init(adminPassword: "secret", log: { _ in }))
            self.instance = instance
            listener = try HTTPListener { request in instance.reply(to: request) }
            client = HTTPTestClient(port: listener.port)
        }

        func send(_ method: String, _ pathAndQuery: String, body: String? = nil) async throws -> HTTPTestClient.Reply {
            var headers = ["Authorization": HTTPConformanceTests.authorization, "Accept": "application/json"]
            if body != nil { headers["Content-Type"] = "application/json" }
            return try await client.send(method, pathAndQuery, headers: headers, body: body.map { Data($0.utf8) })
        }

        deinit {
            listener.stop()
            instance.close()
        }
    }

    static func result(_ reply: HTTPTestClient.Reply) throws -> [String: Any] {
        let object = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        return try #require(object["result"] as? [String: Any])
    }

    static func results(_ reply: HTTPTestClient.Reply) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        return try #require(object["result"] as? [[String: Any]])
    }

    @Test func listsAPageWithTotalCountAndLinks() async throws {
        let served = try Served()
        let reply = try await served.send(
            "GET", "/api/now/table/incident?sysparm_limit=5&sysparm_offset=5&sysparm_fields=number,priority")
        #expect(reply.status == 200)
        #expect(try Self.results(reply).count == 5)
        #expect(try Self.results(reply).allSatisfy { Set($0.keys) == ["number", "priority"] })
        let total = try #require(reply.header("X-Total-Count").flatMap(Int.init))
        #expect(total >= 50)
        let link = try #require(reply.header("Link"))
        for relation in ["first", "prev", "next", "last"] {
            #expect(link.contains(#"rel="\#(relation)""#), "Link: \(link)")
        }
        #expect(link.contains("sysparm_offset=10"))
    }

    /// A body's number keeps its text and a NUL inside a string ends nothing, over the socket as in process.
    @Test func bodyValuesReachTheStoreWhole() async throws {
        let served = try Served()
        let created = try await served.send(
            "POST", "/api/now/table/incident?sysparm_fields=short_description,urgency",
            body: #"{"short_description":"over\u0000HTTP","urgency":3}"#)
        #expect(created.status == 201)
        #expect(
            String(decoding: created.body, as: UTF8.self)
                == #"{"result":{"short_description":"over\u0000HTTP","urgency":"3"}}"#)
    }

    @Test func createsGetsPatchesAndDeletesARecord() async throws {
        let served = try Served()
        let created = try await served.send(
            "POST", "/api/now/table/incident", body: #"{"short_description":"Created over HTTP","urgency":"2"}"#)
        #expect(created.status == 201)
        let record = try Self.result(created)
        let sysID = try #require(record["sys_id"] as? String)
        #expect(sysID.count == 32)
        #expect((record["number"] as? String)?.hasPrefix("INC") == true)
        #expect(record["short_description"] as? String == "Created over HTTP")

        let fetched = try await served.send("GET", "/api/now/table/incident/\(sysID)")
        #expect(fetched.status == 200)
        #expect(try Self.result(fetched)["urgency"] as? String == "2")

        let patched = try await served.send("PATCH", "/api/now/table/incident/\(sysID)", body: #"{"urgency":"1"}"#)
        #expect(patched.status == 200)
        #expect(try Self.result(patched)["urgency"] as? String == "1")
        #expect(try Self.result(patched)["sys_mod_count"] as? String == "1")

        let deleted = try await served.send("DELETE", "/api/now/table/incident/\(sysID)")
        #expect(deleted.status == 204)
        #expect(deleted.body.isEmpty)

        let missing = try await served.send("GET", "/api/now/table/incident/\(sysID)")
        #expect(missing.status == 404)
        #expect(
            missing.text
                == #"{"error":{"message":"No Record found","#
                + #""detail":"Record doesn't exist or ACL restricts the record retrieval"},"status":"failure"}"#)
    }

    @Test func refusesWrongCredentialsWithTheBasicChallenge() async throws {
        let served = try Served()
        let wrong = "Basic " + Data("admin:wrong".utf8).base64EncodedString()
        let reply = try await served.client.send("GET", "/api/now/table/incident", headers: ["Authorization": wrong])
        #expect(reply.status == 401)
        #expect(reply.header("WWW-Authenticate") == #"BASIC realm="Service-now""#)
    }

    @Test func answersOverHTTPAsInProcess() async throws {
        let served = try Served()
        let requests: [(String, String, [URLQueryItem])] = [
            (
                "GET", "/api/now/table/incident",
                [
                    URLQueryItem(name: "sysparm_query", value: "active=true^priority<=2^ORDERBYDESCsys_created_on"),
                    URLQueryItem(name: "sysparm_limit", value: "3"),
                    URLQueryItem(name: "sysparm_display_value", value: "all"),
                ]
            ),
            (
                "GET", "/api/now/table/sys_user",
                [
                    URLQueryItem(name: "sysparm_query", value: "user_name=abel.tuter"),
                    URLQueryItem(name: "sysparm_exclude_reference_link", value: "TRUE"),
                ]
            ),
            ("GET", "/api/now/table/no_such_table", []),
            (
                "GET", "/api/now/table/incident",
                [URLQueryItem(name: "sysparm_query", value: "javascript:gs.getUserID()")]
            ),
        ]
        for (method, path, query) in requests {
            var components = URLComponents()
            components.path = path
            components.queryItems = query.isEmpty ? nil : query
            let encoded =
                (components.percentEncodedPath)
                + (components.percentEncodedQuery.map {
                    "?" + $0.replacingOccurrences(of: "+", with: "%2B")
                } ?? "")
            let overHTTP = try await served.send(method, encoded)
            guard
                case .respond(let inProcess, _) = served.instance.reply(
                    to: NowHTTPRequest(
                        method: method, path: path, queryItems: query,
                        headers: [
                            "Authorization": Self.authorization, "Accept": "application/json",
                            "Host": "127.0.0.1:\(served.listener.port)",
                        ]))
            else {
                Issue.record("\(method) \(path) was dropped in process")
                continue
            }
            #expect(overHTTP.status == inProcess.statusCode, "\(method) \(encoded)")
            #expect(overHTTP.text == String(decoding: inProcess.body, as: UTF8.self), "\(method) \(encoded)")
            #expect(overHTTP.header("X-Total-Count") == inProcess.headers["X-Total-Count"], "\(method) \(encoded)")
        }
    }

    @Test func injectsFaultsOverHTTP() async throws {
        let served = try Served()
        served.instance.setFaults(
            FaultInjection(scripted: [.status(429, retryAfterSeconds: 7), .drop, .latency(.milliseconds(20))]))
        let limited = try await served.send("GET", "/api/now/table/incident?sysparm_limit=1")
        #expect(limited.status == 429)
        #expect(limited.header("Retry-After") == "7")
        // On a new connection: libcurl resends a request once when a reused keep-alive connection closes unanswered.
        await #expect(throws: URLError.self) {
            _ = try await HTTPTestClient(port: served.listener.port).send(
                "GET", "/api/now/table/incident?sysparm_limit=1", headers: ["Authorization": Self.authorization])
        }
        let slow = try await served.send("GET", "/api/now/table/incident?sysparm_limit=1")
        #expect(slow.status == 200)
    }
}
