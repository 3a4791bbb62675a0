/// A variable of a catalog item (a question of its order form), as `GET /api/sn_sc/servicecatalog/items/{sys_id}`
/// gives it.
public struct NowCatalogVariable: Codable, Sendable, Hashable {
    /// The name an order gives its value under, such as `new_email`.
    public var name: String
    /// The question, such as `New email address`.
    public var label: String
    /// The type's name, such as `single_line_text`, `select_box` or `boolean`.
    public var friendlyType: String
    /// Whether an order must give it a value.
    public var mandatory: Bool
    /// Its default value (empty for none).
    public var value: String

    public init(name: String, label: String, friendlyType: String, mandatory: Bool, value: String) {
        self.name = name
        self.label = label
        self.friendlyType = friendlyType
        self.mandatory = mandatory
        self.value = value
    }

    private enum CodingKeys: String, CodingKey {
        case name, label, friendlyType = "friendly_type", mandatory, value
    }
}
