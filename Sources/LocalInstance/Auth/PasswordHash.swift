import NowData
/// A salted SHA-256 password hash as stored in `sys_user.user_password`: `sha256$<salt>$<digest>`.
enum PasswordHash {
    /// The stored form of `password`, with a fresh random salt.
    static func make(_ password: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in hexByte(UInt8.random(in: 0...255, using: &generator)) }.joined()
        return "sha256$\(salt)$\(SHA256.hex(salt + password))"
    }

    /// Whether `password` matches a stored hash (a value not in the hash format never matches).
    static func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "sha256" else { return false }
        let expected = Array(SHA256.hex(String(parts[1]) + password).utf8)
        let actual = Array(parts[2].utf8)
        guard expected.count == actual.count else { return false }
        return zip(expected, actual).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16)
        return byte < 16 ? "0" + hex : hex
    }
}
