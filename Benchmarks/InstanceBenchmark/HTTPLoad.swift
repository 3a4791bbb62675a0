import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Measures requests per second against a URL over HTTP: with `wrk` when it is installed, else with
/// concurrent URLSession loops.
enum HTTPLoad {
    /// Requests per second for GETs of `paths` (chosen at random per request) on `base`.
    static func measure(
        base: String, paths: [String], authorization: String, connections: Int, seconds: Int
    ) async throws -> (requestsPerSecond: Double, tool: String) {
        if let wrk = wrkPath() {
            let threads = min(2, connections)
            let rate = try runWrk(
                wrk, arguments: ["-t\(threads)", "-c\(connections)", "-d\(seconds)s"], base: base, paths: paths,
                authorization: authorization)
            return (rate, "wrk -t\(threads) -c\(connections) -d\(seconds)s")
        }
        return (try await runURLSession(base: base, paths: paths, authorization: authorization,
                                        connections: connections, seconds: seconds),
                "URLSession, \(connections) concurrent loops, \(seconds)s")
    }

    private static func wrkPath() -> String? {
        ["/usr/bin/wrk", "/usr/local/bin/wrk"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func runWrk(
        _ wrk: String, arguments: [String], base: String, paths: [String], authorization: String
    ) throws -> Double {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("instance-bench-\(UUID()).lua")
        let list = paths.map { "\"\($0)\"" }.joined(separator: ",\n")
        try """
            local paths = {\(list)}
            wrk.headers["Authorization"] = "\(authorization)"
            wrk.headers["Accept"] = "application/json"
            request = function() return wrk.format("GET", paths[math.random(#paths)]) end
            """.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        process.arguments = arguments + ["-s", script.path, base]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Requests/sec:") }),
            let rate = Double(line.dropFirst("Requests/sec:".count).trimmingCharacters(in: .whitespaces))
        else { throw BenchmarkFailure(description: "wrk printed no rate:\n\(text)") }
        if text.contains("Non-2xx") { throw BenchmarkFailure(description: "wrk saw errors:\n\(text)") }
        return rate
    }

    private static func runURLSession(
        base: String, paths: [String], authorization: String, connections: Int, seconds: Int
    ) async throws -> Double {
        let deadline = ContinuousClock.now + .seconds(seconds)
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<connections {
                group.addTask {
                    let session = URLSession(configuration: .ephemeral)
                    defer { session.invalidateAndCancel() }
                    var done = 0
                    while ContinuousClock.now < deadline {
                        guard let path = paths.randomElement(), let url = URL(string: base + path) else { break }
                        var request = URLRequest(url: url)
                        request.setValue(authorization, forHTTPHeaderField: "Authorization")
                        let (_, response) = try await session.data(for: request)
                        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
                            throw BenchmarkFailure(description: "GET \(path) did not answer 200")
                        }
                        done += 1
                    }
                    return done
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(total) / Double(seconds)
    }
}

/// A benchmark step that could not run.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
}
