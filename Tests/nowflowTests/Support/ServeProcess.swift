import Foundation
@preconcurrency import Glibc

/// The built `nowflow serve` running in a child process on a free port.
final class ServeProcess: Sendable {
    struct StartError: Error, CustomStringConvertible {
        let description: String
    }

    /// The port it printed first in its `listening on` line.
    let port: UInt16
    /// The HTTPS port it printed in its `listening on` line, if any.
    let tlsPort: UInt16?
    /// The line it printed when it started listening.
    let listeningLine: String
    /// What the server wrote to standard output so far, read as it comes.
    private let output: CollectedText
    private let process: Process
    /// What the server wrote to standard error so far, read as it comes.
    private let errors: CollectedText

    /// Starts `nowflow serve --port 0` with `arguments` and waits for its `listening on` line; `environment` is
    /// added to this process's (with a low `NOWFLOW_PASSWORD_ITERATIONS` unless it names one), and `umask` (octal
    /// text) is the server's file creation mask when given.
    init(_ arguments: [String], environment: [String: String] = [:], umask: String? = nil) async throws {
        let process = Process()
        let executable = try BuiltProducts.executable(named: "nowflow")
        if let umask {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "umask \(umask) && exec \"$0\" \"$@\"", executable.path, "serve", "--port", "0"]
                + arguments
        } else {
            process.executableURL = executable
            process.arguments = ["serve", "--port", "0"] + arguments
        }
        process.environment = ProcessInfo.processInfo.environment
            .merging(["NOWFLOW_PASSWORD_ITERATIONS": "1000"]) { $1 }.merging(environment) { $1 }
        let output = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = output
        process.standardError = errorPipe
        try process.run()
        let opening = await Self.firstLine(of: output.fileHandleForReading, orTerminate: process)
        let line = opening?.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
        // `listening on http://127.0.0.1:1234`, `... on https://127.0.0.1:1234` or `... on http://... and https://...`
        let ports = (line ?? "").split(separator: " ").compactMap { word -> (tls: Bool, port: UInt16)? in
            guard word.hasPrefix("http://") || word.hasPrefix("https://"),
                let port = UInt16(word.split(separator: ":").last ?? "")
            else { return nil }
            return (word.hasPrefix("https://"), port)
        }
        guard let line, let port = ports.first?.port else {
            process.terminate()
            process.waitUntilExit()
            let errors = String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw StartError(description: "nowflow serve did not start: \(line ?? "no output"); stderr: \(errors)")
        }
        self.process = process
        self.port = port
        tlsPort = ports.first { $0.tls }?.port
        listeningLine = line
        self.output = CollectedText(output, after: opening ?? "")
        errors = CollectedText(errorPipe)
    }

    /// What the server wrote to standard output, up to and with the first line containing `marker` (waiting for it
    /// for a minute at most); nil when no line does.
    func output(through marker: String) -> String? { output.lines(through: marker) }

    /// Waits until the server's standard error contains `text`, for a minute at most (a guard against a hang);
    /// returns whether it did.
    func waitForError(containing text: String) -> Bool { errors.waitFor(text) }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// The peak resident set of the server so far (`VmHWM` of `/proc/<pid>/status`), in bytes.
    func peakMemory() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        guard let kilobytes else { throw StartError(description: "no VmHWM in the status of the server") }
        return kilobytes * 1024
    }

    /// Sends `signal` (SIGTERM, SIGKILL) to the server.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the server to exit (killing it after 60 seconds, so that a test cannot hang, and so that a server
    /// still waiting out a minute of `--latency` is caught); returns its status
    /// and what it wrote to standard error.
    func waitForExit() async -> (status: Int32, reason: Process.TerminationReason, standardError: String) {
        let exited = DispatchSemaphore(value: 0)
        let pid = process.processIdentifier
        DispatchQueue.global().async {
            if exited.wait(timeout: .now() + 60) == .timedOut { kill(pid, SIGKILL) }
        }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                self.process.waitUntilExit()
                exited.signal()
                let errors = self.errors.whole()
                continuation.resume(returning: (self.process.terminationStatus, self.process.terminationReason, errors))
            }
        }
    }

    /// Reads up to the first newline (and what came with it) on a background thread; terminates the process after five
    /// minutes without one.
    private static func firstLine(of handle: FileHandle, orTerminate process: Process) async -> String? {
        await withCheckedContinuation { continuation in
            let lineRead = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                if lineRead.wait(timeout: .now() + 300) == .timedOut { process.terminate() }
            }
            DispatchQueue.global().async {
                var bytes = Data()
                while !bytes.contains(0x0A) {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    bytes.append(chunk)
                }
                lineRead.signal()
                continuation.resume(returning: bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self))
            }
        }
    }
}
