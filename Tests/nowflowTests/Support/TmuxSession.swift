import Foundation

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
        try run(["new-session", "-d", "-s", "repl", "-x", String(width), "-y", String(height), command])
    }

    deinit {
        _ = try? run(["kill-server"])
    }

    /// Sends keys (`Tab`, `Left`, `Up`, `Enter`, `C-d`, or literal text with `literal: true`).
    func send(_ keys: String..., literal: Bool = false) throws {
        try run(["send-keys", "-t", "repl"] + (literal ? ["-l"] : []) + keys)
    }

    /// The screen's text, the scrolled-off lines included.
    func screen() throws -> String {
        try run(["capture-pane", "-p", "-t", "repl", "-S", "-200"])
    }

    /// Waits until the screen holds `text`; fails after `timeout` with the screen in the message.
    @discardableResult
    func waitFor(_ text: String, timeout: Duration = .seconds(20)) throws -> String {
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

    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tmux)
        process.arguments = ["-L", socket] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

struct TmuxError: Error, CustomStringConvertible {
    let description: String
}
