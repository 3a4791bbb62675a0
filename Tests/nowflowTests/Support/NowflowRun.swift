import Foundation
@preconcurrency import Glibc

/// Runs the built `nowflow` to its end.
enum NowflowRun {
    /// Runs `nowflow` with `arguments` (killed after 60 seconds, so that a test cannot hang); returns its exit
    /// status and what it wrote to standard error.
    static func run(_ arguments: [String]) async throws -> (status: Int32, standardError: String) {
        let process = Process()
        process.executableURL = try BuiltProducts.executable(named: "nowflow")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let exited = DispatchSemaphore(value: 0)
        let pid = process.processIdentifier
        DispatchQueue.global().async {
            if exited.wait(timeout: .now() + 60) == .timedOut { kill(pid, SIGKILL) }
        }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                exited.signal()
                continuation.resume(returning: (process.terminationStatus, text))
            }
        }
    }
}
