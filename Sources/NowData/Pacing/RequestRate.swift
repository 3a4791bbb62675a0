/// A pace of requests: `count` per `interval`, such as `500/s` or `10000/h`.
///
/// ```swift
/// let rate = try RequestRate(parsing: "10000/h")   // 10,000 requests an hour
/// let share = rate.divided(by: 4)                  // each of 4 shards: 2,500 an hour
/// ```
public struct RequestRate: Sendable, Hashable, CustomStringConvertible {
    /// The requests allowed per ``interval``.
    public var count: Double
    /// The interval `count` is for.
    public var interval: Duration

    /// `count` requests per `interval`.
    public init(count: Double, per interval: Duration) {
        self.count = count
        self.interval = interval
    }

    /// Reads `N/s`, `N/min` or `N/h` (`N` a positive number, such as `0.5/s` or `10000/h`).
    ///
    /// - Throws: ``Problem`` saying what is wrong.
    public init(parsing text: String) throws(Problem) {
        let parts = text.split(separator: "/", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let count = Double(parts[0]), count.isFinite, count > 0 else {
            throw Problem("expects requests per second or hour, such as 500/s or 10000/h, got '\(text)'")
        }
        switch parts[1] {
        case "s": self.init(count: count, per: .seconds(1))
        case "min": self.init(count: count, per: .seconds(60))
        case "h": self.init(count: count, per: .seconds(3600))
        default: throw Problem("expects requests per second (/s), minute (/min) or hour (/h), got '\(text)'")
        }
    }

    /// What is wrong with a rate's text.
    public struct Problem: Error, Sendable, Equatable {
        /// The sentence, to follow the setting's name (`--rate expects ...`).
        public var message: String
        init(_ message: String) { self.message = message }
    }

    /// The pace of one of `parts` runners sharing this one (a sharded run's share).
    public func divided(by parts: Int) -> RequestRate {
        RequestRate(count: count / Double(max(1, parts)), per: interval)
    }

    /// The time between two requests at this pace.
    public var spacing: Duration { interval / count }

    /// `500/s`, `10000/h`, `2.5/s`.
    public var description: String {
        let unit = interval == .seconds(1) ? "s" : interval == .seconds(60) ? "min" : interval == .seconds(3600) ? "h" : "\(interval)"
        let number = count == count.rounded() && count < 1e15 ? String(Int64(count)) : String(count)
        return "\(number)/\(unit)"
    }
}
