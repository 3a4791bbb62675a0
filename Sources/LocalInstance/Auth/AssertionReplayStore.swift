import Foundation

/// The JWT bearer assertions already exchanged, by client and `jti`, until they expire: an application with
/// `enable_jti_verification` takes each assertion once ("a new token every token exchange").
struct AssertionReplayStore: Sendable {
    /// The most assertions remembered; past it the one that expires first is forgotten.
    static let capacity = 100_000

    private var used: [String: Date] = [:]

    /// Notes the assertion `jti` of `clientID`, remembered until `expires`; false when it was already used.
    mutating func use(_ jti: String, clientID: String, expires: Date, now: Date) -> Bool {
        used = used.filter { $0.value > now }
        let key = clientID + "\u{0}" + jti
        guard used[key] == nil else { return false }
        if used.count >= Self.capacity, let first = used.min(by: { $0.value < $1.value })?.key { used[first] = nil }
        used[key] = expires
        return true
    }
}
