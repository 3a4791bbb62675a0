import Foundation
import LocalInstance
import NowData
import Synchronization
import Testing

/// The paginator's pipeline over real HTTP (libcurl to the local instance's listener), with a caller that asks for
/// each page as soon as it has the one before: every page is decoded while the next one is transferred.
@Suite struct PaginatorPipelineTests {
    /// The pages (by offset) whose response the client has received.
    static let arrived = Mutex<Set<Int>>([])
    /// What each page's decoding saw, in order.
    static let notes = Mutex<[String]>([])

    /// A record whose decoding, at the first record of a page that has a next page, waits for the client to have
    /// received that next page (a minute at most, a guard against a hang, not a measure) and notes whether it did.
    struct WaitingRecord: Decodable {
        var shortDescription: String

        enum CodingKeys: String, CodingKey {
            case shortDescription
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            shortDescription = try container.decode(String.self, forKey: .shortDescription)
            guard let index = Int(shortDescription.dropFirst("page test ".count)), index % 10 == 0, index < 40 else {
                return
            }
            let next = index + 10
            let deadline = ContinuousClock.now + .seconds(60)
            while !PaginatorPipelineTests.arrived.withLock({ $0.contains(next) }), ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.002)
            }
            let seen = PaginatorPipelineTests.arrived.withLock { $0.contains(next) }
            PaginatorPipelineTests.notes.withLock {
                $0.append("page \(index / 10): page \(next / 10) \(seen ? "arrived" : "did not arrive") meanwhile")
            }
        }
    }

    @Test(.timeLimit(.minutes(10))) func eachPageIsDecodedWhileTheNextArrives() async throws {
        let server = try LocalInstanceServer(options: LocalInstance.Options(seedDemoData: false, log: { _ in }))
        defer { server.stop() }
        let url = try #require(URL(string: server.url))
        let curl = CurlTransport(instanceURL: url)
        let transport = RecordingTransport { request, _ in
            let response = try await curl.send(request)
            if let offset = request.queryValue("sysparm_offset").flatMap(Int.init) {
                Self.arrived.withLock { _ = $0.insert(offset) }
            }
            return response
        }
        let service = makeService(transport, authentication: .basic(user: "admin", password: "admin"), url: server.url)
        for index in 0..<50 {
            _ = try await service.createRecord(
                with: ["short_description": String(format: "page test %03d", index)], in: "incident")
        }
        let before = transport.recorded.count

        let paginator: Paginator<[WaitingRecord]> = service.paginator(
            from: "incident", configuration: PaginatorTests.ordered)
        var records: [String] = []
        for try await page in paginator { records += page.map(\.shortDescription) }

        #expect(records == (0..<50).map { String(format: "page test %03d", $0) })
        #expect(
            Self.notes.withLock { $0 } == [
                "page 0: page 1 arrived meanwhile",
                "page 1: page 2 arrived meanwhile",
                "page 2: page 3 arrived meanwhile",
                "page 3: page 4 arrived meanwhile",
            ])
        #expect(PaginatorTests.pageOffsets(transport, after: before) == ["0", "10", "20", "30", "40"])
    }
}
