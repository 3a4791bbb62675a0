import NowData

/// What the local instance does with one request, injected faults included.
public enum LocalInstanceReply: Sendable {
    /// Answer with `response` once `delay` has passed (zero unless latency is injected).
    case respond(NowHTTPResponse, after: Duration)
    /// Close the connection without answering once `delay` has passed. The request may have been processed
    /// (a lost response) or not (a refused one), as the fault decided.
    case dropConnection(after: Duration)
}
