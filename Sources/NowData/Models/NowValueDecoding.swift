import Foundation

/// The reading of a field's string, shared by the ``NowValueConvertible`` conformances and ``NowRecord``.
enum NowValueDecoding {
    /// A key of a field object under `sysparm_display_value=all` and of a reference.
    struct FieldKey: CodingKey {
        static let value = FieldKey(stringValue: "value")
        static let link = FieldKey(stringValue: "link")
        /// `display_value` as sent (a snake_case key strategy turns it into `displayValue` when decoding).
        static let displayValue = FieldKey(stringValue: "display_value")

        let stringValue: String

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) { nil }

        var intValue: Int? { nil }
    }

    /// The display value of a field object, under its JSON name or the name a snake_case key strategy gives it.
    static func displayValue(in object: KeyedDecodingContainer<FieldKey>) throws -> String? {
        guard let key = object.allKeys.first(where: { ["display_value", "displayValue"].contains($0.stringValue) })
        else { return nil }
        return try object.decodeIfPresent(String.self, forKey: key)
    }

    /// Converts the string a field holds: the string itself, the `value` of a field object (decoded one level
    /// down, so errors name `priority.value`), or the text of a JSON number or boolean.
    ///
    /// - Throws: `valueNotFound` for null, `typeMismatch` for an array or another object, and
    ///   ``conversionError(_:from:at:)`` when `convert` gives nil.
    static func decode<T>(_ type: T.Type, from decoder: any Decoder, convert: (String) -> T?) throws -> T {
        let container = try decoder.singleValueContainer()
        let string: String
        if let text = try? container.decode(String.self) {
            string = text
        } else if container.decodeNil() {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "found null"))
        } else if let object = fieldObject(decoder) {
            return try decode(type, from: object.superDecoder(forKey: .value), convert: convert)
        } else if let bool = try? container.decode(Bool.self) {
            string = bool ? "true" : "false"
        } else if let int = try? container.decode(Int.self) {
            string = String(int)
        } else if let double = try? container.decode(Double.self) {
            string = String(double)
        } else {
            throw DecodingError.typeMismatch(
                type,
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected a string, a number, a boolean or an object with a 'value'"))
        }
        guard let value = convert(string) else {
            throw conversionError(type, from: string, at: decoder.codingPath)
        }
        return value
    }

    /// The container of a field object that holds a `value`, if the field is one.
    static func fieldObject(_ decoder: any Decoder) -> KeyedDecodingContainer<FieldKey>? {
        guard let object = try? decoder.container(keyedBy: FieldKey.self), object.contains(.value) else { return nil }
        return object
    }

    /// The error for a string that does not convert to `type`: a `dataCorrupted` error at `codingPath` whose
    /// underlying error is ``NowDataError/cannotDecodeProperty(type:from:)``.
    static func conversionError(
        _ type: Any.Type, from string: String, at codingPath: [any CodingKey]
    ) -> DecodingError {
        let error = NowDataError.cannotDecodeProperty(type: type, from: string)
        return .dataCorrupted(
            DecodingError.Context(codingPath: codingPath, debugDescription: error.description, underlyingError: error))
    }
}
