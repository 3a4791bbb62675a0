/// An orderable item of the Service Catalog, as the Service Catalog API gives it: a list entry
/// (`GET .../items`, without variables) or one item (`GET .../items/{sys_id}`, with them).
public struct NowCatalogItem: Codable, Sendable, Hashable {
    /// The item's sys_id, which an order names.
    public var sysId: SysID
    /// Its name, such as `Standard Laptop`.
    public var name: String
    /// Its short description.
    public var shortDescription: String
    /// Its price as the instance shows it, such as `$1,100.00`.
    public var price: String
    /// The variables of its order form; empty in a list.
    public var variables: [NowCatalogVariable]

    public init(
        sysId: SysID, name: String, shortDescription: String, price: String, variables: [NowCatalogVariable] = []
    ) {
        self.sysId = sysId
        self.name = name
        self.shortDescription = shortDescription
        self.price = price
        self.variables = variables
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sysId = try container.decode(SysID.self, forKey: .sysId)
        name = try container.decode(String.self, forKey: .name)
        shortDescription = try container.decodeIfPresent(String.self, forKey: .shortDescription) ?? ""
        price = try container.decodeIfPresent(String.self, forKey: .price) ?? ""
        variables = try container.decodeIfPresent([NowCatalogVariable].self, forKey: .variables) ?? []
    }

    private enum CodingKeys: String, CodingKey {
        case sysId = "sys_id", name, shortDescription = "short_description", price, variables
    }
}
