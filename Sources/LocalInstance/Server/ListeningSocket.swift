#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens the TCP socket an ``HTTPListener`` hands to libmicrohttpd: bound to one IPv4 address and listening.
enum ListeningSocket {
    /// The descriptor of a socket listening on `host:port` (port 0: a free port).
    static func open(host: String, port: UInt16) throws(HTTPListenerError) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        let literal = host == "localhost" ? "127.0.0.1" : host
        guard inet_pton(AF_INET, literal, &address.sin_addr) == 1 else {
            throw HTTPListenerError(host: host, port: port, reason: "not an IPv4 address (such as 127.0.0.1)")
        }
        let descriptor = tcpSocket()
        guard descriptor >= 0 else { throw systemError(host: host, port: port) }
        var reuse: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, SOMAXCONN) == 0 else {
            let error = systemError(host: host, port: port)
            close(descriptor)
            throw error
        }
        return descriptor
    }

    /// A new TCP socket, closed on exec (Darwin has no `SOCK_CLOEXEC`: the flag is set right after); -1 on failure.
    private static func tcpSocket() -> Int32 {
        #if canImport(Glibc)
            return socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
            if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            return descriptor
        #endif
    }

    private static func systemError(host: String, port: UInt16) -> HTTPListenerError {
        HTTPListenerError(host: host, port: port, reason: String(cString: strerror(errno)))
    }
}
