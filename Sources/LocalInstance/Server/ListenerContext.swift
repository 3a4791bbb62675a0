import NowData

/// What libmicrohttpd's callbacks of one ``HTTPListener`` need, passed to C as their `cls` pointer.
final class ListenerContext: Sendable {
    /// Answers each complete request.
    let handler: @Sendable (NowHTTPRequest) -> LocalInstanceReply
    /// The largest body accepted, in bytes; a larger one is answered 413.
    let bodyLimit: Int
    /// The bodies written to files as they arrive; nil: every body is held.
    let spooling: BodySpooling?
    /// The requests being handled.
    let tracker = RequestTracker()
    /// The connections' deadlines for their headers and bodies.
    let deadlines: ConnectionDeadlines
    /// The memory of one connection (libmicrohttpd's connection memory limit), in bytes.
    let connectionMemory: Int
    /// The certificate and key libmicrohttpd serves TLS with, kept for the daemon's life; nil: plain HTTP.
    let tls: TLSMemory?

    init(
        handler: @escaping @Sendable (NowHTTPRequest) -> LocalInstanceReply, bodyLimit: Int, spooling: BodySpooling?,
        headerTimeout: Duration, connectionMemory: Int, tls: TLSMemory?
    ) {
        self.tls = tls
        self.handler = handler
        self.connectionMemory = connectionMemory
        deadlines = ConnectionDeadlines(headerTimeout: headerTimeout)
        self.bodyLimit = bodyLimit
        self.spooling = spooling
    }
}
