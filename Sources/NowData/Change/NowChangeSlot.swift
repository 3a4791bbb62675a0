import Foundation

/// A time slot in which the Change Management API found a change's configuration item free: no blackout, within
/// its maintenance windows, no other change (one of a schedule worker's `payload.spans`).
public struct NowChangeSlot: Sendable, Equatable {
    /// When the slot starts.
    public let start: Date
    /// When it ends: the start and the change's duration.
    public let end: Date
    /// The start as the instance displays it to the user (in their time zone), `2026-12-20 12:00:00`.
    public let startDisplayValue: String
    /// The end as the instance displays it to the user.
    public let endDisplayValue: String

    /// Creates a slot.
    public init(start: Date, end: Date, startDisplayValue: String, endDisplayValue: String) {
        self.start = start
        self.end = end
        self.startDisplayValue = startDisplayValue
        self.endDisplayValue = endDisplayValue
    }

    /// The slot of a span (`{"start":{"value","display_value"},"end":{...}}`), its values UTC
    /// `yyyy-MM-dd HH:mm:ss`; nil for anything else.
    init?(span: JSONValue) {
        guard let start = span.object?["start"]?.object, let end = span.object?["end"]?.object,
            let startValue = start["value"]?.string, let endValue = end["value"]?.string,
            let startDate = Coder.default.date(fromText: startValue), let endDate = Coder.default.date(fromText: endValue)
        else { return nil }
        self.init(
            start: startDate, end: endDate, startDisplayValue: start["display_value"]?.string ?? startValue,
            endDisplayValue: end["display_value"]?.string ?? endValue)
    }
}
