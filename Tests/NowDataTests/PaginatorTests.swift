import Foundation
import LocalInstance
import NowData
import Synchronization
import Testing

@Suite struct PaginatorTests {
    /// A local instance with `count` incidents named `page test <n>`, and a recording service on it.
    static func fixture(_ count: Int) async throws -> (LocalInstance, RecordingTransport, NowTableService) {
        let instance = try makeLocalInstance()
        let transport = RecordingTransport { request, _ in try await instance.transport.send(request) }
        let service = makeService(transport, authentication: .basic(user: "admin", password: "admin"))
        for index in 0..<count {
            _ = try await service.createRecord(
                with: ["short_description": String(format: "page test %03d", index)], in: "incident")
        }
        return (instance, transport, service)
    }

    static let ordered = FetchConfiguration(filter: Filter(query: "ORDERBYshort_description"), limit: 10)

    @Test func pagesForwardBackwardAndToTheEnds() async throws {
        let (instance, transport, service) = try await Self.fixture(25)
        defer { instance.close() }
        let paginator: Paginator<[TicketModel]> = service.paginator(from: "incident", configuration: Self.ordered)

        #expect(paginator.itemsPerPage == 10)
        #expect(paginator.numberOfPages == Int.max)
        #expect(paginator.hasNext)
        #expect(!paginator.isFinished)

        let first = try await paginator.first()
        #expect(first.map(\.shortDescription).first == "page test 000")
        #expect(first.count == 10)
        #expect(paginator.page == 0)
        #expect(paginator.numberOfPages == 3)
        #expect(!paginator.hasPrevious)

        let second = try await paginator.next()
        #expect(second?.first?.shortDescription == "page test 010")
        #expect(paginator.page == 1)
        #expect(paginator.hasPrevious)

        let last = try await paginator.last()
        #expect(last.map(\.shortDescription) == (20..<25).map { String(format: "page test %03d", $0) })
        #expect(paginator.page == 2)
        #expect(!paginator.hasNext)
        #expect(paginator.isFinished)
        #expect(try await paginator.next() == nil)

        let back = try await paginator.previous()
        #expect(back?.first?.shortDescription == "page test 010")
        #expect(paginator.hasNext)

        let again = try await paginator.reset()
        #expect(again == first)
        #expect(paginator.page == 0)
        #expect(try await Paginator<[TicketModel]>.drain(paginator).count == 2)

        let pageRequests = transport.recorded.filter { $0.method == "GET" }.map(RecordingTransport.render)
        #expect(
            pageRequests.first
                == "GET /api/now/table/incident?sysparm_query=ORDERBYshort_description&sysparm_limit=10&sysparm_offset=0"
        )
        #expect(!paginator.isBusy)
    }

    @Test func iteratesEveryPageOnceAndStopsAtMaxRecords() async throws {
        let (instance, _, service) = try await Self.fixture(25)
        defer { instance.close() }

        let paginator: Paginator<[TicketModel]> = service.paginator(from: "incident", configuration: Self.ordered)
        var all: [String] = []
        for try await page in paginator { all += page.map(\.shortDescription) }
        #expect(all == (0..<25).map { String(format: "page test %03d", $0) })

        let limited: Paginator<[TicketModel]> = service.paginator(from: "incident", configuration: Self.ordered)
        limited.maxRecords = 13
        var sizes: [Int] = []
        for try await page in limited { sizes.append(page.count) }
        #expect(sizes == [10, 3])
        #expect(limited.numberOfPages == 2)
        #expect(limited.isFinished)

        let few: Paginator<[TicketModel]> = service.paginator(from: "incident", configuration: Self.ordered)
        few.maxRecords = 4
        #expect(try await few.first().count == 4)
        #expect(!few.hasNext)
        few.maxRecords = 0
        var none = 0
        for try await _ in few { none += 1 }
        #expect(none == 0)
    }

    @Test func rawPagesAreTheResponseBodies() async throws {
        let (instance, _, service) = try await Self.fixture(3)
        defer { instance.close() }

        let paginator = service.paginator(from: "incident", configuration: FetchConfiguration(limit: 2))
        var counts: [Int] = []
        for try await page in paginator { counts.append(page.convertToRecords().count) }
        #expect(counts == [2, 1])
        #expect(paginator.itemsPerPage == 2)

        let defaults = service.paginator(from: "incident")
        #expect(defaults.itemsPerPage == 20)
    }

    /// A local instance with `count` incidents, and a service whose transport passes each request to `intercept`
    /// before the instance answers it (nil: the instance answers).
    static func fixture(
        _ count: Int, intercept: @escaping @Sendable (String) async throws -> Void
    ) async throws -> (LocalInstance, RecordingTransport, NowTableService) {
        let instance = try makeLocalInstance()
        let transport = RecordingTransport { request, _ in
            try await intercept(RecordingTransport.render(request))
            return try await instance.transport.send(request)
        }
        let service = makeService(transport, authentication: .basic(user: "admin", password: "admin"))
        for index in 0..<count {
            _ = try await service.createRecord(
                with: ["short_description": String(format: "page test %03d", index)], in: "incident")
        }
        return (instance, transport, service)
    }

    /// The offsets of the page requests sent since the first `after` requests.
    static func pageOffsets(_ transport: RecordingTransport, after: Int) -> [String] {
        transport.rendered.dropFirst(after).compactMap { $0.split(separator: "sysparm_offset=").last.map(String.init) }
    }

    // A guard against a hang, not a measure: a loaded machine may hold the task for a minute.
    @Test(.timeLimit(.minutes(10))) func theNextTwoPagesAreFetchedWhileTheCallerWorksAndNoMore() async throws {
        let (instance, transport, service) = try await Self.fixture(50)
        defer { instance.close() }
        let before = transport.recorded.count
        let paginator: Paginator<[TicketModel]> = service.paginator(from: "incident", configuration: Self.ordered)

        let first = try await paginator.first()
        #expect(first.first?.shortDescription == "page test 000")
        // Page 1 is fetched and decoded ahead; once its body is in, page 2's transfer starts; then nothing.
        await transport.waitUntilRecorded(before + 3)
        try await Task.sleep(for: .milliseconds(300))
        #expect(
            transport.rendered.dropFirst(before).map {
                $0.replacingOccurrences(of: "sysparm_query=ORDERBYshort_description&", with: "")
            } == [
                "GET /api/now/table/incident?sysparm_limit=10&sysparm_offset=0",
                "GET /api/now/table/incident?sysparm_limit=10&sysparm_offset=10",
                "GET /api/now/table/incident?sysparm_limit=10&sysparm_offset=20",
            ])
        let second = try await paginator.next()
        #expect(second?.first?.shortDescription == "page test 010")
        await transport.waitUntilRecorded(before + 4)
        try await Task.sleep(for: .milliseconds(300))
        #expect(Self.pageOffsets(transport, after: before) == ["0", "10", "20", "30"])
        var rest: [String] = []
        while let page = try await paginator.next() { rest += page.map(\.shortDescription) }
        #expect(rest == (20..<50).map { String(format: "page test %03d", $0) })
        #expect(Self.pageOffsets(transport, after: before) == ["0", "10", "20", "30", "40"])
    }

    /// A model that refuses one record, as a model with a stricter type than the data would.
    struct Picky: Decodable, Equatable {
        var shortDescription: String

        enum CodingKeys: String, CodingKey {
            case shortDescription
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            shortDescription = try container.decode(String.self, forKey: .shortDescription)
            if shortDescription == "page test 015" {
                throw DecodingError.dataCorruptedError(
                    forKey: .shortDescription, in: container, debugDescription: "refused")
            }
        }
    }

    @Test(.timeLimit(.minutes(10))) func aPageThatFailsAheadThrowsWhenItIsAskedFor() async throws {
        let (instance, transport, service) = try await Self.fixture(25)
        defer { instance.close() }
        let before = transport.recorded.count
        let paginator: Paginator<[Picky]> = service.paginator(from: "incident", configuration: Self.ordered)

        let first = try await paginator.first()
        // Page 1 has been fetched and decoded ahead (and failed), page 2 transferred: page 0 is whole all the same.
        await transport.waitUntilRecorded(before + 3)
        #expect(first.map(\.shortDescription) == (0..<10).map { String(format: "page test %03d", $0) })
        #expect(paginator.page == 0)
        await #expect { _ = try await paginator.next() } throws: { error in
            "\(error)"
                == "cannot decode model at result[5].shortDescription: refused"
        }
        #expect(paginator.page == 1)
        let last = try await paginator.next()
        #expect(last?.map(\.shortDescription) == (20..<25).map { String(format: "page test %03d", $0) })
        #expect(try await paginator.next() == nil)
    }

    @Test(.timeLimit(.minutes(10))) func cancellingTheCallerStopsThePagesFetchedAhead() async throws {
        let cancelled = Mutex(false)
        let (instance, transport, service) = try await Self.fixture(50) { request in
            guard request.contains("sysparm_offset=10") else { return }
            do {
                try await Task.sleep(for: .seconds(600))
            } catch {
                cancelled.withLock { $0 = true }
                throw error
            }
        }
        defer { instance.close() }
        let before = transport.recorded.count
        let paginator: Paginator<[TicketModel]> = service.paginator(from: "incident", configuration: Self.ordered)

        let firstPage = Mutex(false)
        let caller = Task {
            _ = try await paginator.first()
            firstPage.withLock { $0 = true }
            return try await paginator.next()
        }
        // The caller waits for page 1, whose transfer hangs.
        await transport.waitUntilRecorded(before + 2)
        while !(firstPage.withLock { $0 } && paginator.isBusy) { try await Task.sleep(for: .milliseconds(10)) }
        caller.cancel()
        await #expect { _ = try await caller.value } throws: { error in
            if case NowDataError.network(.operationCancelled) = error { true } else { false }
        }
        #expect(cancelled.withLock { $0 })
        try await Task.sleep(for: .milliseconds(300))
        #expect(Self.pageOffsets(transport, after: before) == ["0", "10"])
        #expect(!paginator.isBusy)
    }

    @Test func concurrentCallsRunOneAfterTheOther() async throws {
        let (instance, _, service) = try await Self.fixture(25)
        defer { instance.close() }
        let paginator: Paginator<[TicketModel]> = service.paginator(from: "incident", configuration: Self.ordered)

        async let one = paginator.next()
        async let two = paginator.next()
        async let three = paginator.next()
        let firsts = try await [one, two, three].compactMap { $0?.first?.shortDescription }.sorted()

        #expect(firsts == ["page test 000", "page test 010", "page test 020"])
        #expect(paginator.isFinished)
    }

    @Test func errorsAreNowDataErrors() async throws {
        let (instance, _, _) = try await Self.fixture(0)
        defer { instance.close() }
        let refused = makeService(on: instance, authentication: .basic(user: "admin", password: "wrong"))
        let paginator: Paginator<[TicketModel]> = refused.paginator(from: "incident")
        await #expect { _ = try await paginator.first() } throws: { error in
            if case NowDataError.badResponse(statusCode: 401) = error { true } else { false }
        }
        let invalid: Paginator<[TicketModel]> = refused.paginator(from: "")
        await #expect { _ = try await invalid.first() } throws: { isInvalidURL($0) }
        let unknown: Paginator<[TicketModel]> = makeService(on: instance).paginator(from: "no such/table")
        await #expect { _ = try await unknown.first() } throws: { error in
            "\(error)" == "bad response 400 from GET /api/now/table/no%20such%2Ftable: Invalid table no such/table"
        }
    }
}

extension Paginator {
    /// The pages after the current one.
    static func drain(_ paginator: Paginator<Model>) async throws -> [Model] {
        var pages: [Model] = []
        while let page = try await paginator.next() { pages.append(page) }
        return pages
    }
}
