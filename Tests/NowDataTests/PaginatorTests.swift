import Foundation
import LocalInstance
import NowData
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

    // A guard against a hang, not a measure: a loaded machine may hold the task for a minute.
    @Test(.timeLimit(.minutes(10))) func theNextPageIsFetchedWhileTheCallerWorks() async throws {
        let (instance, transport, service) = try await Self.fixture(25)
        defer { instance.close() }
        let before = transport.recorded.count
        let paginator: Paginator<[TicketModel]> = service.paginator(from: "incident", configuration: Self.ordered)

        _ = try await paginator.first()
        await transport.waitUntilRecorded(before + 2)
        #expect(
            transport.rendered.dropFirst(before).map {
                $0.replacingOccurrences(of: "sysparm_query=ORDERBYshort_description&", with: "")
            } == [
                "GET /api/now/table/incident?sysparm_limit=10&sysparm_offset=0",
                "GET /api/now/table/incident?sysparm_limit=10&sysparm_offset=10",
            ])
        _ = try await paginator.next()
        await transport.waitUntilRecorded(before + 3)
        #expect(transport.recorded.count == before + 3)
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
