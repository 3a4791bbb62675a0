/// The completion-handler forms of the operations: each starts at once and calls `completion` exactly once, on a
/// task of Swift's cooperative thread pool (not the main queue).
extension NowServiceCatalogService {
    /// ``catalogs()`` with a completion handler.
    public func catalogs(completion: @escaping @Sendable (Result<[NowCatalog], NowDataError>) -> Void) {
        RequestPipeline.complete(completion) { [self] in try await catalogs() }
    }

    /// ``items(catalog:category:text:limit:)`` with a completion handler.
    public func items(
        catalog: SysID? = nil, category: SysID? = nil, text: String? = nil, limit: Int? = nil,
        completion: @escaping @Sendable (Result<[NowCatalogItem], NowDataError>) -> Void
    ) {
        RequestPipeline.complete(completion) { [self] in
            try await items(catalog: catalog, category: category, text: text, limit: limit)
        }
    }

    /// ``item(_:)`` with a completion handler.
    public func item(_ sysId: SysID, completion: @escaping @Sendable (Result<NowCatalogItem, NowDataError>) -> Void) {
        RequestPipeline.complete(completion) { [self] in try await item(sysId) }
    }

    /// ``orderNow(_:)`` with a completion handler.
    ///
    /// ```swift
    /// catalogService.orderNow(NowCatalogOrder(itemSysId: sysId)) { result in
    ///     if case .success(let request) = result { print(request.number) }
    /// }
    /// ```
    public func orderNow(
        _ order: NowCatalogOrder, completion: @escaping @Sendable (Result<NowCatalogRequest, NowDataError>) -> Void
    ) {
        RequestPipeline.complete(completion) { [self] in try await orderNow(order) }
    }

    /// ``addToCart(_:)`` with a completion handler.
    public func addToCart(
        _ order: NowCatalogOrder, completion: @escaping @Sendable (Result<SysID, NowDataError>) -> Void
    ) {
        RequestPipeline.complete(completion) { [self] in try await addToCart(order) }
    }

    /// ``submitOrder()`` with a completion handler.
    public func submitOrder(completion: @escaping @Sendable (Result<NowCatalogRequest, NowDataError>) -> Void) {
        RequestPipeline.complete(completion) { [self] in try await submitOrder() }
    }
}
