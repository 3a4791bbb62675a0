import Foundation
import NowData

/// The `sysparm_` parameters of a Table API request (booleans in any letter case, as the platform reads them).
struct TableParameters: Sendable {
    var query: String?
    /// The name=value pairs that stand for a query when `sysparm_query` is absent.
    var filters: [(name: String, value: String)]
    /// `sysparm_display_value`: stored values, display values, or both.
    var displayValue: DisplayValueMode
    var excludeReferenceLink: Bool
    /// `sysparm_fields`, in order; nil for every field.
    var fields: [String]?
    var limit: Int
    var offset: Int
    var noCount: Bool
    var suppressPaginationHeader: Bool
    var inputDisplayValue: Bool
    var suppressAutoSysField: Bool

    /// The default `sysparm_limit`.
    static let defaultLimit = 10000

    init(_ items: [URLQueryItem]) throws(TableAPIError) {
        func value(_ name: String) -> String? { items.last { $0.name == name }?.value }
        func flag(_ name: String) -> Bool { value(name)?.lowercased() == "true" }
        query = value("sysparm_query")
        filters = items.filter { !$0.name.hasPrefix("sysparm_") && !$0.name.isEmpty }.map { ($0.name, $0.value ?? "") }
        displayValue = DisplayValueMode(parameter: value("sysparm_display_value"))
        excludeReferenceLink = flag("sysparm_exclude_reference_link")
        fields = value("sysparm_fields").flatMap { list in
            let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            return names.isEmpty ? nil : names
        }
        if let text = value("sysparm_limit"), let number = Int(text.trimmingCharacters(in: .whitespaces)), number > 0 {
            limit = number
        } else {
            limit = Self.defaultLimit
        }
        offset = 0
        if let text = value("sysparm_offset"), let number = Int(text.trimmingCharacters(in: .whitespaces)) {
            guard number >= 0 else { throw .negativeOffset(text) }
            offset = number
        }
        noCount = flag("sysparm_no_count")
        suppressPaginationHeader = flag("sysparm_suppress_pagination_header")
        inputDisplayValue = flag("sysparm_input_display_value")
        suppressAutoSysField = flag("sysparm_suppress_auto_sys_field")
    }
}
