/// One injected fault, for ``FaultInjection/scripted``.
public enum Fault: Sendable, Hashable {
    /// Answer with this status (429, 500 or 503) and a real-looking error body, without handling the request;
    /// a 429 carries `Retry-After` (the given seconds, or the injection's `retryAfterSeconds` when nil).
    case status(Int, retryAfterSeconds: Int?)
    /// Close the connection before handling the request (nothing is read or written).
    case drop
    /// Handle the request (a write is stored), then close the connection without answering.
    case lostResponse
    /// Handle the request normally and answer after this delay.
    case latency(Duration)
}
