internal import CCrypto

/// SHA-256 (FIPS 180-4), for attachment hashes, password hashes and stable demo sys_ids, computed by OpenSSL's
/// libcrypto (with the CPU's SHA instructions where it has them, about 2 GB/s). Fed in pieces with
/// ``update(_:)``, so that a large file is hashed without holding it. A value: a copy goes on from where the
/// original was, independently.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(Array("abc".utf8))
/// let hex = hasher.finalizeHex()   // "ba7816bf..."
/// ```
package struct SHA256: Sendable {
    /// The digest's state, shared between copies until one of them is fed (then it takes a copy of its own).
    private var context: Context

    /// A hasher with nothing fed yet.
    package init() {
        context = Context()
    }

    /// Feeds `bytes`. A contiguous collection (`Data`, an array, a buffer) is hashed where it is.
    package mutating func update<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        let fed: Void? = bytes.withContiguousStorageIfAvailable { buffer in context.update(buffer) }
        if fed == nil { Array(bytes).withUnsafeBufferPointer { context.update($0) } }
    }

    /// The digest of everything fed (the hasher can be fed more after).
    package func finalize() -> [UInt8] {
        context.copy().finish()
    }

    /// The lowercase hex digest of everything fed.
    package func finalizeHex() -> String {
        Self.hexText(finalize())
    }

    /// The digest of `bytes`.
    package static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The lowercase hex digest of the UTF-8 bytes of `text`.
    package static func hex(_ text: String) -> String {
        hexText(digest(Array(text.utf8)))
    }

    /// PBKDF2-HMAC-SHA256 (RFC 8018) of `password` and `salt` with `iterations` rounds: a 32-byte key, as stored
    /// for passwords (`iterations` at least 1).
    package static func pbkdf2(password: [UInt8], salt: [UInt8], iterations: Int) -> [UInt8] {
        var key = [UInt8](repeating: 0, count: 32)
        password.withUnsafeBufferPointer { passwordBytes in
            passwordBytes.withMemoryRebound(to: CChar.self) { passwordChars in
                salt.withUnsafeBufferPointer { saltBytes in
                    key.withUnsafeMutableBufferPointer { out in
                        _ = PKCS5_PBKDF2_HMAC(
                            passwordChars.baseAddress, Int32(passwordChars.count), saltBytes.baseAddress,
                            Int32(saltBytes.count), Int32(clamping: max(1, iterations)), EVP_sha256(), Int32(out.count),
                            out.baseAddress)
                    }
                }
            }
        }
        return key
    }

    /// The lowercase hex text of `digest`.
    package static func hexText(_ digest: [UInt8]) -> String {
        digest.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// One libcrypto digest context. Each is used by one hasher at a time (a hasher copies it before feeding a
    /// shared one), hence unchecked.
    private final class Context: @unchecked Sendable {
        private let pointer: OpaquePointer?

        init() {
            pointer = EVP_MD_CTX_new()
            EVP_DigestInit_ex(pointer, EVP_sha256(), nil)
        }

        private init(copying other: OpaquePointer?) {
            pointer = EVP_MD_CTX_new()
            EVP_MD_CTX_copy_ex(pointer, other)
        }

        deinit {
            EVP_MD_CTX_free(pointer)
        }

        func copy() -> Context {
            Context(copying: pointer)
        }

        func update(_ buffer: UnsafeBufferPointer<UInt8>) {
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
            EVP_DigestUpdate(pointer, base, buffer.count)
        }

        /// The digest; the context is done after it.
        func finish() -> [UInt8] {
            var digest = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            digest.withUnsafeMutableBufferPointer { buffer in
                _ = EVP_DigestFinal_ex(pointer, buffer.baseAddress, &length)
            }
            return digest
        }
    }
}
