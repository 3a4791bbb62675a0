import Foundation
@preconcurrency import Glibc

/// An HTTP proxy on 127.0.0.1 that tunnels `CONNECT host:port` requests, as the proxy `HTTPS_PROXY` names does
/// for HTTPS: it records each tunnel's target and copies bytes both ways until either side closes. With
/// `refusing`, it answers every `CONNECT` with 403 instead. `localhost` is reached at 127.0.0.1; the proxy never
/// sees inside a tunnel (TLS runs through it end to end).
final class ConnectProxy: @unchecked Sendable {
    /// The port it listens on.
    let port: UInt16
    private let listener: Int32
    private let refusing: Bool
    private let lock = NSLock()
    private var targets: [String] = []

    /// A proxy listening on a free port of 127.0.0.1 until ``stop()``.
    init(refusing: Bool = false) throws {
        self.refusing = refusing
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ProxyError("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw ProxyError("bind/listen: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// The `host:port` of every `CONNECT` received so far, in order.
    var connectTargets: [String] {
        lock.withLock { targets }
    }

    /// Stops listening (the accepting thread closes the socket); tunnels still open end when their client closes.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            Thread { [self] in serve(client) }.start()
        }
    }

    /// Reads the request head, records its target, then answers and tunnels (or refuses).
    private func serve(_ client: Int32) {
        defer { close(client) }
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.ends(with: Array("\r\n\r\n".utf8)), head.count < 8192 {
            guard read(client, &byte, 1) == 1 else { return }
            head.append(byte)
        }
        let requestLine = (String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n").first ?? "")
            .split(separator: " ")
        guard requestLine.count == 3, requestLine[0] == "CONNECT" else {
            write(client, "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
            return
        }
        let target = String(requestLine[1])
        lock.withLock { targets.append(target) }
        guard !refusing, let colon = target.lastIndex(of: ":"), let port = UInt16(target[target.index(after: colon)...])
        else {
            write(client, "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
            return
        }
        let host = String(target[..<colon])
        guard let upstream = Self.connect(to: host == "localhost" ? "127.0.0.1" : host, port: port) else {
            write(client, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
            return
        }
        defer { close(upstream) }
        write(client, "HTTP/1.1 200 Connection established\r\n\r\n")
        Self.pump(client, upstream)
    }

    /// Copies bytes between the two sockets until one side closes or fails (a write never raises SIGPIPE).
    private static func pump(_ first: Int32, _ second: Int32) {
        var descriptors = [
            pollfd(fd: first, events: Int16(POLLIN), revents: 0), pollfd(fd: second, events: Int16(POLLIN), revents: 0),
        ]
        var buffer = [UInt8](repeating: 0, count: 16384)
        while poll(&descriptors, 2, 30_000) > 0 {
            for (index, descriptor) in descriptors.enumerated() where descriptor.revents != 0 {
                let count = read(descriptor.fd, &buffer, buffer.count)
                guard count > 0 else { return }
                let other = index == 0 ? second : first
                var sent = 0
                while sent < count {
                    let written = buffer[sent..<count].withUnsafeBytes {
                        send(other, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                    }
                    guard written > 0 else { return }
                    sent += written
                }
            }
            for index in descriptors.indices { descriptors[index].revents = 0 }
        }
    }

    private static func connect(to host: String, port: UInt16) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    private func write(_ descriptor: Int32, _ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Why the proxy could not start.
    struct ProxyError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
