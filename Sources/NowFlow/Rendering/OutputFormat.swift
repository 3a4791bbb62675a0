/// How results are shown: aligned tables, JSON or YAML (`:format` in the REPL).
public enum OutputFormat: String, Sendable, CaseIterable {
    case table
    case json
    case yaml
}
