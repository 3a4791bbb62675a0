internal import CCrypto

/// RS256 signatures (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3) by an RSA private key in PEM, computed by
/// OpenSSL's libcrypto: what the JWT bearer grant's assertions are signed with.
package enum RS256Signature {
    /// The fewest bits of an RSA key that signs: what the instance asks of a verifier map's certificate.
    static let minimumBits: Int32 = 2048

    /// What keeps `privateKeyPEM` from signing the JWT bearer grant's assertions, as the end of a sentence about
    /// the key (`is an encrypted private key ...`); nil when it holds an unencrypted RSA private key of at least
    /// 2048 bits. The sentence never repeats the text.
    package static func problem(ofPrivateKeyPEM privateKeyPEM: String) -> String? {
        guard let key = privateKey(privateKeyPEM) else {
            if !privateKeyPEM.contains("-----BEGIN ") {
                return "holds no PEM block (-----BEGIN PRIVATE KEY-----)"
            }
            if privateKeyPEM.contains("ENCRYPTED PRIVATE KEY") || privateKeyPEM.contains("Proc-Type: 4,ENCRYPTED") {
                return "is an encrypted private key: give it unencrypted (openssl pkey -in KEY -out PLAIN)"
            }
            if !privateKeyPEM.contains("PRIVATE KEY-----") {
                let kind = privateKeyPEM.contains("-----BEGIN CERTIFICATE-----") ? "a certificate" : "a public key"
                return "is \(kind), not a private key: the instance's sys_certificate holds the certificate, "
                    + "the client its private key"
            }
            return "holds a PEM block that is not a readable private key"
        }
        defer { EVP_PKEY_free(key) }
        let kind = EVP_PKEY_get_base_id(key)
        guard kind == EVP_PKEY_RSA else {
            let name = [EVP_PKEY_EC: "an EC key", EVP_PKEY_ED25519: "an Ed25519 key", EVP_PKEY_DSA: "a DSA key"][kind]
            return "is \(name ?? "not an RSA key"): the JWT bearer grant signs with RS256, which takes an RSA key"
        }
        let bits = EVP_PKEY_get_bits(key)
        guard bits >= minimumBits else {
            return "is an RSA key of \(bits) bits: the instance takes keys of \(minimumBits) bits or more"
        }
        return nil
    }

    /// The key of the first private key block of `pem`; nil when there is none, or it is encrypted.
    private static func privateKey(_ pem: String) -> OpaquePointer? {
        let text = Array(pem.utf8)
        return text.withUnsafeBytes { buffer -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            // A null passphrase callback with no user data: an encrypted key is not read (no prompt).
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
    }

    /// The signature of `message` by the unencrypted RSA private key in `privateKeyPEM` (PKCS#8 `BEGIN PRIVATE
    /// KEY` or PKCS#1 `BEGIN RSA PRIVATE KEY`); nil when the text holds no such key or libcrypto cannot sign.
    static func sign(_ message: [UInt8], privateKeyPEM: String) -> [UInt8]? {
        guard let key = privateKey(privateKeyPEM) else { return nil }
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
