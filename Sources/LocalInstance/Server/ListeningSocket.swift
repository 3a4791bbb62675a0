@preconcurrency import Glibc

/// Opens the TCP socket an ``HTTPListener`` hands to libmicrohttpd: bound to one IPv4 address and listening.
enum ListeningSocket {
    /// A listening socket on `host:port` (port 0: a free port), with the port it is bound to.
    static func open(host: String, port: UInt16) throws(HTTPListenerError) -> (descriptor: Int32, port: UInt16) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        let literal = host == "localhost" ? "127.0.0.1" : host
        guard inet_pton(AF_INET, literal, &address.sin_addr) == 1 else {
            throw HTTPListenerError(host: host, port: port, reason: "not an IPv4 address (such as 127.0.0.1)")
        }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
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
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let error = systemError(host: host, port: port)
            close(descriptor)
            throw error
        }
        return (descriptor, UInt16(bigEndian: actual.sin_port))
    }

    private static func systemError(host: String, port: UInt16) -> HTTPListenerError {
        HTTPListenerError(host: host, port: port, reason: String(cString: strerror(errno)))
    }
}
