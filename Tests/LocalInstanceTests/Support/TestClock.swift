import Foundation
import Synchronization

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: String = "2026-11-30 09:00:00") {
        current = Mutex(Date(timeIntervalSince1970: TestClock.seconds(start)))
    }

    var now: Date { current.withLock { $0 } }

    func advance(seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    private static func seconds(_ text: String) -> TimeInterval {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.date(from: text)?.timeIntervalSince1970 ?? 0
    }
}
