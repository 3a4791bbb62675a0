import Foundation
import NowData

/// A blackout or maintenance schedule as conflict checking and the schedule endpoints read it: a
/// `cmn_schedule_blackout` or `cmn_schedule_maintenance` whose `condition` selects a configuration item (every item
/// of its `applies_to` class when empty), or the schedule a configuration item names as its `maintenance_schedule`;
/// with the windows of its `cmn_schedule_span` entries, in UTC.
///
/// A change must not overlap a window of a blackout schedule of its item, and must lie within one window of each
/// maintenance schedule of its item.
struct ChangeSchedule: Sendable, Equatable {
    enum Kind: String, Sendable {
        case blackout, maintenance
    }

    let sysID: String
    let kind: Kind
    let spans: [Span]

    /// One `cmn_schedule_span`: a window, once or repeated every `period` until `until`.
    struct Span: Sendable, Equatable {
        let start: Date
        let end: Date
        /// The repetition's period, in seconds (a day, a week); nil: once.
        let period: TimeInterval?
        /// The end of the last day the window may start on (`repeat_until`); nil: for ever.
        let until: Date?

        /// The windows that overlap `from` to `to`, in order.
        func windows(from: Date, to: Date) -> [DateInterval] {
            let length = end.timeIntervalSince(start)
            guard length > 0 else { return [] }
            guard let period else {
                return start < to && end > from ? [DateInterval(start: start, end: end)] : []
            }
            var index = max(0, ((from.timeIntervalSince(start) - length) / period).rounded(.down))
            var windows: [DateInterval] = []
            while true {
                let begin = start.addingTimeInterval(index * period)
                if begin >= to || until.map({ begin >= $0 }) == true { break }
                let window = DateInterval(start: begin, duration: length)
                if window.end > from { windows.append(window) }
                index += 1
            }
            return windows
        }
    }

    /// The windows of the schedule that overlap `from` to `to`, in order.
    func windows(from: Date, to: Date) -> [DateInterval] {
        spans.flatMap { $0.windows(from: from, to: to) }.sorted { $0.start < $1.start }
    }

    /// Whether `slot` overlaps a window of the schedule.
    func overlaps(_ slot: DateInterval) -> Bool {
        !windows(from: slot.start, to: slot.end).isEmpty
    }

    /// Whether `slot` lies within one window of the schedule.
    func contains(_ slot: DateInterval) -> Bool {
        windows(from: slot.start, to: slot.end).contains { $0.start <= slot.start && $0.end >= slot.end }
    }

    /// How far ahead the schedule endpoints look for a window (the platform's
    /// `change.conflict.next_available.schedule_window`, 90 days).
    static let searchDays = 90

    /// The blackout and maintenance schedules of the configuration item `item`, blackouts first, each by name.
    static func schedules(
        of item: String, _ dictionary: TableDictionary, _ store: RecordStore, _ translator: SQLQueryTranslator,
        _ db: SQLiteConnection
    ) throws -> [ChangeSchedule] {
        guard let schedules = dictionary.table("cmn_schedule"), let spans = dictionary.table("cmn_schedule_span"),
            let items = dictionary.table("cmdb_ci")
        else { return [] }
        var found: [ChangeSchedule] = []
        for kind in [Kind.blackout, .maintenance] {
            guard let table = dictionary.table("cmn_schedule_\(kind.rawValue)") else { continue }
            for record in try store.select(table, where: "", [], orderBy: "\"name\"", limit: -1, offset: 0, db)
            where try applies(record, to: item, dictionary, store, translator, db) {
                found.append(try schedule(record["sys_id"] ?? "", kind, spans, store, db))
            }
        }
        if let named = try store.fetch(items, sysID: item, db)?["maintenance_schedule"], !named.isEmpty,
            !found.contains(where: { $0.sysID == named }), try store.fetch(schedules, sysID: named, db) != nil
        {
            found.append(try schedule(named, .maintenance, spans, store, db))
        }
        return found
    }

    private static func schedule(
        _ sysID: String, _ kind: Kind, _ spans: TableDefinition, _ store: RecordStore, _ db: SQLiteConnection
    ) throws -> ChangeSchedule {
        let entries = try store.select(
            spans, where: "\"schedule\" = ?", [.text(sysID)], orderBy: "\"start_date_time\"", limit: -1, offset: 0, db)
        return ChangeSchedule(
            sysID: sysID, kind: kind,
            spans: entries.compactMap { entry in
                guard let start = date(entry["start_date_time"]), let end = date(entry["end_date_time"]) else {
                    return nil
                }
                let period: TimeInterval? =
                    switch entry["repeat_type"] ?? "" {
                    case "daily": 86_400
                    case "weekly": 604_800
                    default: nil
                    }
                let untilDay = entry["repeat_until"] ?? ""
                let until = untilDay.isEmpty ? nil : date(untilDay + " 00:00:00")
                return Span(start: start, end: end, period: period, until: until?.addingTimeInterval(86_400))
            })
    }

    /// Whether the condition schedule `record` applies to the item: the item is of its `applies_to` class (a
    /// table extending `cmdb_ci`) and meets its `condition`.
    private static func applies(
        _ record: StoredRecord, to item: String, _ dictionary: TableDictionary, _ store: RecordStore,
        _ translator: SQLQueryTranslator, _ db: SQLiteConnection
    ) throws -> Bool {
        let className = (record["applies_to"] ?? "").isEmpty ? "cmdb_ci" : record["applies_to"] ?? ""
        guard let table = dictionary.table(className) else { return false }
        var condition = "\"sys_id\" = ?"
        var parameters: [SQLValue] = [.text(item)]
        if let query = record["condition"], !query.isEmpty {
            let translated = translator.translate(try EncodedQuery.parse(query), table: table.name)
            if !translated.whereClause.isEmpty {
                condition += " AND (\(translated.whereClause))"
                parameters += translated.parameters
            }
        }
        return try store.count(table, where: condition, parameters, db) > 0
    }

    /// A stored date-time (`yyyy-MM-dd HH:mm:ss`, UTC) as a date.
    static func date(_ text: String?) -> Date? {
        guard let text, text.utf8.count == 19 else { return nil }
        return Coder.default.date(fromText: text)
    }

    /// The slots of `duration` seconds from `from` to ``searchDays`` days later in which a change of an item
    /// meets `schedules` and overlaps none of `busy` (the item's other changes): one starting at `from` and at
    /// each end of a blackout window or busy change and each start of a maintenance window, when it is free.
    static func availableSlots(
        duration: TimeInterval, from: Date, _ schedules: [ChangeSchedule], busy: [DateInterval]
    ) -> [DateInterval] {
        let horizon = from.addingTimeInterval(TimeInterval(searchDays) * 86_400)
        var starts: Set<Date> = [from]
        for schedule in schedules {
            for window in schedule.windows(from: from, to: horizon) {
                starts.insert(schedule.kind == .blackout ? window.end : window.start)
            }
        }
        for change in busy { starts.insert(change.end) }
        return starts.filter { $0 >= from && $0.addingTimeInterval(duration) <= horizon }.sorted().compactMap {
            let slot = DateInterval(start: $0, duration: duration)
            let free =
                !busy.contains { $0.start < slot.end && $0.end > slot.start }
                && schedules.allSatisfy { $0.kind == .blackout ? !$0.overlaps(slot) : $0.contains(slot) }
            return free ? slot : nil
        }
    }
}
