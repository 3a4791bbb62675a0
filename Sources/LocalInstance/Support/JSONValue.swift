import Foundation

/// A small JSON value with ordered object keys (error bodies, OAuth answers), written by ``JSONWriter``.
enum JSONValue: Sendable {
    case string(String)
    case object([(String, JSONValue)])
    case number(Int)
    case null

    /// The UTF-8 JSON text.
    var data: Data {
        var writer = JSONWriter()
        write(to: &writer)
        return writer.data
    }

    private func write(to writer: inout JSONWriter) {
        switch self {
        case .null:
            writer.raw("null")
        case .number(let number):
            writer.raw(String(number))
        case .string(let text):
            writer.string(text)
        case .object(let members):
            writer.raw("{")
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.key(key)
                value.write(to: &writer)
            }
            writer.raw("}")
        }
    }
}
