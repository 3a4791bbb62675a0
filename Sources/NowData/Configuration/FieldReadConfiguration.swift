import Foundation

/// Which fields to return and in what form.
///
/// ```swift
/// let readConfiguration = FieldReadConfiguration(includeFields: ["number", "short_description"])
/// ```
public struct FieldReadConfiguration: Sendable, Hashable {
    /// What each returned field holds.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int

        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// Stored values (sys_ids for references, UTC dates): the default.
        public static let actualValues = Options(rawValue: 1 << 0)
        /// Display values, formatted for the authenticated user. With ``actualValues`` too, every field
        /// carries both (`sysparm_display_value=all`).
        public static let displayValues = Options(rawValue: 1 << 1)
        /// Reference fields without their `link` (`sysparm_exclude_reference_link=true`).
        public static let excludeReferenceLink = Options(rawValue: 1 << 2)

        /// The options that ask for `mode`: none, ``displayValues``, or both values.
        public init(displayValue mode: DisplayValueMode) {
            switch mode {
            case .actual: self = []
            case .display: self = .displayValues
            case .all: self = [.actualValues, .displayValues]
            }
        }
    }

    /// The fields to return; empty means every field.
    public var includeFields: [FieldName]
    /// What each field holds.
    public var options: Options

    /// A read configuration.
    public init(includeFields: [FieldName] = [], options: Options = []) {
        self.includeFields = includeFields
        self.options = options
    }

    /// What each field holds, as `sysparm_display_value` says it.
    public var displayValue: DisplayValueMode {
        switch (options.contains(.actualValues), options.contains(.displayValues)) {
        case (true, true): .all
        case (false, true): .display
        default: .actual
        }
    }

    /// The `sysparm_` query items this configuration stands for (nothing for the defaults).
    public var queryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if !includeFields.isEmpty {
            items.append(URLQueryItem(name: "sysparm_fields", value: includeFields.joined(separator: ",")))
        }
        if options.contains(.displayValues) {
            items.append(URLQueryItem(name: "sysparm_display_value", value: displayValue.rawValue))
        }
        if options.contains(.excludeReferenceLink) {
            items.append(URLQueryItem(name: "sysparm_exclude_reference_link", value: "true"))
        }
        return items
    }
}
