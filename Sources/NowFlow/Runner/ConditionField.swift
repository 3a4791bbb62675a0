import Foundation
import NowData

/// A field a condition compares, as the instance's dictionary describes it: what the name check holds a
/// condition's value and operator against.
///
/// The platform ignores a condition it cannot apply (`state=Resolved` on an integer choice field, `active=yes`),
/// which widens the query to every record the other conditions match; so a value the field's type cannot hold is
/// an error before anything is sent:
/// - a field with a choice list takes one of its values, or a label, which the run translates to its value
///   (``value(forLabel:)``);
/// - `boolean` takes `true` or `false` (`1`, `0`), by `=`, `!=` and `IN` only;
/// - `integer` a whole number, `decimal`, `float` and `currency` a number; no pattern (`LIKE`, ...) on any;
/// - `glide_date` a date, `glide_date_time` a date-time (or a date), in ServiceNow's format or the job's;
/// - `reference` a sys_id (32 hexadecimal digits), by `=`, `!=`, `IN` and `NOT IN`;
/// - `GUID` (a record's own `sys_id`) a sys_id, by those and by `<`, `<=`, `>`, `>=` and `BETWEEN` too, which
///   compare sys_ids as text (the platform's `ORDERBYsys_id^sys_id>last`, which a keyed read pages by).
///
/// Other types (text, and types the runner does not know) take any value.
struct ConditionField: Sendable {
    /// `incident.state`: the table that defines the field and its name.
    var name: String
    /// The field as the job writes it (`caller_id.name`).
    var walked: String
    /// `sys_dictionary.internal_type`; nil when the dictionary does not say.
    var type: String?
    /// The table a reference field points to ("" for another field).
    var reference: String
    var choices: [InstanceDictionary.Choice]?

    /// Why `text` cannot be compared with the field by `op`; nil when it can.
    func problem(comparing text: String, by op: QueryOperator, dates: JobDates) -> String? {
        if op.isUnary || op.comparesFields || op == .on || op == .notOn { return nil }
        // The platform's date helpers (`javascript:gs.daysAgoStart(0)`), which the parser keeps.
        if text.lowercased().hasPrefix("javascript:") { return nil }
        let ordered: Set<QueryOperator> = [.lessThan, .lessThanOrEquals, .greaterThan, .greaterThanOrEquals, .between]
        let equality: Set<QueryOperator> = [.equals, .notEquals, .isIn, .notIn]
        let kind = type.map(Self.kinds) ?? .text
        switch kind {
        case .boolean where !equality.contains(op), .reference where ordered.contains(op):
            return "\(op.rawValue) does not apply to \(name), \(kind.described)"
        case .number, .wholeNumber, .boolean:
            if op.isPattern { return "\(op.rawValue) does not apply to \(name), \(kind.described)" }
        default:
            break
        }
        // `opened_at: ">=2026-11-27"` compares with a text that starts with an operator, which a number, a date
        // or a reference never does: the job meant the operator.
        if kind != .text, op == .equals || op == .notEquals,
            let written = [">=", "<=", "!=", ">", "<", "="].first(where: text.hasPrefix)
        {
            let rest = text.dropFirst(written.count).trimmingCharacters(in: .whitespaces)
            return "'\(text)' is compared as a whole with \(name), \(kind.described); for a comparison write "
                + "{ \"\(written)\": \"\(rest)\" }"
        }
        if let choices, equality.contains(op) {
            return choiceProblem(text, choices)
        }
        switch kind {
        case .boolean:
            guard ["true", "false", "1", "0"].contains(text.lowercased()) else {
                return "'\(text)' is not a boolean: \(name) takes true or false"
            }
        case .wholeNumber:
            guard Int(text) != nil else { return "'\(text)' is not a whole number: \(name) is \(kind.described)" }
        case .number:
            guard Double(text) != nil else { return "'\(text)' is not a number: \(name) is \(kind.described)" }
        case .date, .dateTime:
            guard ServiceNowDateKind(text: text) != nil || dates.date(fromText: text) != nil else {
                let format = kind == .date ? "yyyy-MM-dd" : "yyyy-MM-dd HH:mm:ss"
                return "'\(text)' is not a \(kind == .date ? "date" : "date-time") (\(format)): \(name) is \(kind.described)"
            }
        case .sysID where !op.isPattern:
            guard text.isHexadecimalSysID else { return "'\(text)' is not a sys_id (32 hexadecimal digits): \(name) is one" }
        case .reference where !op.isPattern:
            guard text.isHexadecimalSysID else {
                let target = reference.isEmpty ? "" : " to \(reference)"
                let walk = reference.isEmpty ? "" : ", or a field of the record it references (\(walked).name)"
                return "'\(text)' is not a sys_id: \(name) is a reference\(target); compare a sys_id\(walk)"
            }
        default:
            break
        }
        return nil
    }

    /// Why a keyed read cannot page by the field's values (`order_by:`); nil when it can. A reference sorts by
    /// its display value, not by the sys_id a condition compares; a boolean takes `=` and `!=` only; a field whose
    /// type the dictionary does not give may be one of those.
    var pagingProblem: String? {
        guard let type else { return "the dictionary gives no type for \(name)" }
        switch Self.kinds(type) {
        case .reference: return "\(name) is a reference, which sorts by its display value"
        case .boolean: return "\(name) is a boolean, which a condition compares by = and != only"
        default: return nil
        }
    }

    /// The choice value whose label is `text`, which a condition by `op` compares instead (`Resolved` is
    /// `incident.state` 6); nil when `text` is a value, or not a label.
    func value(forLabel text: String, by op: QueryOperator) -> String? {
        guard let choices, [.equals, .notEquals, .isIn, .notIn].contains(op),
            !choices.contains(where: { $0.value == text })
        else { return nil }
        return choices.first { $0.label == text }?.value
    }

    /// Why `text` is not one of the field's choice values: a label (named with its value), or neither (the
    /// choices, and a did-you-mean for a word).
    private func choiceProblem(_ text: String, _ choices: [InstanceDictionary.Choice]) -> String? {
        if choices.contains(where: { $0.value == text }) { return nil }
        if choices.contains(where: { $0.label == text }) { return nil }
        var hint = ""
        // A number is a value mistyped, not a word misspelt: no did-you-mean.
        if Double(text) == nil, let closest = text.closest(among: choices.flatMap { [$0.value, $0.label] }) {
            let value = choices.first { $0.label == closest && $0.value != closest }?.value
            hint = "; did you mean \(value.map { "\($0) (\(closest))" } ?? "'\(closest)'")?"
        }
        return "'\(text)' is not one of \(name)'s choices (\(JobRunner.describe(choices)))\(hint)"
    }

    /// What values a condition may compare the field with, by the `internal_type` of a real instance's dictionary
    /// (`longint`, `currency`, `due_date` and `GUID` included). It is not ``NowData/FieldType``, which says how the
    /// local instance and ``NowData/RecordPredicate`` store and compare a value and knows only their own types.
    private enum Kind {
        case text, boolean, wholeNumber, number, date, dateTime, reference, sysID

        var described: String {
            switch self {
            case .text: "a text"
            case .boolean: "a boolean"
            case .wholeNumber: "an integer"
            case .number: "a decimal"
            case .date: "a date"
            case .dateTime: "a date-time"
            case .reference: "a reference"
            case .sysID: "a sys_id"
            }
        }
    }

    private static func kinds(_ type: String) -> Kind {
        switch type {
        case "boolean": .boolean
        case "integer", "longint": .wholeNumber
        case "decimal", "float", "currency", "price": .number
        case "glide_date": .date
        case "glide_date_time", "due_date": .dateTime
        case "reference": .reference
        case "GUID": .sysID
        default: .text
        }
    }
}

extension EncodedQuery.Condition {
    /// The values the condition compares the field with: each item of an `IN` or `NOT IN` list, both ends of a
    /// `BETWEEN`, else the value; none empty.
    var comparedValues: [String] {
        switch op {
        case .isIn, .notIn: value.split(separator: ",").map(String.init)
        case .between: value.split(separator: "@").map(String.init)
        default: value.isEmpty ? [] : [value]
        }
    }
}

extension String {
    /// Whether the text is a sys_id in either case: 32 hexadecimal digits (``isSysID`` takes lowercase only).
    fileprivate var isHexadecimalSysID: Bool { utf8.count == 32 && utf8.allSatisfy { $0.isHexDigit } }
}

extension UInt8 {
    /// Whether the byte is an ASCII hexadecimal digit.
    fileprivate var isHexDigit: Bool {
        (48...57).contains(self) || (65...70).contains(self) || (97...102).contains(self)
    }
}
