import NowData

/// What libmicrohttpd's callbacks of one ``HTTPListener`` need, passed to C as their `cls` pointer.
final class ListenerContext: Sendable {
    /// Answers each complete request.
    let handler: @Sendable (NowHTTPRequest) -> LocalInstanceReply
    /// The largest body accepted, in bytes; a larger one is answered 413.
    let bodyLimit: Int
    /// The requests being handled.
    let tracker = RequestTracker()

    init(handler: @escaping @Sendable (NowHTTPRequest) -> LocalInstanceReply, bodyLimit: Int) {
        self.handler = handler
        self.bodyLimit = bodyLimit
    }
}
