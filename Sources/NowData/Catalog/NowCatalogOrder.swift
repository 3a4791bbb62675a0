/// An order of one catalog item: what `order_now` and `add_to_cart` send.
///
/// ```swift
/// let order = NowCatalogOrder(itemSysId: laptop.sysId, quantity: 2, variables: ["acrobat": "true"])
/// ```
public struct NowCatalogOrder: Sendable, Hashable {
    /// The catalog item's sys_id.
    public var itemSysId: SysID
    /// How many (`sysparm_quantity`), at least 1.
    public var quantity: Int
    /// The user it is for, by sys_id (`sysparm_requested_for`); nil: the user who orders.
    public var requestedFor: SysID?
    /// The values of the item's variables, by variable name.
    public var variables: [String: String]

    public init(itemSysId: SysID, quantity: Int = 1, requestedFor: SysID? = nil, variables: [String: String] = [:]) {
        self.itemSysId = itemSysId
        self.quantity = quantity
        self.requestedFor = requestedFor
        self.variables = variables
    }

    /// The API's body: `{"sysparm_quantity": "2", "sysparm_requested_for": ..., "variables": {...}}`, the
    /// variables by name.
    var body: JSONValue {
        var body: JSONObject = ["sysparm_quantity": .string(String(quantity))]
        if let requestedFor { body["sysparm_requested_for"] = .string(requestedFor) }
        body["variables"] = .object(JSONObject(variables.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
        return .object(body)
    }
}
