import Foundation

extension JSONValue: Codable {
    /// Decodes any JSON value. Through ``Coder/default`` the value is read straight from the parse, numbers with
    /// their text and objects in order; through another decoder, numbers are read as `Int64`, `UInt64` or
    /// `Double`, and an object's keys come sorted (a `Decoder` does not tell their order). Keys are never
    /// converted by a key strategy.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .number(JSONNumber(value))
        } else if let value = try? container.decode(UInt64.self) {
            self = .number(JSONNumber(value))
        } else if let value = try? container.decode(Double.self) {
            self = JSONNumber(value).map(JSONValue.number) ?? .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let elements = try? container.decode([JSONValue].self) {
            self = .array(elements)
        } else {
            let members = try container.decode([String: JSONValue].self)
            self = .object(JSONObject(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        }
    }

    /// Encodes the value; a number as an integer when its text is one, else as a `Double`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let number):
            if let value = Int64(number.text) {
                try container.encode(value)
            } else if let value = UInt64(number.text) {
                try container.encode(value)
            } else {
                try container.encode(number.double)
            }
        case .string(let text): try container.encode(text)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members.dictionary)
        }
    }
}
