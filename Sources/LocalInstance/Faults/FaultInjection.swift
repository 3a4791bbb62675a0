/// Faults the local instance injects into its answers, so that a client's retries can be tested.
///
/// Rates are shares of requests between 0 and 1, drawn at random per request; `scripted` faults come first and
/// make a test deterministic:
/// ```swift
/// instance.setFaults(FaultInjection(scripted: [.status(429, retryAfterSeconds: 1), .drop]))
/// // the next request gets a 429, the one after a dropped connection, then requests are served normally
/// ```
public struct FaultInjection: Sendable, Hashable {
    /// Latency added to every answer.
    public var latency: Duration
    /// The share of requests answered with `status` instead of being handled.
    public var statusRate: Double
    /// The status of those answers: 429, 500 or 503.
    public var status: Int
    /// The `Retry-After` seconds of a 429.
    public var retryAfterSeconds: Int
    /// The share of requests whose connection is dropped before they are handled.
    public var dropRate: Double
    /// The share of requests that are handled (a write is stored) and whose response is then dropped.
    public var lostResponseRate: Double
    /// Faults for the next requests, one per request, in order; random faults apply once they are used up.
    public var scripted: [Fault]

    /// No fault: every request is handled at once.
    public static let none = FaultInjection()

    /// Faults; the defaults inject nothing.
    public init(
        latency: Duration = .zero, statusRate: Double = 0, status: Int = 503, retryAfterSeconds: Int = 1,
        dropRate: Double = 0, lostResponseRate: Double = 0, scripted: [Fault] = []
    ) {
        self.latency = latency
        self.statusRate = statusRate
        self.status = status
        self.retryAfterSeconds = retryAfterSeconds
        self.dropRate = dropRate
        self.lostResponseRate = lostResponseRate
        self.scripted = scripted
    }
}
