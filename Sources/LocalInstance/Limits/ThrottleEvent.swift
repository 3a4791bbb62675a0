import Foundation

/// One request the ``PlatformLimits`` refused or cancelled, for the web view of what was throttled.
struct ThrottleEvent: Sendable, Equatable {
    /// When it was refused, by the limits' clock.
    var time: Date
    /// The request's method and path.
    var request: String
    /// The user, when the request was authenticated; empty otherwise.
    var user: String
    /// The status it was answered with: 429, 202 or 500.
    var status: Int
    /// Which limit: `rate limit rule <name>`, `integration semaphore`, `session queue`, `transaction quota`.
    var limit: String
}
