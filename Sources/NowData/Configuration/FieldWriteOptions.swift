import Foundation

/// Options for creating or updating a record's fields.
///
/// ```swift
/// let writeOptions: FieldWriteOptions = [.suppressAutoSysField, .treatInputValuesAsDisplayValues]
/// ```
public struct FieldWriteOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Leaves the system fields (`sys_updated_on`, `sys_mod_count`, ...) as sent instead of generating them:
    /// `sysparm_suppress_auto_sys_field=true`.
    public static let suppressAutoSysField = FieldWriteOptions(rawValue: 1 << 0)
    /// Reads the values sent as display values (a reference by its name, a date in the user's zone):
    /// `sysparm_input_display_value=true`.
    public static let treatInputValuesAsDisplayValues = FieldWriteOptions(rawValue: 1 << 1)

    /// The `sysparm_` query items these options stand for.
    public var queryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if contains(.treatInputValuesAsDisplayValues) {
            items.append(URLQueryItem(name: "sysparm_input_display_value", value: "true"))
        }
        if contains(.suppressAutoSysField) {
            items.append(URLQueryItem(name: "sysparm_suppress_auto_sys_field", value: "true"))
        }
        return items
    }
}
