import Foundation
import Testing

@testable import NowData

@Suite struct QueryDateHelperTests {
    /// Monday 30 November 2026, 09:15:30 UTC.
    private let now = Date(timeIntervalSince1970: 1_796_030_130)

    private var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }

    private func text(_ helper: String) -> String? {
        QueryDateHelper(helper)?.date(now: now, calendar: utc).map { Coder.default.text(for: $0) }
    }

    @Test(arguments: [
        ("beginningOfToday()", "2026-11-30 00:00:00"), ("endOfToday()", "2026-11-30 23:59:59"),
        ("beginningOfYesterday()", "2026-11-29 00:00:00"), ("endOfTomorrow()", "2026-12-01 23:59:59"),
        ("beginningOfThisWeek()", "2026-11-30 00:00:00"), ("endOfThisWeek()", "2026-12-06 23:59:59"),
        ("beginningOfLastWeek()", "2026-11-23 00:00:00"), ("endOfNextWeek()", "2026-12-13 23:59:59"),
        ("beginningOfThisMonth()", "2026-11-01 00:00:00"), ("endOfLastMonth()", "2026-10-31 23:59:59"),
        ("beginningOfNextMonth()", "2026-12-01 00:00:00"), ("beginningOfThisQuarter()", "2026-10-01 00:00:00"),
        ("endOfThisQuarter()", "2026-12-31 23:59:59"), ("beginningOfLastQuarter()", "2026-07-01 00:00:00"),
        ("beginningOfThisYear()", "2026-01-01 00:00:00"), ("endOfLastYear()", "2025-12-31 23:59:59"),
        ("beginningOfCurrentHour()", "2026-11-30 09:00:00"), ("endOfLastMinute()", "2026-11-30 09:14:59"),
        ("minutesAgo(15)", "2026-11-30 09:00:30"), ("minutesAgoStart(15)", "2026-11-30 09:00:00"),
        ("hoursAgo(10)", "2026-11-29 23:15:30"), ("hoursAgoEnd(1)", "2026-11-30 08:59:59"),
        ("daysAgo(1)", "2026-11-29 09:15:30"), ("daysAgoStart(0)", "2026-11-30 00:00:00"),
        ("daysAgoEnd(-1)", "2026-12-01 23:59:59"), ("monthsAgoStart(11)", "2025-12-01 00:00:00"),
        ("quartersAgoEnd(1)", "2026-09-30 23:59:59"), ("yearsAgo(2)", "2024-11-30 09:15:30"),
    ])
    func computesEachHelper(helper: String, expected: String) {
        #expect(text("javascript:gs." + helper) == expected)
    }

    /// The "Last N" ranges of the list filters' date choices, as servicenow-rest-api's README filters by
    /// `opened_atONLast 6 months@javascript:gs.beginningOfLast6Months()@javascript:gs.endOfLast6Months()`.
    @Test(arguments: [
        ("beginningOfLast15Minutes()", "2026-11-30 09:00:00"), ("endOfLast15Minutes()", "2026-11-30 09:15:59"),
        ("beginningOfLast45Minutes()", "2026-11-30 08:30:00"), ("beginningOfLast2Hours()", "2026-11-30 07:00:00"),
        ("endOfLast2Hours()", "2026-11-30 09:59:59"), ("beginningOfLast7Days()", "2026-11-23 00:00:00"),
        ("endOfLast7Days()", "2026-11-30 23:59:59"), ("beginningOfLast120Days()", "2026-08-02 00:00:00"),
        ("beginningOfLast6Months()", "2026-05-01 00:00:00"), ("endOfLast6Months()", "2026-11-30 23:59:59"),
        ("beginningOfLast12Months()", "2025-11-01 00:00:00"), ("beginningOfLast2Quarters()", "2026-04-01 00:00:00"),
        ("endOfLast2Quarters()", "2026-12-31 23:59:59"), ("beginningOfLast2Years()", "2024-01-01 00:00:00"),
        ("endOfLast2Years()", "2026-12-31 23:59:59"),
    ])
    func computesEachLastRange(helper: String, expected: String) {
        #expect(text("javascript:gs." + helper) == expected)
    }

    @Test(arguments: [
        "javascript:gs.getUserID()", "javascript:gs.daysAgo()", "javascript:gs.daysAgo(one)",
        "javascript:gs.beginningOfToday(1)", "javascript: gs.beginningOfToday()", "gs.beginningOfToday()",
        "javascript:gs.beginningOfToday() ", "javascript:gs.weeksAgo(1)", "javascript:gs.daysAgo(1000000)",
        "javascript:gs.beginningOfLast5Days()", "javascript:gs.beginningOfLast6Months(1)",
    ])
    func anyOtherTextIsNotAHelper(text: String) {
        #expect(QueryDateHelper(text) == nil)
    }
}
