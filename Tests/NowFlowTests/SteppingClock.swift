import Synchronization

/// A clock that stands still between readings and moves one `step` at each: the instance reads the clock of its
/// transaction quota every 100 SQLite instructions, so on this clock a quota is a count of the work a request does,
/// the same on a loaded machine as on an idle one. The readings of every request add up: give it to an instance
/// answering one request at a time.
final class SteppingClock: Clock {
    /// A point on the clock: the steps taken so far.
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    /// How far each reading moves the clock.
    let step: Duration
    private let readings = Atomic<Int>(0)

    init(step: Duration) { self.step = step }

    var now: Instant { Instant(offset: step * readings.add(1, ordering: .relaxed).newValue) }
    var minimumResolution: Duration { step }

    /// Moves the clock to `deadline` at once: nothing waits on this clock in real time.
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let steps = Int(deadline.offset / step)
        var current = readings.load(ordering: .relaxed)
        while current < steps {
            let (exchanged, original) = readings.compareExchange(
                expected: current, desired: steps, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
    }
}
