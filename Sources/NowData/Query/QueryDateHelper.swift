import Foundation

/// A `javascript:gs.*` date helper of the platform's list filters (`javascript:gs.beginningOfToday()`,
/// `javascript:gs.daysAgoStart(3)`), recognised by its exact text so that a query copied from a list filter runs
/// without a script engine; any other `javascript:` value stays refused.
///
/// The helpers: `beginningOf…()` and `endOf…()` for `Today`, `Yesterday`, `Tomorrow`, `ThisWeek`, `LastWeek`,
/// `NextWeek`, `ThisMonth`, `LastMonth`, `NextMonth`, `ThisQuarter`, `LastQuarter`, `NextQuarter`, `ThisYear`,
/// `LastYear`, `NextYear`, `CurrentMinute`, `LastMinute`, `CurrentHour`, `LastHour`; the "Last N" ranges
/// `Last15Minutes`, `Last30Minutes`, `Last45Minutes`, `Last2Hours`, `Last7Days`, `Last30Days`, `Last60Days`,
/// `Last90Days`, `Last120Days`, `Last3Months`, `Last6Months`, `Last9Months`, `Last12Months`, `Last2Quarters` and
/// `Last2Years` (from the start of the unit N units ago to the end of the current unit); and `minutesAgo(n)`,
/// `hoursAgo(n)`, `daysAgo(n)`, `monthsAgo(n)`, `quartersAgo(n)`, `yearsAgo(n)`, each also with `Start` and `End`
/// (`daysAgoStart(0)` is the beginning of today). Weeks begin on Monday, as on the platform.
///
/// ```swift
/// let helper = QueryDateHelper("javascript:gs.daysAgoStart(1)")   // the beginning of yesterday
/// let date = helper?.date(now: Date(), calendar: utcCalendar)
/// ```
package struct QueryDateHelper: Sendable, Hashable {
    /// The calendar unit a helper counts in.
    package enum Unit: Sendable, Hashable {
        case minute, hour, day, week, month, quarter, year
    }

    /// Which instant of the unit the helper gives.
    package enum Edge: Sendable, Hashable {
        /// The same time of day (`daysAgo(1)`: 24 hours ago).
        case exact
        /// The first second of the unit (`beginningOf…`, `…AgoStart`).
        case start
        /// The last second of the unit (`endOf…`, `…AgoEnd`).
        case end
    }

    package var unit: Unit
    /// How many units before now (negative: after now).
    package var unitsAgo: Int
    package var edge: Edge

    private static let periods: [String: (Unit, Int)] = [
        "Today": (.day, 0), "Yesterday": (.day, 1), "Tomorrow": (.day, -1),
        "ThisWeek": (.week, 0), "LastWeek": (.week, 1), "NextWeek": (.week, -1),
        "ThisMonth": (.month, 0), "LastMonth": (.month, 1), "NextMonth": (.month, -1),
        "ThisQuarter": (.quarter, 0), "LastQuarter": (.quarter, 1), "NextQuarter": (.quarter, -1),
        "ThisYear": (.year, 0), "LastYear": (.year, 1), "NextYear": (.year, -1),
        "CurrentMinute": (.minute, 0), "LastMinute": (.minute, 1), "CurrentHour": (.hour, 0), "LastHour": (.hour, 1),
    ]

    /// The ranges of the list filters' "Last N …" choices (`beginningOfLast6Months()`, `endOfLast6Months()`): from
    /// the start of the unit N units ago to the end of the current one.
    private static let ranges: [String: (Unit, Int)] = [
        "Last15Minutes": (.minute, 15), "Last30Minutes": (.minute, 30), "Last45Minutes": (.minute, 45),
        "Last2Hours": (.hour, 2), "Last7Days": (.day, 7), "Last30Days": (.day, 30), "Last60Days": (.day, 60),
        "Last90Days": (.day, 90), "Last120Days": (.day, 120), "Last3Months": (.month, 3),
        "Last6Months": (.month, 6), "Last9Months": (.month, 9), "Last12Months": (.month, 12),
        "Last2Quarters": (.quarter, 2), "Last2Years": (.year, 2),
    ]

    private static let agoUnits: [String: Unit] = [
        "minutesAgo": .minute, "hoursAgo": .hour, "daysAgo": .day, "monthsAgo": .month, "quartersAgo": .quarter,
        "yearsAgo": .year,
    ]

    /// The helper written exactly as `text` (`javascript:gs.daysAgo(1)`), or nil for any other text.
    package init?(_ text: String) {
        let prefix = "javascript:gs."
        guard text.hasPrefix(prefix), text.hasSuffix(")"), let open = text.firstIndex(of: "(") else { return nil }
        let name = String(text[text.index(text.startIndex, offsetBy: prefix.count)..<open])
        let argument = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
        if let period = name.dropping("beginningOf") ?? name.dropping("endOf") {
            guard argument.isEmpty else { return nil }
            let begins = name.hasPrefix("begin")
            if let (unit, ago) = Self.periods[period] {
                self.init(unit: unit, unitsAgo: ago, edge: begins ? .start : .end)
            } else if let (unit, count) = Self.ranges[period] {
                self.init(unit: unit, unitsAgo: begins ? count : 0, edge: begins ? .start : .end)
            } else {
                return nil
            }
            return
        }
        guard let count = Int(argument), abs(count) <= 100_000 else { return nil }
        for (base, unit) in Self.agoUnits {
            switch name {
            case base: self.init(unit: unit, unitsAgo: count, edge: .exact)
            case base + "Start": self.init(unit: unit, unitsAgo: count, edge: .start)
            case base + "End": self.init(unit: unit, unitsAgo: count, edge: .end)
            default: continue
            }
            return
        }
        return nil
    }

    package init(unit: Unit, unitsAgo: Int, edge: Edge) {
        self.unit = unit
        self.unitsAgo = unitsAgo
        self.edge = edge
    }

    /// The instant the helper stands for at `now`, in `calendar`'s time zone (weeks begin on Monday); nil only
    /// when the calendar cannot reach it.
    package func date(now: Date, calendar base: Calendar) -> Date? {
        var calendar = base
        calendar.firstWeekday = 2
        let (component, step): (Calendar.Component, Int) =
            switch unit {
            case .minute: (.minute, 1)
            case .hour: (.hour, 1)
            case .day: (.day, 1)
            case .week: (.weekOfYear, 1)
            case .month: (.month, 1)
            case .quarter: (.month, 3)
            case .year: (.year, 1)
            }
        guard let moved = calendar.date(byAdding: component, value: -unitsAgo * step, to: now) else { return nil }
        if edge == .exact { return moved }
        let start: Date?
        switch unit {
        case .week:
            start = calendar.dateInterval(of: .weekOfYear, for: moved)?.start
        case .quarter:
            var parts = calendar.dateComponents([.year, .month], from: moved)
            parts.month = ((parts.month ?? 1) - 1) / 3 * 3 + 1
            parts.day = 1
            start = calendar.date(from: parts)
        default:
            let kept: Set<Calendar.Component> =
                switch unit {
                case .minute: [.year, .month, .day, .hour, .minute]
                case .hour: [.year, .month, .day, .hour]
                case .day: [.year, .month, .day]
                case .month: [.year, .month]
                default: [.year]
                }
            start = calendar.date(from: calendar.dateComponents(kept, from: moved))
        }
        guard let start else { return nil }
        if edge == .start { return start }
        return calendar.date(byAdding: component, value: step, to: start)?.addingTimeInterval(-1)
    }
}

extension String {
    /// The text after `prefix`, or nil when it does not start with it.
    fileprivate func dropping(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
