import Foundation
import Synchronization
@preconcurrency import Glibc

/// The built `nowflow` running in the background, its stderr read as it comes, so that a test can act (send a
/// signal) at a given point of a run. Killed after 60 seconds, so that a test cannot hang.
final class RunningTool: Sendable {
    private let process: Process
    private let output: Pipe
    private let errors: CollectedText
    /// Whether the test closed its end of stdout (``closeOutput()``).
    private let outputClosed = Mutex(false)

    /// Starts `nowflow arguments...` in `directory` (HOME there, as ``ToolInvocation`` does).
    init(_ arguments: [String], in directory: URL) throws {
        let process = Process()
        process.executableURL = try BuiltProducts.executable(named: "nowflow")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ["HOME": directory.path, "PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
        let output = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = output
        process.standardError = errorPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        self.output = output
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { if process.isRunning { kill(pid, SIGKILL) } }
        errors = CollectedText(errorPipe)
    }

    /// Waits until stderr contains `text`, up to the minute after which the process is killed; returns whether it
    /// did.
    func waitForError(containing text: String) -> Bool { errors.waitFor(text) }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Closes the reading end of the process's stdout unread, as `| head -1` does once it has its line: the
    /// process's next write to stdout fails (EPIPE, or SIGPIPE when not ignored).
    func closeOutput() {
        outputClosed.withLock { closed in
            guard !closed else { return }
            closed = true
            try? output.fileHandleForReading.close()
        }
    }

    /// Waits for the process to exit; returns its status, stdout (empty once closed) and stderr.
    func finish() -> ToolInvocation {
        let closed = outputClosed.withLock { $0 }
        let stdout = closed ? Data() : output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ToolInvocation(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: errors.whole())
    }
}
