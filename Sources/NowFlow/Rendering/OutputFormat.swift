/// How results are shown: aligned tables, JSON or YAML (`:format` in the REPL).
public enum OutputFormat: String, Sendable, CaseIterable {
    /// Records as aligned tables, one record as `field  value` lines, other values as text.
    case table
    /// Pretty-printed JSON with sorted keys.
    case json
    /// Block-style YAML with sorted keys.
    case yaml
}
