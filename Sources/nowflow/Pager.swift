import Foundation

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shows a REPL answer longer than the terminal a page at a time: through `$PAGER` when it is set and not empty
/// (run as `sh -c "$PAGER"`, the text on its standard input), else with a built-in pager (Space: the next page,
/// Enter: the next line, q or Ctrl-C: skip the rest). Text that fits, and output that is not a terminal, are
/// printed as they are.
enum Pager {
    static func show(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let rows = TerminalSize.rows()
        guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1, lines.count >= rows else {
            print(text)
            return
        }
        fflush(nil)
        if let pager = ProcessInfo.processInfo.environment["PAGER"], !pager.trimmingCharacters(in: .whitespaces).isEmpty,
            external(pager, text + "\n")
        {
            return
        }
        builtIn(lines, rows: rows)
    }

    /// Runs `command` with `text` on its standard input; false when it cannot be started.
    private static func external(_ command: String, _ text: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let input = Pipe()
        process.standardInput = input
        OutputStreams.ignoreBrokenPipe()
        do {
            try process.run()
        } catch {
            return false
        }
        // Written from another thread: a pager quit early stops reading, and the write then fails (SIGPIPE is
        // ignored) rather than blocking.
        let writer = input.fileHandleForWriting
        DispatchQueue.global().async {
            try? writer.write(contentsOf: Data(text.utf8))
            try? writer.close()
        }
        process.waitUntilExit()
        return true
    }

    /// A screenful at a time, asking between pages with one key read without echo.
    private static func builtIn(_ lines: [String], rows: Int) {
        var shown = min(rows - 1, lines.count)
        print(lines[..<shown].joined(separator: "\n"))
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else {
            print(lines[shown...].joined(separator: "\n"))
            return
        }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        defer { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
        while shown < lines.count {
            fflush(nil)
            let more = "-- more: line \(shown) of \(lines.count) (Space: next page, Enter: next line, q: skip the rest) --"
            FileHandle.standardOutput.write(Data(more.utf8))
            var key: UInt8 = 0
            let count = read(STDIN_FILENO, &key, 1)
            FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8))
            guard count == 1, ![UInt8(ascii: "q"), UInt8(ascii: "Q"), 3, 4].contains(key) else { return }
            let next = key == UInt8(ascii: " ") ? min(shown + rows - 1, lines.count) : shown + 1
            print(lines[shown..<next].joined(separator: "\n"))
            shown = next
        }
    }
}
