import Foundation

/// The failed logins of each account and each client, and the locks they lead to.
///
/// An account (a user name, or an OAuth `client_id`) is locked for ``lockDuration`` after ``limit`` failures in a
/// row, none further apart than ``lockDuration``; its next success starts the count again. A client address is
/// locked the same way after ``clientLimit`` failures, whatever the accounts, so that one client cannot try a few
/// passwords on each of many users; its successes do not reset its count. While locked, an account or client gets
/// the platform's 401 without its password being checked.
struct LoginThrottle: Sendable {
    /// Failures in a row that lock an account.
    let limit: Int
    /// How long a lock lasts, and how long a failure counts.
    let lockDuration: TimeInterval
    /// Failures that lock a client address.
    var clientLimit: Int { limit * Self.clientFactor }

    /// How many more failures a client may make than one account.
    static let clientFactor = 5
    /// The most accounts or clients followed; past it those not locked are forgotten.
    static let capacity = 10_000

    private struct Failures {
        var count = 0
        var last = Date.distantPast
        var lockedUntil: Date?
    }

    private var accounts: [String: Failures] = [:]
    private var clients: [String: Failures] = [:]

    /// A throttle locking after `limit` failures (0: never) for `lockDuration`.
    init(limit: Int, lockDuration: TimeInterval) {
        self.limit = limit
        self.lockDuration = lockDuration
    }

    /// Whether `account` or `client` is locked at `now`.
    func isLocked(account: String?, client: String?, now: Date) -> Bool {
        func locked(_ failures: Failures?) -> Bool { failures?.lockedUntil.map { $0 > now } ?? false }
        return locked(account.flatMap { accounts[$0] }) || locked(client.flatMap { clients[$0] })
    }

    /// Counts a failed login of `account` (described: `user 'admin'`) from `client`; returns a sentence for each
    /// lock it began (`user 'admin' locked for 300 seconds after 10 failed logins`).
    mutating func recordFailure(account: String?, client: String?, now: Date) -> [String] {
        guard limit > 0 else { return [] }
        var locked: [String] = []
        if let account, Self.count(&accounts, account, limit: limit, lockDuration: lockDuration, now: now) {
            locked.append("\(account) locked for \(Int(lockDuration)) seconds after \(limit) failed logins in a row")
        }
        if let client, Self.count(&clients, client, limit: clientLimit, lockDuration: lockDuration, now: now) {
            locked.append(
                "client \(client) locked for \(Int(lockDuration)) seconds after \(clientLimit) failed logins")
        }
        return locked
    }

    /// Starts `account`'s count again after a successful login.
    mutating func recordSuccess(account: String) {
        accounts[account] = nil
    }

    /// Counts one failure of `key`; true when it locks it.
    private static func count(
        _ table: inout [String: Failures], _ key: String, limit: Int, lockDuration: TimeInterval, now: Date
    ) -> Bool {
        if table[key] == nil, table.count >= capacity {
            table = table.filter { $0.value.lockedUntil.map { $0 > now } ?? false }
        }
        var failures = table[key] ?? Failures()
        if let until = failures.lockedUntil, until <= now { failures = Failures() }
        if now.timeIntervalSince(failures.last) > lockDuration { failures.count = 0 }
        failures.count += 1
        failures.last = now
        let locks = failures.count >= limit
        if locks {
            failures.lockedUntil = now.addingTimeInterval(lockDuration)
            failures.count = 0
        }
        table[key] = failures
        return locks
    }
}
