import Foundation

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One request to a listener on 127.0.0.1 written byte for byte, for what URLSession would rewrite (it sends a
/// malformed `%zz` in a path as `%25zz`).
public enum RawHTTPClient {
    /// The answer: status and body.
    public struct Reply: Sendable {
        /// The HTTP status code.
        public let status: Int
        /// The body as UTF-8 text.
        public let body: String
        /// The status line and the header lines, as received (CRLF-separated).
        public let head: String

        /// The value of the first header called `name` (any letter case), nil when there is none.
        public func header(_ name: String) -> String? {
            head.components(separatedBy: "\r\n").dropFirst().lazy.compactMap { line -> String? in
                guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name.lowercased() else {
                    return nil
                }
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }.first
        }
    }

    /// Sends `method target HTTP/1.1` with `headers` (and `Connection: close`) to 127.0.0.1:`port`, and reads the
    /// answer until the listener closes the connection.
    public static func send(_ method: String, _ target: String, headers: [String: String] = [:], port: UInt16)
        throws -> Reply
    {
        let fields = headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\r\n" }.joined()
        return try exchange(
            Array("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(fields)Connection: close\r\n\r\n".utf8),
            port: port)
    }

    /// Writes `request` as it is (request line, headers and body, framing included) to 127.0.0.1:`port` and reads
    /// the answer until the listener closes the connection; throws `URLError(.badServerResponse)` when the
    /// connection closes without one.
    /// ``exchange(_:port:)`` on a thread of its own, so that a test waiting for a slow answer holds none of Swift
    /// concurrency's threads (two on a two-core machine) while it waits.
    public static func exchangeOnItsOwnThread(_ request: [UInt8], port: UInt16) async throws -> Reply {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try exchange(request, port: port) }) }.start()
        }
    }

    public static func exchange(_ request: [UInt8], port: UInt16) throws -> Reply {
        let connection = try Connection(port: port)
        connection.send(request)
        let text = String(decoding: connection.readToEnd(), as: UTF8.self)
        guard let headerEnd = text.range(of: "\r\n\r\n"),
            let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap({ Int($0) })
        else { throw URLError(.badServerResponse) }
        return Reply(
            status: status, body: String(text[headerEnd.upperBound...]), head: String(text[..<headerEnd.lowerBound]))
    }

    /// One open TCP connection to 127.0.0.1, closed when released: for a client that sends a request slowly, or
    /// holds a connection open without sending anything.
    ///
    /// Unchecked `Sendable`: one thread may write while another reads, as a socket allows.
    public final class Connection: @unchecked Sendable {
        private let descriptor: Int32

        /// Connects to 127.0.0.1:`port`.
        public init(port: UInt16) throws {
            #if canImport(Glibc)
                descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                descriptor = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard descriptor >= 0 else { throw URLError(.cannotConnectToHost) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                close(descriptor)
                throw URLError(.cannotConnectToHost)
            }
            // A listener that neither answers nor closes fails the test after five minutes instead of hanging it; a
            // minute was too short for a 10,000-condition query on a loaded two-core machine.
            var timeout = timeval(tv_sec: 300, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(descriptor) }

        /// Writes `bytes`, stopping early when the listener has closed its side; gives whether all were written.
        @discardableResult public func send(_ bytes: [UInt8]) -> Bool {
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes {
                    write(descriptor, $0.baseAddress! + written, $0.count - written)
                }
                // A listener that answers before reading everything (a 400, a 413) may close its side.
                guard count > 0 else { return false }
                written += count
            }
            return true
        }

        /// Reads what has arrived, waiting for at least one byte; empty when the listener closed the connection.
        public func readSome() -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            return count > 0 ? Array(buffer[..<count]) : []
        }

        /// Reads until the listener closes the connection.
        public func readToEnd() -> [UInt8] {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                received += buffer[..<count]
            }
            return received
        }
    }
}
