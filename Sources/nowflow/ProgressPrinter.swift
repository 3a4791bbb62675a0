import Foundation
import NowData
import NowFlow
import Synchronization

/// Prints a run's events: on stderr a line per step, with `verbose` every request sent with its status and time,
/// and the progress of a long query's pages or a long `foreach` (done of total, rate and time left); on stdout each
/// step's result under its line (``StepOutcome/shown``). On a terminal (`bar`) the progress is one line redrawn in
/// place with a bar; otherwise (`NO_COLOR`, a pipe, a file) a plain line every few seconds once the work has taken
/// that long. `quiet` prints the lines of the steps that failed and nothing else.
final class ProgressPrinter: Sendable {
    /// How long work runs before its first plain progress line, and the time between two of them.
    static let plainInterval: Duration = .seconds(3)

    private let color: Bool
    private let bar: Bool
    private let verbose: Bool
    private let quiet: Bool
    private struct State {
        /// Whether a progress bar is on screen (to be cleared before the next line).
        var showing = false
        /// When each step's progress began.
        var started: [String: ContinuousClock.Instant] = [:]
        /// When the last plain progress line was printed.
        var lastPlain: ContinuousClock.Instant?
        /// What paces the run, whose pace the progress shows.
        var pacer: RequestPacer?
    }
    private let state = Mutex(State())

    /// A printer: `color` for the steps' marks, `bar` for a progress bar redrawn in place (a terminal that allows
    /// it) rather than plain lines, `verbose` for a line per request, `quiet` for the failed steps' lines only.
    init(color: Bool, bar: Bool, verbose: Bool = false, quiet: Bool = false) {
        self.color = color
        self.bar = bar
        self.verbose = verbose
        self.quiet = quiet
    }

    /// Shows `pacer`'s pace in the progress from now on.
    func follow(_ pacer: RequestPacer) {
        state.withLock { $0.pacer = pacer }
    }

    func handle(_ event: RunEvent) {
        switch event {
        case .stepStarted:
            break
        case .paging(let label, let fetched, let expected):
            if !quiet { progress(label, done: fetched, total: expected, unit: "records") }
        case .iterating(let label, let done, let total):
            if !quiet { progress(label, done: done, total: total, unit: "items") }
        case .stepFinished(let outcome):
            guard !quiet || outcome.status == .failed || outcome.status == .assertionFailed else { return }
            clearProgress()
            _ = state.withLock { $0.started.removeValue(forKey: outcome.label) }
            printError(outcome.progressLine(color: color))
            // The step's result (a table of records, a value) is a result: it goes to stdout, under the line.
            if !outcome.shown.isEmpty { printResult(outcome.shown.joined(separator: "\n")) }
        case .request(let request):
            guard verbose else { return }
            clearProgress()
            printError("     \(request.description)")
        }
    }

    /// `step 3 'close' (foreach): 120 of 1000 items [##..................] 38/s, 23 s left`, or without the bar
    /// `step 3 'close' (foreach): 120 of 1000 items, 38/s, 23 s left`.
    private func progress(_ label: String, done: Int, total: Int?, unit: String) {
        let now = ContinuousClock.now
        let (elapsed, plainDue, pace) = state.withLock { state -> (Duration, Bool, String?) in
            let start = state.started[label] ?? now
            state.started[label] = start
            let elapsed = now - start
            let due = elapsed >= Self.plainInterval && state.lastPlain.map { now - $0 >= Self.plainInterval } ?? true
            if due, !bar { state.lastPlain = now }
            return (elapsed, due, state.pacer?.pace)
        }
        let text =
            Self.text(label, done: done, total: total, unit: unit, elapsed: elapsed, bar: bar)
            + (pace.map { " (paced: \($0))" } ?? "")
        if bar {
            state.withLock { $0.showing = true }
            Self.write("\r\u{1B}[2K" + text)
        } else if plainDue {
            printError(text)
        }
    }

    /// The progress text: done of total, a bar when asked, the rate and the time left once they can be told.
    static func text(_ label: String, done: Int, total: Int?, unit: String, elapsed: Duration, bar: Bool) -> String {
        var text = "\(label): \(done)\(total.map { " of \($0)" } ?? "") \(unit)"
        var separator = ", "
        if bar, let total {
            let filled = total > 0 ? min(20, done * 20 / total) : 20
            text += " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled) + "]"
            separator = " "
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard seconds >= 0.5, done > 0 else { return text }
        let rate = Double(done) / seconds
        text += separator + (rate >= 10 ? "\(Int(rate.rounded()))/s" : "\(String(format: "%.1f", rate))/s")
        if let total, total > done {
            let left = Int((Double(total - done) / rate).rounded(.up))
            text += left >= 120 ? ", \(left / 60) min left" : ", \(left) s left"
        }
        return text
    }

    /// Clears the progress bar, if one is on screen.
    func clearProgress() {
        let showing = state.withLock { state in
            defer { state.showing = false }
            return state.showing
        }
        if showing { Self.write("\r\u{1B}[2K") }
    }

    private static func write(_ text: String) {
        OutputStreams.write(text, to: .error)
    }
}
