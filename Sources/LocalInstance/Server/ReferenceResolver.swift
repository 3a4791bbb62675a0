import Foundation

/// Looks up referenced records during one request (cached), for display values, dot-walking and
/// `sysparm_input_display_value`.
final class ReferenceResolver {
    private let dictionary: TableDictionary
    private let store: RecordStore
    private let db: SQLiteConnection
    private var cache: [String: StoredRecord?] = [:]
    /// The session's user, whose time zone and date format date-time display values are written in.
    private let userName: String?
    private var dates: UserDateDisplay?
    /// The session user's record once read (`.some(nil)`: there is none).
    private var user: UserRecord??
    /// The zone of a user whose `time_zone` is empty or unknown (the platform's `glide.sys.default.tz`).
    private let systemTimeZone: TimeZone

    init(
        dictionary: TableDictionary, store: RecordStore, db: SQLiteConnection, userName: String? = nil,
        systemTimeZone: TimeZone
    ) {
        self.systemTimeZone = systemTimeZone
        self.dictionary = dictionary
        self.store = store
        self.db = db
        self.userName = userName
    }

    /// The record `sysID` of `table`, if it exists.
    func record(_ table: String, _ sysID: String) throws -> StoredRecord? {
        guard !sysID.isEmpty, let definition = dictionary.table(table) else { return nil }
        let key = table + "/" + sysID
        if let cached = cache[key] { return cached }
        let found = try store.fetch(definition, sysID: sysID, db)
        cache[key] = found
        return found
    }

    /// The display value of a field's stored value: a reference's target display value, a choice's label,
    /// otherwise the value itself. The global domain (``FieldDefinition/domain``) is displayed `global`.
    func displayValue(_ field: FieldDefinition, _ value: String, depth: Int = 0) throws -> String {
        guard !value.isEmpty else { return "" }
        if field.name == FieldDefinition.domain.name, value == FieldDefinition.globalDomain { return value }
        if case .reference(let target) = field.type {
            guard depth < 3, let table = dictionary.table(target), let record = try record(target, value),
                let displayField = table.field(table.displayField)
            else { return "" }
            return try displayValue(displayField, record[displayField.name] ?? "", depth: depth + 1)
        }
        if field.type == .dateTime || field.type == .date {
            return try userDates().display(value, type: field.type)
        }
        return field.choiceLabel(for: value) ?? value
    }

    /// The session user's date display, from their `sys_user` record.
    private func userDates() throws -> UserDateDisplay {
        if let dates { return dates }
        let user = try sessionUser()
        let display = UserDateDisplay(
            timeZone: user?.timeZone ?? "", dateFormat: user?.dateFormat ?? "", systemTimeZone: systemTimeZone)
        dates = display
        return display
    }

    /// The session user's time zone (`sys_user.time_zone`), in which a query's date helpers
    /// (`javascript:gs.beginningOfToday()`) are computed; the system's when it is empty or not a known zone.
    func timeZone() throws -> TimeZone {
        let name = try sessionUser()?.timeZone ?? ""
        return name.isEmpty ? systemTimeZone : TimeZone(identifier: name) ?? systemTimeZone
    }

    /// The session user's `sys_user` record, read once per request; nil without a user or time zones.
    private func sessionUser() throws -> UserRecord? {
        if let user { return user }
        var found: UserRecord?
        if let userName, dictionary.table("sys_user")?.field("time_zone") != nil {
            found = try store.user(named: userName, db)
        }
        user = .some(found)
        return found
    }

    /// The stored value of `field` that the display value `text` names: a reference's sys_id, a choice's value;
    /// `text` itself when none matches or the field is neither.
    func storedValue(_ field: FieldDefinition, forDisplayValue text: String) throws -> String {
        if case .reference(let target) = field.type { return try sysID(in: target, forDisplayValue: text) ?? text }
        return field.choiceValue(forLabel: text) ?? text
    }

    /// The sys_id of the record of `table` whose display value (or sys_id) is `text`, if there is one.
    func sysID(in table: String, forDisplayValue text: String) throws -> String? {
        guard let definition = dictionary.table(table) else { return nil }
        if try record(table, text) != nil { return text }
        guard let displayField = definition.field(definition.displayField), displayField.type == .string else {
            return nil
        }
        return try store.select(
            definition, where: "\"\(displayField.name)\" = ?", [.text(text)], orderBy: "", limit: 1, offset: 0, db
        ).first?["sys_id"]
    }
}
