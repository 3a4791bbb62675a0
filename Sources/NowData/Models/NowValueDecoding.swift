import Foundation

/// The reading of a field's string, shared by the ``NowValueConvertible`` conformances.
enum NowValueDecoding {
    /// The keys of a field object under `sysparm_display_value=all` and of a reference.
    enum FieldKey: String, CodingKey {
        case value
        case displayValue = "display_value"
        case link
    }

    /// The string a field holds: the string itself, the `value` of a field object, or the text of a JSON number
    /// or boolean.
    static func string(from decoder: any Decoder, for type: Any.Type) throws -> String {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) { return string }
        if container.decodeNil() {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "found null"))
        }
        if let object = fieldObject(decoder) {
            return try string(from: object.superDecoder(forKey: .value), for: type)
        }
        if let bool = try? container.decode(Bool.self) { return bool ? "true" : "false" }
        if let int = try? container.decode(Int.self) { return String(int) }
        if let double = try? container.decode(Double.self) { return String(double) }
        throw DecodingError.typeMismatch(
            type,
            DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "expected a string, a number, a boolean or an object with a 'value'"))
    }

    /// The container of a field object that holds a `value`, if the field is one.
    static func fieldObject(_ decoder: any Decoder) -> KeyedDecodingContainer<FieldKey>? {
        guard let object = try? decoder.container(keyedBy: FieldKey.self), object.contains(.value) else { return nil }
        return object
    }

    /// The error for a string that does not convert to `type`: a `dataCorrupted` error at `codingPath` whose
    /// underlying error is ``NowDataError/cannotDecodeProperty(type:from:)``.
    static func conversionError(_ type: Any.Type, from string: String, at codingPath: [any CodingKey]) -> DecodingError {
        let error = NowDataError.cannotDecodeProperty(type: type, from: string)
        return .dataCorrupted(
            DecodingError.Context(codingPath: codingPath, debugDescription: error.description, underlyingError: error))
    }
}
