import Foundation
import NowData

/// A write that a dry run did not send: the request exactly as NowData prepared it (its headers aside), and the
/// step that would have sent it.
public struct PlannedWrite: Sendable, Hashable {
    /// The label of the step that would send it, such as `step 2 'incident' (create)`.
    public var step: String
    /// `POST`, `PATCH`, `PUT` or `DELETE`.
    public var method: String
    /// The path below the instance URL, such as `/api/now/table/incident/9d5eaeb79eab303e8616f40c1b2b33a0`.
    public var path: String
    /// The query items, in order, unencoded.
    public var queryItems: [URLQueryItem]
    /// The JSON body; nil for a delete.
    public var body: JSONValue?

    /// The record an update or delete would change, as it is now; nil for a create.
    public var record: PlannedRecord?

    /// What an attachment upload would send instead of a JSON body: its size, content type and SHA-256 hash
    /// (`12 bytes text/plain, SHA-256 5891...`); nil for the other writes.
    public var content: String?

    /// A write of `request` by `step`, with every secret in its path, query and body masked; `before` is the
    /// record it changes or deletes, as the instance (or a stand-in) has it, and `naming` the fields that name a
    /// record of its table (``RecordName/fields(of:in:)``).
    init(
        step: String, request: NowHTTPRequest, before: JSONObject?, naming: [String] = RecordName.fields,
        content: String? = nil,
        masker: SecretMasker
    ) {
        self.step = step
        self.content = content
        method = request.method
        path = masker(request.path)
        queryItems = request.queryItems.map { URLQueryItem(name: $0.name, value: $0.value.map { masker($0) }) }
        body = request.body.map { data in
            masker((try? JSONValue(json: data)) ?? .string(String(decoding: data, as: UTF8.self)))
        }
        record = before.flatMap { try? NowRecord(.object($0)) }.map { before in
            PlannedRecord(
                before: before, naming: naming, changing: method == "DELETE" ? nil : body?.object, masker: masker)
        }
    }

    /// `POST /api/now/table/incident?sysparm_input_display_value=true {"short_description":"x"}`.
    public var description: String {
        var text = "\(method) \(path)"
        if !queryItems.isEmpty {
            text += "?" + queryItems.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        }
        if let body { text += " \(body.jsonText())" }
        if let content { text += " <\(content)>" }
        return text
    }

    /// `INC0010005 "Email server down": urgency 3 → 1` (`: no change` when every value sent is the record's
    /// already), or for a delete `INC0010005 "Email server down"`; nil for a create (its body shows its fields).
    public var change: String? {
        guard let record else { return nil }
        let changes = record.fields.map { "\($0.name) \(Self.shown($0.from)) → \(Self.shown($0.to))" }
        if method == "DELETE" { return record.display }
        return "\(record.display): " + (changes.isEmpty ? "no change" : changes.joined(separator: ", "))
    }

    private static func shown(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text.isEmpty ? "(empty)" : text
        default: value.sortingKeys().jsonText()
        }
    }
}
