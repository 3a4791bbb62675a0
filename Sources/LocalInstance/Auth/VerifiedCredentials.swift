/// The Basic credentials already verified (`Authorization` header → `user_name`), so that a keep-alive client's
/// requests do not each read the user and hash the password again.
///
/// Any write to `sys_user` empties it (``forgetAll()``) before its response is sent, so a password change, a
/// lock-out, a deactivation, a rename or a deletion takes effect on the very next request. A verification that
/// began before such a write, and finishes after it, must not put back what the write ended: each verification
/// takes the ``generation`` before it reads the user, and ``remember(_:user:verifiedIn:)`` keeps its answer only
/// when no write came between.
struct VerifiedCredentials: Sendable {
    private var users: [String: String] = [:]
    /// How many times the credentials were forgotten.
    private(set) var generation = 0

    /// The most credentials held; past it the cache starts again empty.
    static let capacity = 1024

    /// The user of credentials verified since the last write to `sys_user`.
    func user(for authorization: String) -> String? {
        users[authorization]
    }

    /// Keeps `authorization` as `user`'s, when nothing was forgotten since `generation` was read.
    mutating func remember(_ authorization: String, user: String, verifiedIn generation: Int) {
        guard generation == self.generation else { return }
        if users.count >= Self.capacity { users.removeAll() }
        users[authorization] = user
    }

    /// Forgets every verified credential (after a write to `sys_user`).
    mutating func forgetAll() {
        users.removeAll()
        generation &+= 1
    }
}
