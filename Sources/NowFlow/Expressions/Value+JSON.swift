import Foundation

extension Value: Codable {
    /// Reads any JSON value; numbers without a fraction become ``int(_:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([Value].self) {
            self = .list(value)
        } else {
            self = .map(try container.decode([String: Value].self))
        }
    }

    /// Writes the value as JSON; a non-finite number becomes its text (`"inf"`), which JSON cannot hold.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value):
            if value.isFinite { try container.encode(value) } else { try container.encode(String(value)) }
        case .string(let value): try container.encode(value)
        case .list(let items): try container.encode(items)
        case .map(let fields): try container.encode(fields)
        }
    }

    /// The value as JSON text with sorted keys, compact or pretty-printed.
    public func jsonText(pretty: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Parses JSON text (as the Table API returns it) into a value.
    public init(json data: Data) throws {
        self = try JSONReader.value(from: data)
    }
}
