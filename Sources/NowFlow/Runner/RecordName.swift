import Foundation
import NowData

/// How a person recognises a record: its table's display field (the field the dictionary marks `display`, when the
/// run read the table's dictionary), else its number (`INC0010005`), else its name, else its user name; the first of
/// these fields that the record has with a text. The records-touched summary, an ensure's line, a dry run's planned
/// writes and the tables of records all name records this way.
struct RecordName: Sendable, Hashable {
    /// The fields that name a record of a table whose display field is not known, in the order they are looked at.
    static let fields = ["number", "name", "user_name"]

    /// The field that names the record (one of the fields it was looked for in).
    var field: String
    /// The field's text: its display value when the record carries one, else its value.
    var text: String

    /// The fields that name a record of `table`, in the order they are looked at: its display field first, when
    /// `dictionary` knows it and it can name a record (not the sys_id, which is shown beside a name anyway, nor a
    /// reference, whose value is another record's sys_id), then ``fields``.
    static func fields(of table: String, in dictionary: InstanceDictionary?) -> [String] {
        guard let dictionary, let display = dictionary.displayField(of: table), display != "sys_id",
            dictionary.type(of: table, field: display) != "reference"
        else { return fields }
        return [display] + fields.filter { $0 != display }
    }

    /// The name of a record, from the first of `fields` it has with a text (see ``fields(of:in:)``); nil when it
    /// has none.
    init?(_ record: NowRecord, fields: [String]) {
        for field in fields {
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
    static func ofAnswer(_ data: Data, fields: [String]) throws(StepFailure) -> RecordName? {
        guard let members = JSONValue.members(fields, of: "result", in: data) else {
            throw StepFailure("the instance's answer has no result")
        }
        return (try? NowRecord(.object(members))).flatMap { RecordName($0, fields: fields) }
    }
}
