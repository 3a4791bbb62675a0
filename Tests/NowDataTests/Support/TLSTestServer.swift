import Foundation
@preconcurrency import Glibc

/// `openssl s_server` on a port of 127.0.0.1 with a self-signed certificate made for the test: a TLS peer that no
/// system authority vouches for.
final class TLSTestServer {
    let port: Int
    private let process: Process
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificate = directory.appendingPathComponent("certificate.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        try Self.run([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
            "-subj", "/CN=127.0.0.1",
        ])
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["s_server", "-accept", "127.0.0.1:0", "-cert", certificate, "-key", key, "-www"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        port = try Self.acceptedPort(output.fileHandleForReading)
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        try? FileManager.default.removeItem(at: directory)
    }

    /// The port of s_server's `ACCEPT 127.0.0.1:PORT` line.
    private static func acceptedPort(_ output: FileHandle) throws -> Int {
        var text = ""
        while !text.contains("\n") || !text.contains("ACCEPT") {
            let chunk = output.availableData
            guard !chunk.isEmpty else { throw Failure(message: "openssl s_server stopped: \(text)") }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }),
            let port = line.split(separator: ":").last.flatMap({ Int($0) })
        else { throw Failure(message: "no port in openssl's output: \(text)") }
        return port
    }

    private static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(message: "openssl \(arguments[0]) failed") }
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
