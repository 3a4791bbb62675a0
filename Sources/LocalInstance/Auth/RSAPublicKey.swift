internal import CCrypto
import Foundation

/// An RSA public key of libcrypto's (an `EVP_PKEY`), read from a certificate or a public key in PEM, that checks
/// RS256 signatures (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3); freed with this object.
final class RSAPublicKey {
    private let pointer: OpaquePointer

    /// The fewest bits RFC 7518 §3.3 allows an RS256 key.
    static let minimumBits: Int32 = 2048

    /// Why a PEM text gives no key to check signatures with.
    enum Problem: Error, Equatable {
        /// The text holds neither an X.509 certificate nor a public key in PEM.
        case notPEM
        /// The certificate's validity has not begun, or has ended.
        case certificateOutOfDate
        /// The key is not an RSA key.
        case notRSA
        /// The RSA key has fewer than ``RSAPublicKey/minimumBits`` bits.
        case tooShort(bits: Int32)
    }

    private init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// The key of the first certificate (`BEGIN CERTIFICATE`, which must be valid at `now`) or public key
    /// (`BEGIN PUBLIC KEY`) in `pem`.
    ///
    /// - Throws: ``Problem`` when `pem` holds neither, the certificate is out of date, or the key is not an RSA key
    ///   of at least 2048 bits.
    convenience init(pem: String, now: Date) throws(Problem) {
        let key: OpaquePointer
        if let certificate = PEMText.read(pem, with: { PEM_read_bio_X509($0, nil, nil, nil) }) {
            defer { X509_free(certificate) }
            var time = time_t(now.timeIntervalSince1970)
            guard X509_cmp_time(X509_get0_notBefore(certificate), &time) < 0,
                X509_cmp_time(X509_get0_notAfter(certificate), &time) > 0
            else { throw .certificateOutOfDate }
            guard let found = X509_get_pubkey(certificate) else { throw .notPEM }
            key = found
        } else if let found = PEMText.read(pem, with: { PEM_read_bio_PUBKEY($0, nil, nil, nil) }) {
            key = found
        } else {
            throw .notPEM
        }
        self.init(owning: key)
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else { throw .notRSA }
        let bits = EVP_PKEY_get_bits(key)
        guard bits >= Self.minimumBits else { throw .tooShort(bits: bits) }
    }

    /// Whether `signature` is this key's RS256 signature of `message`.
    func verifiesRS256(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pointer) == 1 else { return false }
        return signature.withUnsafeBufferPointer { signed in
            message.withUnsafeBufferPointer { bytes in
                EVP_DigestVerify(context, signed.baseAddress, signed.count, bytes.baseAddress, bytes.count) == 1
            }
        }
    }
}
