internal import CLazyLibraries
internal import CMicroHTTPD
import Foundation
#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import NowData

/// An HTTP/1.1 server on libmicrohttpd that hands every request to a handler, such as the local instance's; over
/// TLS (libmicrohttpd's, on GnuTLS) when given a ``TLSIdentity``.
///
/// The handler gets the request's path as the client sent it, percent-encoded (as ``NowHTTPRequest/path`` is on
/// the client's side), and its query items and headers decoded.
///
/// Each connection has its own thread, so latency injected into one request does not hold up the others and
/// keep-alive clients are served concurrently. The handler's reply is sent in one piece after its delay (a reply
/// whose ``NowData/NowHTTPResponse/bodyFile`` is set is sent from that file, as libmicrohttpd reads it), or the
/// connection is closed without an answer.
///
/// ```swift
/// let listener = try HTTPListener(port: 0) { request in instance.reply(to: request) }
/// print("listening on http://127.0.0.1:\(listener.port)")
/// listener.stop()
/// ```
public final class HTTPListener: Sendable {
    /// The largest request body accepted by default (10 MB); a larger one is answered 413.
    public static let defaultBodyLimit = 10 * 1024 * 1024

    /// The memory for one connection's request line and headers, in bytes: room for a URL of about 190 KB (a
    /// 32,000-item `IN` list), yet small, as libmicrohttpd 0.9.75 clears all of it before each keep-alive request.
    static let connectionMemory = 256 * 1024

    /// How long a connection may stay silent (no byte of a request arriving, or idle between keep-alive requests)
    /// before the listener closes it, by default: 30 seconds.
    public static let defaultConnectionTimeout: Duration = .seconds(30)

    /// How long a request's headers may take to arrive, by default: 30 seconds from the connection opening (or from
    /// the previous answer on a kept-alive connection), however often bytes of them arrive. Its body then has as
    /// long again to start and must arrive at 1 KB/s on average.
    public static let defaultHeaderTimeout: Duration = .seconds(30)

    /// The header in which the handler gets the SHA-256 fingerprint (lowercase hex) of a client certificate that the
    /// listener's client certificate authorities verified; a client's own header of that name is removed.
    public static let clientCertificateHeader = "X-Nowflow-Client-Certificate-SHA256"

    /// The header in which the handler learns the scheme a request came by (`https` on a TLS listener, else `http`),
    /// for the absolute links of its answer; a client's own header of that name is removed.
    public static let schemeHeader = "X-Nowflow-Scheme"

    /// How many connections one client address may hold open at once, by default; a connection beyond it is
    /// closed at once.
    public static let defaultConnectionsPerClient = 64

    /// The address the listener is bound to.
    public let host: String
    /// The port the listener is bound to (the one picked when asked for port 0).
    public let port: UInt16

    private let context: ListenerContext
    private let daemon: DaemonHandle

    /// Starts listening on `host:port` (port 0: a free port) and answers every request with `handler`.
    ///
    /// - parameter host: an IPv4 address (or `localhost`); `127.0.0.1` keeps the server on this machine.
    /// - parameter bodyLimit: the largest request body accepted, in bytes; a larger one is answered 413.
    /// - parameter connectionTimeout: how long a connection may stay silent before it is closed (whole seconds,
    ///   at least one).
    /// - parameter headerTimeout: how long a request's headers may take to arrive, however slowly they trickle in
    ///   (also the grace its body has before the minimum body rate counts); past it the connection is closed.
    /// - parameter connectionsPerClient: how many connections one client address may hold open at once.
    /// - parameter connectionMemory: the memory for one connection's request line, headers and query parameters,
    ///   in bytes (nil: the listener's default); a request line longer than it is refused by libmicrohttpd. More
    ///   than 1,000 query parameters get the Table API's 400 whatever it is, and a query that would not leave
    ///   room for the headers and the answer once parsed a 414.
    /// - parameter spooling: the bodies written to a file as they arrive (not held, not bound by `bodyLimit`),
    ///   and their limit; nil: none.
    /// - parameter tls: the certificate and key to serve HTTPS with; nil: plain HTTP.
    /// - parameter clientCertificateAuthorities: with `tls`, the CA certificates whose client certificates the
    ///   listener asks for: a client certificate they verify reaches the handler as its SHA-256 fingerprint in
    ///   ``clientCertificateHeader`` (never as a client sent that header); nil: none is asked for.
    /// - throws: ``HTTPListenerError`` naming the address and the reason, such as `Address already in use`.
    public init(
        host: String = "127.0.0.1", port: UInt16 = 0, bodyLimit: Int = HTTPListener.defaultBodyLimit,
        connectionTimeout: Duration = HTTPListener.defaultConnectionTimeout,
        headerTimeout: Duration = HTTPListener.defaultHeaderTimeout,
        connectionsPerClient: Int = HTTPListener.defaultConnectionsPerClient,
        connectionMemory: Int? = nil, spooling: BodySpooling? = nil, tls: TLSIdentity? = nil,
        clientCertificateAuthorities: TLSClientAuthorities? = nil,
        handler: @escaping @Sendable (NowHTTPRequest) -> LocalInstanceReply
    ) throws(HTTPListenerError) {
        // A release build opens libmicrohttpd here, on first use, rather than at every start.
        if let problem = clazy_microhttpd_problem() {
            throw HTTPListenerError(host: host, port: port, reason: String(cString: problem))
        }
        if tls != nil, cmhd_supports_tls() == 0 {
            throw HTTPListenerError(
                host: host, port: port, reason: "this libmicrohttpd was built without TLS support (GnuTLS)")
        }
        // A client that goes away must not kill the process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let descriptor = try ListeningSocket.open(host: host, port: port)
        let memory = max(connectionMemory ?? HTTPListener.connectionMemory, 4096)
        let context = ListenerContext(
            handler: handler, bodyLimit: bodyLimit, spooling: spooling, headerTimeout: headerTimeout,
            connectionMemory: memory,
            tls: tls.map { TLSMemory($0, clientCertificateAuthorities: clientCertificateAuthorities) })
        let contextPointer = Unmanaged.passUnretained(context).toOpaque()
        let flags =
            MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
            | MHD_USE_POLL.rawValue | MHD_USE_ITC.rawValue | (tls == nil ? 0 : MHD_USE_TLS.rawValue)
        // C function pointers are not CVarArg; they travel as raw pointers, NULL as Int(0).
        let completed = OpaquePointer(unsafeBitCast(HTTPListener.requestCompleted, to: UnsafeRawPointer.self))
        let requestLine = OpaquePointer(unsafeBitCast(HTTPListener.requestLineArrived, to: UnsafeRawPointer.self))
        let notified = OpaquePointer(unsafeBitCast(HTTPListener.connectionNotified, to: UnsafeRawPointer.self))
        var options: [CVarArg] = [
            MHD_OPTION.NOTIFY_COMPLETED.rawValue, completed, OpaquePointer(contextPointer),
            // The request's path as sent (the access handler's is decoded, an encoded `/` included).
            MHD_OPTION.URI_LOG_CALLBACK.rawValue, requestLine, OpaquePointer(contextPointer),
            // Each connection's deadlines, from its opening to its closing.
            MHD_OPTION.NOTIFY_CONNECTION.rawValue, notified, OpaquePointer(contextPointer),
            MHD_OPTION.LISTEN_SOCKET.rawValue, descriptor,
            // A silent connection does not hold its thread for long, and one client cannot hold them all.
            MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(clamping: max(1, connectionTimeout.components.seconds)),
            MHD_OPTION.PER_IP_CONNECTION_LIMIT.rawValue, UInt32(clamping: max(1, connectionsPerClient)),
            // Room for long URLs (a `sys_idIN` query of a thousand sys_ids) and headers; the default is 32 KB.
            MHD_OPTION.CONNECTION_MEMORY_LIMIT.rawValue, memory,
        ]
        if let memory = context.tls {
            options += [
                MHD_OPTION.HTTPS_MEM_CERT.rawValue, memory.certificate, MHD_OPTION.HTTPS_MEM_KEY.rawValue, memory.key,
            ]
            // libmicrohttpd then asks every client for a certificate (without requiring one); the access handler
            // verifies it.
            if let trust = memory.trust { options += [MHD_OPTION.HTTPS_MEM_TRUST.rawValue, trust] }
        }
        options.append(MHD_OPTION.END.rawValue)
        let started = withVaList(options) { arguments in
            MHD_start_daemon_va(flags, 0, nil, nil, HTTPListener.access, contextPointer, arguments)
        }
        guard let started else {
            context.deadlines.stop()
            close(descriptor)
            throw HTTPListenerError(
                host: host, port: port,
                reason: tls == nil
                    ? "libmicrohttpd could not start"
                    : "libmicrohttpd could not start TLS with this certificate and key (GnuTLS refused them)")
        }
        self.host = host
        self.port = cmhd_bound_port(started)
        self.context = context
        self.daemon = DaemonHandle(started)
    }

    /// Stops listening: refuses new requests, waits for those in progress to be answered, then closes every
    /// connection. Calling it again does nothing. Call it from outside the handler (it waits for the handler).
    public func stop() {
        daemon.stop(draining: context.tracker)
        context.deadlines.stop()
    }

    deinit {
        stop()
    }
}
