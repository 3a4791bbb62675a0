/// What each field of a read holds: the Table API's `sysparm_display_value`.
///
/// One notion across the package: ``FieldReadConfiguration``, job files' `display_value:` and the local
/// instance's parameter parser all use it.
public enum DisplayValueMode: String, Sendable, Hashable, CaseIterable {
    /// Stored values: sys_ids for references, UTC dates (`false`, the default).
    case actual = "false"
    /// Display values, formatted for the authenticated user (`true`).
    case display = "true"
    /// Both, each field as `{"display_value": ..., "value": ...}` (`all`).
    case all

    /// The mode a `sysparm_display_value` parameter asks for, in any letter case; ``actual`` for any other text, as
    /// the platform reads it.
    public init(parameter: String?) {
        self = parameter.flatMap { DisplayValueMode(rawValue: $0.lowercased()) } ?? .actual
    }
}
