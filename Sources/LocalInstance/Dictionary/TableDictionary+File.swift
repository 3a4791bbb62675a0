import Foundation

/// The dictionary file: extra (custom `u_`) tables given at start-up, in JSON.
///
/// ```json
/// {
///   "tables": [
///     {
///       "name": "u_ci_audit",
///       "label": "CI Audit",
///       "display_field": "u_name",
///       "number_prefix": "AUD",
///       "number_start": 1001,
///       "fields": [
///         {"name": "u_name", "type": "string", "label": "Name"},
///         {"name": "u_result", "type": "integer", "default": "1",
///          "choices": [{"value": "1", "label": "Pass"}, {"value": "2", "label": "Fail"}]},
///         {"name": "u_ci", "type": "reference", "reference": "cmdb_ci"},
///         {"name": "u_checked_on", "type": "glide_date_time"}
///       ]
///     }
///   ]
/// }
/// ```
/// Types: `string`, `integer`, `decimal`, `boolean`, `glide_date_time`, `glide_date`, `reference` (with
/// `reference`, the target table) and `choice` (text values with `choices`). Only `name`, `fields` and each
/// field's `name` are required: the label defaults to the name, `type` to `string`, `display_field` to the first
/// field, and a table with `number_prefix` gets a `number` field. System fields are added to every table.
extension TableDictionary {
    private struct File: Decodable {
        var tables: [Table]
    }

    private struct Table: Decodable {
        var name: String
        var label: String?
        var displayField: String?
        var numberPrefix: String?
        var numberStart: Int?
        var fields: [Field]

        enum CodingKeys: String, CodingKey {
            case name, label, fields
            case displayField = "display_field"
            case numberPrefix = "number_prefix"
            case numberStart = "number_start"
        }
    }

    private struct Field: Decodable {
        var name: String
        var type: String?
        var label: String?
        var reference: String?
        var choices: [Choice]?
        var `default`: String?
    }

    private struct Choice: Decodable {
        var value: String
        var label: String?
    }

    /// The built-in tables plus those of the dictionary file at `path`.
    static func loading(file path: String) throws(LocalInstanceError) -> TableDictionary {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw LocalInstanceError("\(path): cannot read the dictionary file: \(error.localizedDescription)")
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw LocalInstanceError("\(path): \(Self.where(context.codingPath))missing key \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(_, context) {
            throw LocalInstanceError("\(path): \(Self.where(context.codingPath))\(context.debugDescription)")
        } catch {
            throw LocalInstanceError("\(path): not a valid JSON dictionary file: \(error.localizedDescription)")
        }
        var dictionary = TableDictionary.builtIn
        var added: [TableDefinition] = []
        for table in file.tables {
            let context = "\(path): table \"\(table.name)\""
            guard Self.isValidName(table.name) else {
                throw LocalInstanceError("\(context): a table name is lowercase letters, digits and underscores")
            }
            guard dictionary.table(table.name) == nil else {
                throw LocalInstanceError("\(context): the table is already defined")
            }
            var fields: [FieldDefinition] = []
            for field in table.fields {
                fields.append(try Self.definition(of: field, context: context))
            }
            guard Set(fields.map(\.name)).count == fields.count else {
                throw LocalInstanceError("\(context): a field is defined twice")
            }
            let displayField = table.displayField ?? fields.first?.name ?? "sys_id"
            let definition = TableDefinition(
                name: table.name, label: table.label ?? FieldDefinition.label(for: table.name),
                displayField: displayField, numberPrefix: table.numberPrefix, numberStart: table.numberStart ?? 1001,
                fields: fields)
            guard definition.field(displayField) != nil else {
                throw LocalInstanceError("\(context): display_field \"\(displayField)\" is not a field of the table")
            }
            dictionary.add(definition)
            added.append(definition)
        }
        for table in added {
            for field in table.fields {
                if case .reference(let target) = field.type, dictionary.table(target) == nil {
                    let context = "\(path): table \"\(table.name)\": field \"\(field.name)\""
                    throw LocalInstanceError("\(context): unknown reference table \"\(target)\"")
                }
            }
        }
        return dictionary
    }

    private static func definition(of field: Field, context: String) throws(LocalInstanceError) -> FieldDefinition {
        let context = "\(context): field \"\(field.name)\""
        guard isValidName(field.name) else {
            throw LocalInstanceError("\(context): a field name is lowercase letters, digits and underscores")
        }
        let type: FieldType
        switch field.type ?? "string" {
        case "string": type = .string
        case "integer": type = .integer
        case "decimal": type = .decimal
        case "boolean": type = .boolean
        case "glide_date_time": type = .dateTime
        case "glide_date": type = .date
        case "choice": type = .choice
        case "reference":
            guard let target = field.reference else {
                throw LocalInstanceError("\(context): a reference field needs \"reference\": the target table")
            }
            type = .reference(table: target)
        case let other:
            let known = "string, integer, decimal, boolean, glide_date_time, glide_date, reference, choice"
            throw LocalInstanceError("\(context): unknown type \"\(other)\" (\(known))")
        }
        let choices = (field.choices ?? []).map { FieldChoice($0.value, $0.label ?? $0.value) }
        return FieldDefinition(field.name, type, label: field.label, choices: choices, defaultValue: field.default)
    }

    private static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
    }

    private static func `where`(_ path: [any CodingKey]) -> String {
        let text = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return text.isEmpty ? "" : String(text.drop { $0 == "." }) + ": "
    }
}
