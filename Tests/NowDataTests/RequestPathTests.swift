import Foundation
import LocalInstance
@testable import NowData
import Testing

/// Table names and sys_ids holding characters a URL path cannot carry as they are reach the instance
/// percent-encoded, in process and over each HTTP transport, and get the platform's answer.
@Suite struct RequestPathTests {
    static let noRecord = "No Record found (Record doesn't exist or ACL restricts the record retrieval)"

    /// A read that the service sends encoded, and the whole error the instance's answer becomes.
    static let reads: [(read: @Sendable (NowTableService) async throws -> Data, error: String)] = [
        ({ try await $0.records(from: "my table") },
            "bad response 400 from GET /api/now/table/my%20table: Invalid table my table"),
        ({ try await $0.records(from: "u_café") },
            "bad response 400 from GET /api/now/table/u_caf%C3%A9: Invalid table u_café"),
        ({ try await $0.records(from: "incident?sysparm_limit=1#x") },
            "bad response 400 from GET /api/now/table/incident%3Fsysparm_limit%3D1%23x: "
                + "Invalid table incident?sysparm_limit=1#x"),
        ({ try await $0.records(from: "50%/off") },
            "bad response 400 from GET /api/now/table/50%25%2Foff: Invalid table 50%/off"),
        ({ try await $0.record(with: "a#b", from: "incident") },
            "bad response 404 from GET /api/now/table/incident/a%23b: \(noRecord)"),
        ({ try await $0.record(with: "../sys_user", from: "incident") },
            "bad response 404 from GET /api/now/table/incident/..%2Fsys_user: \(noRecord)"),
        ({ try await $0.record(with: "é ?", from: "incident") },
            "bad response 404 from GET /api/now/table/incident/%C3%A9%20%3F: \(noRecord)"),
        ({ try await $0.record(with: "..", from: "incident") },
            "bad response 404 from GET /api/now/table/incident/%2E%2E: \(noRecord)"),
    ]

    static func expectAnswers(_ service: NowTableService) async {
        for (read, expected) in reads {
            await #expect { _ = try await read(service) } throws: { "\($0)" == expected }
        }
    }

    @Test func inProcess() async throws {
        let instance = try makeLocalInstance()
        defer { instance.close() }

        await Self.expectAnswers(makeService(on: instance))
    }

    @Test(arguments: HTTPClient.allCases)
    func overHTTP(_ client: HTTPClient) async throws {
        let server = try NowTableServiceHTTPTests.serve()
        defer { server.stop() }

        await Self.expectAnswers(NowTableServiceHTTPTests.service(server, client))
    }

    @Test(arguments: HTTPClient.allCases)
    func aRecordIsWrittenAndReadWhateverTheTransport(_ client: HTTPClient) async throws {
        let server = try NowTableServiceHTTPTests.serve()
        defer { server.stop() }
        let service = NowTableServiceHTTPTests.service(server, client)

        let created = try await service.create(TicketModel(shortDescription: "a/b #c ?d %e é"), in: "incident")
        let read = try await service.model(TicketModel.self, with: created.sysId, from: "incident")

        #expect(read.shortDescription == "a/b #c ?d %e é")
        try await service.delete(read, from: "incident")
    }

    @Test(arguments: HTTPClient.allCases)
    func aHandBuiltPathThatIsNotEncodedIsRefusedBeforeSending(_ client: HTTPClient) async throws {
        let transport = client.transport(to: URL(string: "http://127.0.0.1:9")!, timeout: .seconds(5))

        for path in ["/api/now/table/my table", "/api/now/table/a%zz", "/api/now/table/100%", "api/now/table/x"] {
            await #expect { _ = try await transport.send(NowHTTPRequest(method: "GET", path: path)) } throws: {
                "\($0)"
                    == "The request path \(path) is not percent-encoded: it must start with / and write a space, #, "
                    + "?, a % sign or a non-ASCII letter as %XX (NowHTTPRequest.percentEncodedPathSegment(_:) "
                    + "encodes a segment)."
            }
        }
    }

    @Test func theURLKeepsTheEncodedPathBelowTheInstancesOwn() throws {
        let request = NowHTTPRequest(
            method: "GET", path: "/api/now/table/my%20table/a%2Fb%23c",
            queryItems: [URLQueryItem(name: "sysparm_query", value: "short_description=a+b")])

        let url = try request.url(on: URL(string: "https://example.service-now.com/sub%20path/")!)

        #expect(
            url.absoluteString
                == "https://example.service-now.com/sub%20path/api/now/table/my%20table/a%2Fb%23c"
                + "?sysparm_query=short_description%3Da%2Bb")
    }

    @Test(arguments: [
        ("incident", "incident"), ("my table", "my%20table"), ("a/b", "a%2Fb"), ("a?b#c", "a%3Fb%23c"),
        ("100%", "100%25"), ("é", "%C3%A9"), ("日本", "%E6%97%A5%E6%9C%AC"), ("-._~", "-._~"), (".", "%2E"),
        ("..", "%2E%2E"), ("...", "..."), ("a+b&c=d;e:f@g", "a%2Bb%26c%3Dd%3Be%3Af%40g"), ("", ""),
    ])
    func aSegmentIsEncodedOutsideTheUnreservedCharacters(text: String, encoded: String) {
        #expect(NowHTTPRequest.percentEncodedPathSegment(text) == encoded)
    }
}
