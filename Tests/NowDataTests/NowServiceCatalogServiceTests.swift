import Foundation
import LocalInstance
import NowData
import Testing

/// `NowServiceCatalogService` against the demo local instance in process: catalogs, items with their variables, an
/// order now, the cart, the completion forms, and a refused order as a `NowDataError` with the instance's message.
@Suite struct NowServiceCatalogServiceTests {
    static func service() throws -> (NowServiceCatalogService, NowTableService) {
        let instance = try makeLocalInstance(seedDemoData: true)
        let configuration = NowServiceConfiguration(
            instanceURL: URL(string: "http://127.0.0.1")!, authentication: .basic(user: "admin", password: "admin"),
            transport: instance.transport)
        return (NowServiceCatalogService(configuration: configuration), NowTableService(configuration: configuration))
    }

    @Test func browsesAndOrders() async throws {
        let (catalog, tables) = try Self.service()
        let catalogs = try await catalog.catalogs()
        #expect(catalogs.map(\.title) == ["Service Catalog", "Technical Catalog"])
        #expect(
            catalogs.first
                == NowCatalog(
                    sysId: "e0d08b13c3330100c8b837659bba8fb4", title: "Service Catalog",
                    description: "Service Catalog - IT Now", hasCategories: true, hasItems: true))
        let found = try await catalog.items(catalog: catalogs[0].sysId, text: "laptop")
        #expect(found.map(\.name) == ["Standard Laptop"])
        let laptop = try await catalog.item(try #require(found.first).sysId)
        #expect(laptop.price == "$1,100.00")
        #expect(
            laptop.variables.first
                == NowCatalogVariable(
                    name: "acrobat", label: "Adobe Acrobat", friendlyType: "boolean", mandatory: false, value: ""))
        #expect(laptop.variables.map(\.name) == ["acrobat", "photoshop", "Additional_software_requirements"])

        let request = try await catalog.orderNow(
            NowCatalogOrder(itemSysId: laptop.sysId, quantity: 2, variables: ["acrobat": "true"]))
        #expect(request.number == "REQ0010003")
        let items = try await tables.records(
            from: "sc_req_item",
            configuration: FetchConfiguration(filter: Filter(query: "request=\(request.sysId)")))
        #expect(items.convertToRecords().map { $0["quantity"] } == ["2"])

        let cart = try await catalog.addToCart(NowCatalogOrder(itemSysId: laptop.sysId))
        #expect(cart.count == 32)
        let submitted = await completed { catalog.submitOrder(completion: $0) }
        #expect(try submitted.get().number == "REQ0010004")
        let listed = await completed { catalog.catalogs(completion: $0) }
        #expect(try listed.get().count == 2)
    }

    @Test func aRefusedOrderIsABadResponseWithTheInstancesMessage() async throws {
        let (catalog, _) = try Self.service()
        let email = try #require(try await catalog.items(text: "New Email Account").first)
        do {
            _ = try await catalog.orderNow(NowCatalogOrder(itemSysId: email.sysId))
            Issue.record("the order went through")
        } catch NowDataError.badResponse(let status) {
            #expect(status.code == 400)
            #expect(status.message == "Mandatory Variables are required")
            #expect(status.detail == "Give a value in 'variables' for: new_email")
        }
        let empty = await completed { catalog.submitOrder(completion: $0) }
        guard case .failure(.badResponse(let status)) = empty else {
            Issue.record("an empty cart was submitted")
            return
        }
        #expect(status.code == 400 && status.message == "Cart is empty")
        await #expect(throws: NowDataError.self) { try await catalog.item("") }
    }
}
