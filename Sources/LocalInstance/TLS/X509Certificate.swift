internal import CCrypto
import Foundation

/// An X.509 certificate of libcrypto's (an `X509`), freed with this object.
final class X509Certificate {
    let pointer: OpaquePointer

    private init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        X509_free(pointer)
    }

    /// The first certificate in the PEM file text `pem`; `source` names the file in the error.
    convenience init(pem: String, source: String) throws(TLSError) {
        guard let certificate = PEMText.read(pem, with: { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            throw TLSError("\(source) holds no X.509 certificate in PEM")
        }
        self.init(owning: certificate)
    }

    /// A new certificate for `key`, valid from an hour ago (clocks differ) for `days`, signed with SHA-256 by
    /// `issuer` (its certificate and key) or, when nil, by `key` itself.
    ///
    /// - parameter commonName: the subject's CN (its organisation is `nowflow local instance`).
    /// - parameter extensions: X.509 v3 extensions as OpenSSL's configuration writes them, by NID, such as
    ///   `(NID_basic_constraints, "critical,CA:TRUE")`.
    convenience init(
        commonName: String, key: PrivateKey, issuer: (certificate: X509Certificate, key: PrivateKey)?, days: Int,
        extensions: [(nid: Int32, value: String)]
    ) throws(TLSError) {
        guard let certificate = X509_new() else { throw TLSError("libcrypto could not make a certificate") }
        self.init(owning: certificate)
        let name = X509_get_subject_name(certificate)
        let made =
            X509_set_version(certificate, 2) == 1 && Self.setRandomSerial(certificate)
            && X509_gmtime_adj(X509_getm_notBefore(certificate), -3_600) != nil
            && X509_gmtime_adj(X509_getm_notAfter(certificate), days * 86_400) != nil
            && X509_set_pubkey(certificate, key.pointer) == 1
            && Self.add("O", "nowflow local instance", to: name) && Self.add("CN", commonName, to: name)
            && X509_set_issuer_name(certificate, issuer.map { X509_get_subject_name($0.certificate.pointer) } ?? name)
                == 1
        guard made else { throw TLSError("libcrypto could not fill in the certificate for \(commonName)") }
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.certificate.pointer ?? certificate, certificate, nil, nil, 0)
        for (nid, value) in extensions {
            guard let `extension` = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                throw TLSError("libcrypto could not make the certificate extension '\(value)'")
            }
            defer { X509_EXTENSION_free(`extension`) }
            guard X509_add_ext(certificate, `extension`, -1) == 1 else {
                throw TLSError("libcrypto could not add the certificate extension '\(value)'")
            }
        }
        guard X509_sign(certificate, (issuer?.key ?? key).pointer, EVP_sha256()) > 0 else {
            throw TLSError("libcrypto could not sign the certificate for \(commonName)")
        }
    }

    /// The certificate in PEM.
    func pem() throws(TLSError) -> String {
        guard let text = PEMText.written(by: { PEM_write_bio_X509($0, pointer) }) else {
            throw TLSError("libcrypto could not write a certificate")
        }
        return text
    }

    /// Whether `key` is the private key of this certificate's public key.
    func matches(_ key: PrivateKey) -> Bool {
        X509_check_private_key(pointer, key.pointer) == 1
    }

    /// Whether the certificate is still valid `margin` from now.
    func isValid(for margin: Duration) -> Bool {
        var then = time(nil) + time_t(margin.components.seconds)
        return X509_cmp_time(X509_get0_notAfter(pointer), &then) > 0
    }

    private static func setRandomSerial(_ certificate: OpaquePointer) -> Bool {
        guard let number = BN_new() else { return false }
        defer { BN_free(number) }
        // A positive 127-bit serial: unique without a counter, and within the 20 octets RFC 5280 allows.
        guard BN_rand(number, 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) == 1,
            let serial = BN_to_ASN1_INTEGER(number, nil)
        else { return false }
        defer { ASN1_INTEGER_free(serial) }
        return X509_set_serialNumber(certificate, serial) == 1
    }

    private static func add(_ field: String, _ value: String, to name: OpaquePointer?) -> Bool {
        let bytes = Array(value.utf8)
        return X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, bytes, Int32(bytes.count), -1, 0) == 1
    }
}
