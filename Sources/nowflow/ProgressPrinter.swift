import Foundation
import NowFlow
import Synchronization

/// Prints a run's events: on stderr a line per step, the writes a dry run does not send, with `verbose` every
/// request sent with its status and time, and, on a terminal, a progress line while a query pages; on stdout each
/// step's result under its line (``StepOutcome/shown``).
final class ProgressPrinter: Sendable {
    private let terminal: Bool
    private let color: Bool
    private let verbose: Bool
    /// Whether a progress line is on screen (to be cleared before the next line).
    private let showingProgress = Mutex(false)

    init(terminal: Bool, color: Bool, verbose: Bool = false) {
        self.terminal = terminal
        self.color = color
        self.verbose = verbose
    }

    func handle(_ event: RunEvent) {
        switch event {
        case .stepStarted:
            break
        case .paging(let label, let fetched, let expected):
            guard terminal else { return }
            let total = expected.map { " of \($0)" } ?? ""
            let bar =
                expected.map { expected in
                    let filled = expected > 0 ? min(20, fetched * 20 / expected) : 20
                    return " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled)
                        + "]"
                } ?? ""
            showingProgress.withLock { $0 = true }
            Self.write("\r\u{1B}[2K\(label): \(fetched)\(total) records\(bar)")
        case .stepFinished(let outcome):
            clearProgress()
            printError(outcome.progressLine(color: color))
            // The step's result (a table of records, a value) is a result: it goes to stdout, under the line.
            if !outcome.shown.isEmpty { print(outcome.shown.joined(separator: "\n")) }
        case .plannedWrite(let write):
            clearProgress()
            printError("     would send \(write.description)")
        case .request(let request):
            guard verbose else { return }
            clearProgress()
            printError("     \(request.description)")
        }
    }

    /// Clears the progress line, if one is on screen.
    func clearProgress() {
        let showing = showingProgress.withLock { showing in
            defer { showing = false }
            return showing
        }
        if showing { Self.write("\r\u{1B}[2K") }
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
