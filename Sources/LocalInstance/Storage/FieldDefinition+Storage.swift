import Foundation

extension FieldDefinition {
    /// The SQLite column type (see ``FieldType``).
    var columnType: String {
        switch type {
        case .integer, .boolean: "INTEGER"
        case .decimal: "REAL"
        default: "TEXT"
        }
    }

    /// The platform's name of the type, such as `glide_date_time`, for messages.
    var typeName: String {
        switch type {
        case .string: "string"
        case .integer: "integer"
        case .decimal: "decimal"
        case .boolean: "boolean"
        case .dateTime: "glide_date_time"
        case .date: "glide_date"
        case .reference(let table): "reference to \(table)"
        case .choice: "choice"
        }
    }

    /// The stored form of an API value, or nil when the value does not fit the type (the caller decides what an
    /// invalid value means). Empty is NULL; booleans are 0/1; date-times must be `yyyy-MM-dd HH:mm:ss` and dates
    /// `yyyy-MM-dd` (a date-time given as a date gets midnight).
    func storedValue(_ value: String) -> SQLValue? {
        if value.isEmpty { return .null }
        switch type {
        case .integer:
            return Int64(value.trimmingCharacters(in: .whitespaces)).map(SQLValue.integer)
        case .boolean:
            switch value.lowercased() {
            case "true", "1": return .integer(1)
            case "false", "0": return .integer(0)
            default: return nil
            }
        case .decimal:
            return Double(value.trimmingCharacters(in: .whitespaces)).map(SQLValue.real)
        case .dateTime:
            if Self.matches(value, "dddd-dd-dd dd:dd:dd") { return .text(value) }
            if Self.matches(value, "dddd-dd-dd") { return .text(value + " 00:00:00") }
            return nil
        case .date:
            if Self.matches(value, "dddd-dd-dd") { return .text(value) }
            if Self.matches(value, "dddd-dd-dd dd:dd:dd") { return .text(String(value.prefix(10))) }
            return nil
        case .string, .choice, .reference:
            return .text(value)
        }
    }

    /// How the field's stored values become API text.
    enum APIForm {
        case boolean, integer, other
    }

    /// How the field's stored values become API text.
    var apiForm: APIForm {
        switch type {
        case .boolean: .boolean
        case .integer: .integer
        default: .other
        }
    }

    /// The API form of a stored value: always a string, `""` for NULL, `true`/`false` for booleans.
    func apiValue(_ value: SQLValue) -> String {
        Self.apiValue(value, form: apiForm)
    }

    /// The API form of a stored value of a field whose values take `form`.
    static func apiValue(_ value: SQLValue, form: APIForm) -> String {
        switch value {
        case .null: return ""
        case .text(let text): return text
        case .integer(let number):
            if form == .boolean { return number == 0 ? "false" : "true" }
            return String(number)
        case .real(let number):
            if form == .integer { return String(Int64(number)) }
            return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        }
    }

    private static func matches(_ value: String, _ pattern: String) -> Bool {
        let bytes = Array(value.utf8)
        let shape = Array(pattern.utf8)
        guard bytes.count == shape.count else { return false }
        return zip(bytes, shape).allSatisfy { byte, expected in
            expected == UInt8(ascii: "d") ? (48...57).contains(byte) : byte == expected
        }
    }
}
