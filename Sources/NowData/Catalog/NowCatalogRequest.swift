/// The request (`sc_request`) an order created, as `order_now` and `cart/submit_order` answer it.
public struct NowCatalogRequest: Codable, Sendable, Hashable {
    /// The request's sys_id.
    public var sysId: SysID
    /// Its number, such as `REQ0010003`.
    public var number: String

    public init(sysId: SysID, number: String) {
        self.sysId = sysId
        self.number = number
    }

    private enum CodingKeys: String, CodingKey {
        case sysId = "request_id", number = "request_number"
    }
}
