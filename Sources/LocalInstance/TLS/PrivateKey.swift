internal import CCrypto

/// A private key of libcrypto's (an `EVP_PKEY`), freed with this object.
final class PrivateKey {
    let pointer: OpaquePointer

    private init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// A new ECDSA key on the curve P-256 (prime256v1), which every TLS client accepts.
    static func generate() throws(TLSError) -> PrivateKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw TLSError("libcrypto cannot make EC keys")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
            EVP_PKEY_generate(context, &key) == 1, let key
        else { throw TLSError("libcrypto could not generate a P-256 key") }
        return PrivateKey(owning: key)
    }

    /// The key in the PEM file text `pem`; `source` names the file in the error.
    convenience init(pem: String, source: String) throws(TLSError) {
        guard let key = PEMText.read(pem, with: { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            throw TLSError("\(source) holds no unencrypted private key in PEM")
        }
        self.init(owning: key)
    }

    /// The key in PEM (unencrypted PKCS#8, `BEGIN PRIVATE KEY`).
    func pem() throws(TLSError) -> String {
        guard let text = PEMText.written(by: { PEM_write_bio_PrivateKey($0, pointer, nil, nil, 0, nil, nil) }) else {
            throw TLSError("libcrypto could not write a private key")
        }
        return text
    }
}
