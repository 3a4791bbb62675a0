import Foundation

/// Browses the Service Catalog and orders from it through the Service Catalog API
/// (`/api/sn_sc/servicecatalog`), in the style of ``NowTableService``.
///
/// ```swift
/// let catalog = NowServiceCatalogService(configuration: serviceConfig)
/// let laptop = try await catalog.items(text: "Standard Laptop").first
/// let request = try await catalog.orderNow(
///     NowCatalogOrder(itemSysId: laptop!.sysId, quantity: 1, variables: ["acrobat": "true"]))
/// print(request.number)   // REQ0010003: its requested items and tasks are sc_req_item and sc_task records
/// ```
///
/// Every operation comes as `async throws` and with a completion handler; both fail with ``NowDataError`` only
/// (`badResponse` with the instance's message for a refused order: `Invalid quantity value`, `Mandatory Variables
/// are required`, `Security constraints prevent ordering of Item`). Reads are retried as the configuration's
/// ``RetryPolicy`` says; an order, an addition to the cart and a submission are sent once (each creates records, so
/// a second send would order twice).
public final class NowServiceCatalogService: Sendable {
    /// The configuration the service was created with.
    public let configuration: NowServiceConfiguration
    /// The core services associated with this service, if any.
    public let coreServiceProvider: NowCoreServiceProviding?
    let pipeline: RequestPipeline

    /// The Service Catalog API's path.
    static let basePath = "/api/sn_sc/servicecatalog"

    /// Creates a Service Catalog service.
    ///
    /// - Parameters:
    ///   - configuration: the instance and how to reach it.
    ///   - coreServiceProvider: core services to associate; their authentication is used when the
    ///     configuration's is ``NowAuthentication/none``.
    public init(configuration: NowServiceConfiguration, coreServiceProvider: NowCoreServiceProviding? = nil) {
        self.configuration = configuration
        self.coreServiceProvider = coreServiceProvider
        pipeline = RequestPipeline(configuration: configuration, coreServiceProvider: coreServiceProvider)
    }

    /// The catalogs (`GET .../catalogs`).
    public func catalogs() async throws -> [NowCatalog] {
        try await read([NowCatalog].self, NowHTTPRequest(method: "GET", path: Self.basePath + "/catalogs"))
    }

    /// The items the user may order, in `catalog` and `category` when given, whose name or descriptions hold
    /// `text` when given, at most `limit` of them (`GET .../items`).
    public func items(catalog: SysID? = nil, category: SysID? = nil, text: String? = nil, limit: Int? = nil)
        async throws -> [NowCatalogItem]
    {
        var items: [URLQueryItem] = []
        if let catalog { items.append(URLQueryItem(name: "sysparm_catalog", value: catalog)) }
        if let category { items.append(URLQueryItem(name: "sysparm_category", value: category)) }
        if let text { items.append(URLQueryItem(name: "sysparm_text", value: text)) }
        if let limit { items.append(URLQueryItem(name: "sysparm_limit", value: String(limit))) }
        return try await read(
            [NowCatalogItem].self, NowHTTPRequest(method: "GET", path: Self.basePath + "/items", queryItems: items))
    }

    /// One item with its variables (`GET .../items/{sys_id}`).
    ///
    /// - Throws: ``NowDataError``; `badResponse(statusCode: 400)` for an item the user may not see.
    public func item(_ sysId: SysID) async throws -> NowCatalogItem {
        try await read(NowCatalogItem.self, NowHTTPRequest(method: "GET", path: try Self.itemPath(sysId)))
    }

    /// Orders one item at once (`POST .../items/{sys_id}/order_now`): the request it created.
    public func orderNow(_ order: NowCatalogOrder) async throws -> NowCatalogRequest {
        try await NowTableService.mappingErrors {
            let response = try await pipeline.send(try Self.orderRequest(order, action: "order_now"), mode: .once)
            return try NowTableService.decode(
                NowCatalogRequest.self, from: response.body, at: Constants.resultPath, coder: .default)
        }
    }

    /// Puts one item in the user's cart (`POST .../items/{sys_id}/add_to_cart`): the cart's sys_id.
    public func addToCart(_ order: NowCatalogOrder) async throws -> SysID {
        try await NowTableService.mappingErrors {
            let response = try await pipeline.send(try Self.orderRequest(order, action: "add_to_cart"), mode: .once)
            return try NowTableService.decode(SysID.self, from: response.body, at: "result.cart_id", coder: .default)
        }
    }

    /// Orders what the user's cart holds (`POST .../cart/submit_order`): the request it created.
    ///
    /// - Throws: ``NowDataError``; `badResponse(statusCode: 400)` when the cart is empty.
    public func submitOrder() async throws -> NowCatalogRequest {
        try await NowTableService.mappingErrors {
            let request = NowHTTPRequest(method: "POST", path: Self.basePath + "/cart/submit_order")
            let response = try await pipeline.send(request, mode: .once)
            return try NowTableService.decode(
                NowCatalogRequest.self, from: response.body, at: Constants.resultPath, coder: .default)
        }
    }

    // MARK: - Requests

    /// Sends a read (retried as the policy says) and decodes its `result`.
    private func read<Model: Decodable>(_ type: Model.Type, _ request: NowHTTPRequest) async throws -> Model {
        try await NowTableService.mappingErrors {
            let response = try await pipeline.send(request, mode: .idempotent)
            return try NowTableService.decode(type, from: response.body, at: Constants.resultPath, coder: .default)
        }
    }

    /// `POST .../items/{sys_id}/<action>` with the order's JSON body.
    package static func orderRequest(_ order: NowCatalogOrder, action: String) throws -> NowHTTPRequest {
        NowHTTPRequest(
            method: "POST", path: try itemPath(order.itemSysId) + "/" + action,
            headers: ["Content-Type": "application/json", "Accept": "application/json"],
            body: order.body.jsonData())
    }

    /// `.../items/{sys_id}`, the sys_id encoded as one segment.
    static func itemPath(_ sysId: SysID) throws -> String {
        guard !sysId.isEmpty else { throw NowDataError.missingSysID }
        return basePath + "/items/" + NowHTTPRequest.percentEncodedPathSegment(sysId)
    }
}
