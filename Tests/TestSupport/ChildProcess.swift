import Foundation

/// A program the tests run and wait for (a Python client, curl, openssl), with what it printed. Both pipes are read
/// at once, so a child that fills one while the other is being read cannot hang the test.
public enum ChildProcess {
    /// Runs `executable` with `arguments` in `environment` (the tests' own when nil) and waits for it to end; its
    /// status, standard output and standard error.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stderrRead = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var stderr = Data()
        DispatchQueue.global().async {
            stderr = errors.fileHandleForReading.readDataToEndOfFile()
            stderrRead.signal()
        }
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        stderrRead.wait()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self)
        )
    }
}
