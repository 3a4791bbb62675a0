import Foundation
import NowData

extension FieldDefinition {
    /// The SQLite column type (see ``FieldType``).
    var columnType: String {
        switch type {
        case .integer, .boolean: "INTEGER"
        case .decimal: "REAL"
        default: "TEXT"
        }
    }

    /// The stored form of an API value, or nil when the value does not fit the type (the caller decides what an
    /// invalid value means). Empty is NULL; booleans are 0/1; date-times must be `yyyy-MM-dd HH:mm:ss` (or
    /// `yyyy-MM-ddTHH:mm:ss`, which the platform takes too) and dates `yyyy-MM-dd`, naming a real day and time (a
    /// date-time given as a date gets midnight).
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
            let text = Self.spaceSeparated(value)
            switch ServiceNowDateKind(text: text) {
            case .dateTime: return .text(text)
            case .date: return .text(text + " 00:00:00")
            case nil: return nil
            }
        case .date:
            let text = Self.spaceSeparated(value)
            switch ServiceNowDateKind(text: text) {
            case .date: return .text(text)
            case .dateTime: return .text(String(text.prefix(10)))
            case nil: return nil
            }
        case .string, .choice, .reference, .other:
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
            if form == .integer, let whole = Int64(exactly: number.rounded(.towardZero)) { return String(whole) }
            return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        }
    }

    /// `yyyy-MM-ddTHH:mm:ss` with a space for its `T`; any other text as it is.
    private static func spaceSeparated(_ value: String) -> String {
        var bytes = Array(value.utf8)
        guard bytes.count == 19, bytes[10] == UInt8(ascii: "T") else { return value }
        bytes[10] = UInt8(ascii: " ")
        return String(decoding: bytes, as: UTF8.self)
    }
}
