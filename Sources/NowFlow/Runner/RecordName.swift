import Foundation
import NowData

/// How a person recognises a record: its number (`INC0010005`), else its name, else its user name; the first of
/// these fields that the record has with a text. The records-touched summary, an ensure's line, a dry run's planned
/// writes and the tables of records all name records this way.
struct RecordName: Sendable, Hashable {
    /// The fields that name a record, in the order they are looked at.
    static let fields = ["number", "name", "user_name"]

    /// The field that names the record (one of ``fields``).
    var field: String
    /// The field's text: its display value when the record carries one, else its value.
    var text: String

    /// The name of a record; nil when none of ``fields`` has a text.
    init?(_ record: NowRecord) {
        for field in Self.fields {
            if let text = record.displayValue(field), !text.isEmpty {
                (self.field, self.text) = (field, text)
                return
            }
        }
        return nil
    }

    /// The name of the record of a Table API answer (`{"result": {...}}`), read without the rest of the record;
    /// nil when it has none.
    ///
    /// - Throws: ``StepFailure`` when the answer holds no record.
    static func ofAnswer(_ data: Data) throws(StepFailure) -> RecordName? {
        guard let fields = JSONValue.members(fields, of: "result", in: data) else {
            throw StepFailure("the instance's answer has no result")
        }
        return (try? NowRecord(.object(fields))).flatMap(RecordName.init)
    }
}
