import Foundation
@preconcurrency import Glibc

/// Runs the built `nowflow` binary (next to the test bundle) and captures its exit status and output.
struct ToolInvocation {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Runs `nowflow arguments...` in `directory` with `environment` added to a minimal environment
    /// (HOME points at `directory` so that nothing under the real home is touched; a low
    /// `NOWFLOW_PASSWORD_ITERATIONS`, so that the run that gives a new embedded database's admin its password, or a
    /// `serve`, does not spend a second hashing it). The
    /// process is killed after five minutes, so that a test cannot hang.
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:], stdin: String? = nil
    ) throws -> ToolInvocation {
        let process = Process()
        process.executableURL = try BuiltProducts.executable(named: "nowflow")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = [
            "HOME": directory.path, "PATH": "/usr/bin:/bin", "NO_COLOR": "1", "NOWFLOW_PASSWORD_ITERATIONS": "1000",
        ].merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let input = Pipe()
        process.standardInput = input
        try process.run()
        let exited = DispatchSemaphore(value: 0)
        let pid = process.processIdentifier
        DispatchQueue.global().async {
            // A guard against a hang, not a measure of speed: a loaded machine may take minutes.
            if exited.wait(timeout: .now() + 300) == .timedOut { kill(pid, SIGKILL) }
        }
        defer { exited.signal() }
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes concurrently so that a full pipe never blocks the child.
        let errorData = ReadData()
        let reader = Thread {
            errorData.data = errors.fileHandleForReading.readDataToEndOfFile()
            errorData.done.signal()
        }
        reader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errorData.done.wait()
        return ToolInvocation(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData.data, as: UTF8.self))
    }

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nowflow-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Data read on another thread; `done` is signalled once `data` is written and never written again.
    private final class ReadData: @unchecked Sendable {
        var data = Data()
        let done = DispatchSemaphore(value: 0)
    }
}
