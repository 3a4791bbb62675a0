import NowData
import Synchronization

/// How a secret is stored (`sys_user.user_password`, `sys_api_key.token`, `oauth_entity.client_secret`):
/// PBKDF2-HMAC-SHA256 with a random 16-byte salt, `pbkdf2-sha256$<iterations>$<salt hex>$<key hex>`, the
/// iterations being the instance's work factor (``LocalInstance/Options/passwordIterations``).
///
/// A hash of the earlier format, one round of salted SHA-256 (`sha256$<salt hex>$<digest hex>`), is still
/// verified; ``needsUpgrade(_:iterations:)`` says when a login that verified one should store the secret anew.
/// Verifications that succeeded are remembered in the process (by a SHA-256 of the secret and the stored hash,
/// never the secret itself), so that a known login costs one derivation, not one per request.
enum PasswordHash {

    private static let algorithm = "pbkdf2-sha256"
    private static let legacyAlgorithm = "sha256"

    /// The stored form of `secret`, with a fresh random salt and `iterations` rounds.
    static func make(_ secret: String, iterations: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let rounds = min(max(1, iterations), LocalInstance.maximumPasswordIterations)
        let key = SHA256.pbkdf2(password: Array(secret.utf8), salt: salt, iterations: rounds)
        let stored = "\(algorithm)$\(rounds)$\(SHA256.hexText(salt))$\(SHA256.hexText(key))"
        remember(secret, stored)
        return stored
    }

    /// Whether `secret` matches a stored hash (a value in neither format never matches).
    static func verify(_ secret: String, against stored: String) -> Bool {
        if isKnownMatch(secret, stored) { return true }
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
        let expected: String
        let actual: String
        switch (parts.first, parts.count) {
        case (legacyAlgorithm, 3):
            expected = SHA256.hex(parts[1] + secret)
            actual = parts[2]
        case (algorithm, 4):
            guard let rounds = Int(parts[1]), (1...LocalInstance.maximumPasswordIterations).contains(rounds), let salt = bytes(hex: parts[2])
            else { return false }
            expected = SHA256.hexText(SHA256.pbkdf2(password: Array(secret.utf8), salt: salt, iterations: rounds))
            actual = parts[3]
        default:
            return false
        }
        let matches = constantTimeEqual(Array(expected.utf8), Array(actual.utf8))
        if matches { remember(secret, stored) }
        return matches
    }

    /// Whether `secret` was already verified against `stored` in this process (no derivation).
    static func isKnownMatch(_ secret: String, _ stored: String) -> Bool {
        let key = memoKey(secret, stored)
        return verified.withLock { $0.contains(key) }
    }

    /// Whether `stored` is weaker than a new hash of `iterations` rounds (the old format, or fewer rounds).
    static func needsUpgrade(_ stored: String, iterations: Int) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == algorithm, let rounds = Int(parts[1]) else { return true }
        return rounds < min(max(1, iterations), LocalInstance.maximumPasswordIterations)
    }

    /// The verifications that succeeded, by ``memoKey(_:_:)``; emptied when it reaches ``memoCapacity``.
    private static let verified = Mutex(Set<[UInt8]>())
    private static let memoCapacity = 4096

    private static func remember(_ secret: String, _ stored: String) {
        let key = memoKey(secret, stored)
        verified.withLock { known in
            if known.count >= memoCapacity { known.removeAll() }
            known.insert(key)
        }
    }

    private static func memoKey(_ secret: String, _ stored: String) -> [UInt8] {
        SHA256.digest(Array(stored.utf8) + [0] + Array(secret.utf8))
    }

    private static func constantTimeEqual(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard !digits.isEmpty, digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
