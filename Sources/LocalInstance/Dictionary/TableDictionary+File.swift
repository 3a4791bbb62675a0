import Foundation
import NowData

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
/// field, and a table with `number_prefix` gets a `number` field. System fields are added to every table. Any other
/// key is refused, so that a misspelt one is not silently ignored.
///
/// A table with `"extends": "cmdb_ci_server"` (a built-in table or one earlier in the file) is a class of that
/// table: it has the parent's fields before its own (a field of the parent may not be defined again), its display
/// field unless it names one, and the parent's rules (``TableRules``: `task`'s write role and state effects for a
/// table extending `task`); its records are found through the parent (`GET /api/now/table/cmdb_ci` lists them
/// with their `sys_class_name`). Its numbering is its own: it numbers its records only with `number_prefix`.
extension TableDictionary {
    private struct Table {
        var name: String
        var label: String?
        var displayField: String?
        var numberPrefix: String?
        var numberStart: Int?
        var parent: String?
        var fields: [Field]
    }

    private struct Field {
        var name: String
        var type: String?
        var label: String?
        var reference: String?
        var choices: [Choice]
        var `default`: String?
    }

    private struct Choice {
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
        let root: JSONValue
        do {
            root = try JSONValue(json: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw LocalInstanceError("\(path): not a valid JSON dictionary file: \(context.debugDescription)")
        } catch {
            throw LocalInstanceError("\(path): not a valid JSON dictionary file: \(error.localizedDescription)")
        }
        let tables = try Self.tables(in: root, path: path)
        var dictionary = TableDictionary.builtIn
        var added: [TableDefinition] = []
        for table in tables {
            let context = "\(path): table \"\(table.name)\""
            guard Self.isValidName(table.name) else {
                throw LocalInstanceError("\(context): a table name is lowercase letters, digits and underscores")
            }
            guard dictionary.table(table.name) == nil else {
                throw LocalInstanceError("\(context): the table is already defined")
            }
            var parent: TableDefinition?
            if let name = table.parent {
                guard let found = dictionary.table(name) else {
                    throw LocalInstanceError("\(context): extends \"\(name)\", which is not a table")
                }
                parent = found
            }
            let inherited = (parent?.fields ?? []).filter { !TableDefinition.systemFieldNames.contains($0.name) }
            var fields: [FieldDefinition] = []
            for field in table.fields {
                let definition = try Self.definition(of: field, context: context)
                if let parent, parent.field(definition.name) != nil {
                    throw LocalInstanceError(
                        "\(context): field \"\(definition.name)\" is already a field of \(parent.name), which it "
                            + "extends")
                }
                fields.append(definition)
            }
            guard Set(fields.map(\.name)).count == fields.count else {
                throw LocalInstanceError("\(context): a field is defined twice")
            }
            let displayField = table.displayField ?? parent?.displayField ?? fields.first?.name ?? "sys_id"
            let definition = TableDefinition(
                name: table.name, label: table.label ?? FieldDefinition.label(for: table.name),
                displayField: displayField, numberPrefix: table.numberPrefix, numberStart: table.numberStart ?? 1001,
                extends: parent?.name, fields: inherited + fields)
            guard definition.field(displayField) != nil else {
                throw LocalInstanceError("\(context): display_field \"\(displayField)\" is not a field of the table")
            }
            dictionary.add(definition)
            added.append(definition)
        }
        for table in added {
            // Inherited fields are the parent's: a built-in table may reference tables the dictionary lacks.
            let parent = table.parent.flatMap { dictionary.table($0) }
            for field in table.fields where parent?.field(field.name) == nil {
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
        let internalType = field.type ?? "string"
        let known = ["string", "integer", "decimal", "boolean", "glide_date_time", "glide_date", "reference", "choice"]
        guard known.contains(internalType) else {
            throw LocalInstanceError("\(context): unknown type \"\(internalType)\" (\(known.joined(separator: ", ")))")
        }
        if internalType == "reference", field.reference?.isEmpty ?? true {
            throw LocalInstanceError("\(context): a reference field needs \"reference\": the target table")
        }
        let type = FieldType(internalType: internalType, reference: field.reference ?? "")
        let choices = field.choices.map { FieldChoice($0.value, $0.label ?? $0.value) }
        return FieldDefinition(field.name, type, label: field.label, choices: choices, defaultValue: field.default)
    }

    private static let fileKeys: Set<String> = ["tables"]
    private static let tableKeys: Set<String> = [
        "name", "label", "display_field", "number_prefix", "number_start", "extends", "fields",
    ]
    private static let fieldKeys: Set<String> = ["name", "type", "label", "reference", "choices", "default"]
    private static let choiceKeys: Set<String> = ["value", "label"]

    /// The tables of the file's JSON, or an error naming the first wrong key or value and where it is
    /// (`tables[0].fields[1]`).
    private static func tables(in root: JSONValue, path: String) throws(LocalInstanceError) -> [Table] {
        let file = try FileObject(root, at: "", allowed: fileKeys, path: path)
        var tables: [Table] = []
        for table in try file.objects("tables", allowed: tableKeys) {
            tables.append(try Self.table(table))
        }
        return tables
    }

    private static func table(_ object: FileObject) throws(LocalInstanceError) -> Table {
        var table = Table(
            name: try object.requiredString("name"), label: try object.string("label"),
            displayField: try object.string("display_field"), numberPrefix: try object.string("number_prefix"),
            numberStart: try object.integer("number_start"), parent: try object.string("extends"), fields: [])
        for field in try object.objects("fields", allowed: fieldKeys) {
            table.fields.append(try Self.field(field))
        }
        return table
    }

    private static func field(_ object: FileObject) throws(LocalInstanceError) -> Field {
        var field = Field(
            name: try object.requiredString("name"), type: try object.string("type"), label: try object.string("label"),
            reference: try object.string("reference"), choices: [], default: try object.string("default"))
        for choice in try object.objects("choices", allowed: choiceKeys, required: false) {
            field.choices.append(Choice(value: try choice.requiredString("value"), label: try choice.string("label")))
        }
        return field
    }

    /// One object of the dictionary file and where it is (`tables[0].fields[1]`, empty for the file itself), read
    /// member by member; a member that is null counts as absent unless it is required.
    private struct FileObject {
        let members: JSONObject
        let place: String
        let path: String

        /// `value` as an object whose keys are all in `allowed`.
        init(_ value: JSONValue, at place: String, allowed: Set<String>, path: String) throws(LocalInstanceError) {
            self.place = place
            self.path = path
            guard let members = value.object else {
                throw Self.error(path, place, "expected an object, found \(value.kindDescription)")
            }
            if let unknown = members.keys.first(where: { !allowed.contains($0) }) {
                throw Self.error(path, place, "unknown key \"\(unknown)\"")
            }
            self.members = members
        }

        /// The string `key`; nil when it is absent or null.
        func string(_ key: String) throws(LocalInstanceError) -> String? {
            guard let value = members[key], !value.isNull else { return nil }
            return try text(value, key)
        }

        /// The string `key`, which must be there.
        func requiredString(_ key: String) throws(LocalInstanceError) -> String {
            try text(required(key), key)
        }

        /// The whole number `key`; nil when it is absent or null.
        func integer(_ key: String) throws(LocalInstanceError) -> Int? {
            guard let value = members[key], !value.isNull else { return nil }
            guard let number = value.number?.int else {
                let found = value.number.map(\.text) ?? value.kindDescription
                throw Self.error(path, place(of: key), "expected a whole number, found \(found)")
            }
            return number
        }

        /// The objects of the array `key`, each with keys in `allowed`; empty when it is absent (or null) and not
        /// `required`.
        func objects(_ key: String, allowed: Set<String>, required: Bool = true) throws(LocalInstanceError)
            -> [FileObject]
        {
            let value: JSONValue
            if required {
                value = try self.required(key)
            } else {
                guard let member = members[key], !member.isNull else { return [] }
                value = member
            }
            guard let elements = value.array else {
                throw Self.error(path, place(of: key), "expected an array, found \(value.kindDescription)")
            }
            var objects: [FileObject] = []
            for (index, element) in elements.enumerated() {
                objects.append(try FileObject(element, at: "\(place(of: key))[\(index)]", allowed: allowed, path: path))
            }
            return objects
        }

        private func required(_ key: String) throws(LocalInstanceError) -> JSONValue {
            guard let value = members[key] else { throw Self.error(path, place, "missing key \"\(key)\"") }
            return value
        }

        private func text(_ value: JSONValue, _ key: String) throws(LocalInstanceError) -> String {
            guard let text = value.string else {
                throw Self.error(path, place(of: key), "expected a string, found \(value.kindDescription)")
            }
            return text
        }

        private func place(of key: String) -> String {
            place.isEmpty ? key : "\(place).\(key)"
        }

        private static func error(_ path: String, _ place: String, _ message: String) -> LocalInstanceError {
            LocalInstanceError("\(path): \(place.isEmpty ? "" : place + ": ")\(message)")
        }
    }

    private static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
    }
}
