internal import CCrypto

/// RS256 signatures (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3) by an RSA private key in PEM, computed by
/// OpenSSL's libcrypto: what the JWT bearer grant's assertions are signed with.
enum RS256Signature {
    /// The signature of `message` by the unencrypted RSA private key in `privateKeyPEM` (PKCS#8 `BEGIN PRIVATE
    /// KEY` or PKCS#1 `BEGIN RSA PRIVATE KEY`); nil when the text holds no such key or libcrypto cannot sign.
    static func sign(_ message: [UInt8], privateKeyPEM: String) -> [UInt8]? {
        let text = Array(privateKeyPEM.utf8)
        let key = text.withUnsafeBytes { buffer -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            // A null passphrase callback with no user data: an encrypted key is not read (no prompt).
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let key else { return nil }
        defer { EVP_PKEY_free(key) }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA, let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { return nil }
        return message.withUnsafeBufferPointer { bytes -> [UInt8]? in
            var length = 0
            guard EVP_DigestSign(context, nil, &length, bytes.baseAddress, bytes.count) == 1 else { return nil }
            var signature = [UInt8](repeating: 0, count: length)
            let signed = signature.withUnsafeMutableBufferPointer { out in
                EVP_DigestSign(context, out.baseAddress, &length, bytes.baseAddress, bytes.count)
            }
            guard signed == 1 else { return nil }
            return Array(signature.prefix(length))
        }
    }
}
