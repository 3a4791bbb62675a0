/// A write that a dry run did not send: the request, and how many records it would touch.
public struct PlannedWrite: Sendable, Hashable, Codable {
    /// The step that would send it.
    public var step: String
    /// `POST`, `PATCH` or `DELETE`.
    public var method: String
    /// The path with its query, such as `/api/now/table/incident?sysparm_input_display_value=true`.
    public var path: String
    /// The JSON body, empty for a delete.
    public var body: String
    /// For an update or delete by query: how many records match now.
    public var matches: Int?

    /// `POST /api/now/table/incident {"short_description":"x"}`, with `(n records match)` for a write by query.
    public var description: String {
        var text = "\(method) \(path)"
        if !body.isEmpty { text += " \(body)" }
        if let matches { text += " (\(matches) record\(matches == 1 ? "" : "s") match)" }
        return text
    }
}
