/// A catalog of the Service Catalog, as `GET /api/sn_sc/servicecatalog/catalogs` gives it.
public struct NowCatalog: Codable, Sendable, Hashable {
    /// The catalog's sys_id.
    public var sysId: SysID
    /// Its title, such as `Service Catalog`.
    public var title: String
    /// Its description.
    public var description: String
    /// Whether it has categories.
    public var hasCategories: Bool
    /// Whether it has items the user may order.
    public var hasItems: Bool

    public init(sysId: SysID, title: String, description: String, hasCategories: Bool, hasItems: Bool) {
        self.sysId = sysId
        self.title = title
        self.description = description
        self.hasCategories = hasCategories
        self.hasItems = hasItems
    }

    private enum CodingKeys: String, CodingKey {
        case sysId = "sys_id", title, description, hasCategories = "has_categories", hasItems = "has_items"
    }
}
