import Foundation

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A program running in a real terminal: a detached tmux session on a private server, driven with `send-keys` and
/// read with `capture-pane`.
final class TmuxSession {
    /// The tmux executable, if installed.
    static let executable: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    private let socket = "nowflow-test-\(UUID().uuidString)"
    private let tmux: String

    /// Starts `command` (a shell command line) in a `width`×`height` terminal.
    init(command: String, width: Int = 120, height: Int = 40) throws {
        guard let tmux = Self.executable else { throw TmuxError(description: "tmux is not installed") }
        self.tmux = tmux
        // The server this starts keeps its standard output: give it none, so that no pipe stays open.
        try run(["new-session", "-d", "-s", "repl", "-x", String(width), "-y", String(height), command], capture: false)
    }

    deinit {
        _ = try? run(["kill-server"], capture: false)
    }

    /// Sends keys (`Tab`, `Left`, `Up`, `Enter`, `C-d`, or literal text with `literal: true`).
    func send(_ keys: String..., literal: Bool = false) throws {
        try run(["send-keys", "-t", "repl"] + (literal ? ["-l"] : []) + keys, capture: false)
    }

    /// The screen's text, the scrolled-off lines included.
    func screen() throws -> String {
        try run(["capture-pane", "-p", "-t", "repl", "-S", "-200"])
    }

    /// Waits until the screen holds `text`; fails after `timeout` with the screen in the message.
    @discardableResult
    func waitFor(_ text: String, timeout: Duration = .seconds(60)) throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            let screen = try screen()
            if screen.contains(text) { return screen }
            guard ContinuousClock.now < deadline else {
                throw TmuxError(description: "the terminal never showed '\(text)'; it shows:\n\(screen)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Runs a tmux command through the shell (`popen`, not `Process`: the server that `new-session` starts lives
    /// on, and Foundation's `Process` can wait for it); its output when `capture`.
    @discardableResult
    private func run(_ arguments: [String], capture: Bool = true) throws -> String {
        let line = ([tmux, "-L", socket] + arguments).map(Self.quoted).joined(separator: " ")
            + (capture ? " 2>/dev/null" : " >/dev/null 2>&1")
        guard let stream = popen(line, "r") else { throw TmuxError(description: "cannot run \(line)") }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, stream)
            if count == 0 { break }
            output += buffer[0..<count]
        }
        let status = pclose(stream)
        guard status == 0 || arguments.first == "kill-server" else {
            throw TmuxError(description: "\(line) failed with status \(status)")
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The word in single quotes for the shell.
    private static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
