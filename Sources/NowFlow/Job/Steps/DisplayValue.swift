/// `display_value`: actual values (`false`), display values (`true`) or both (`all`).
enum DisplayValue: String, Sendable, Hashable {
    case actual = "false"
    case display = "true"
    case all
}
