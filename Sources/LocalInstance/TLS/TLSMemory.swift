import Foundation

/// The PEM texts an ``HTTPListener`` hands libmicrohttpd (which keeps pointers to them), as C strings that live as
/// long as the listener.
///
/// Unchecked `Sendable`: the strings are written once, here, and only read afterwards.
final class TLSMemory: @unchecked Sendable {
    /// The server's certificate chain.
    let certificate: UnsafeMutablePointer<CChar>
    /// Its private key.
    let key: UnsafeMutablePointer<CChar>
    /// The CA certificates whose client certificates are asked for; nil: none is.
    let trust: UnsafeMutablePointer<CChar>?

    init(_ identity: TLSIdentity, clientCertificateAuthorities: TLSClientAuthorities?) {
        certificate = Self.copy(identity.certificatePEM)
        key = Self.copy(identity.keyPEM)
        trust = clientCertificateAuthorities.map { Self.copy($0.certificatesPEM) }
    }

    private static func copy(_ text: String) -> UnsafeMutablePointer<CChar> {
        let bytes = Array(text.utf8CString)
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        copy.initialize(from: bytes, count: bytes.count)
        return copy
    }

    deinit {
        // The key's bytes are cleared before the memory goes back to the allocator.
        memset(key, 0, strlen(key))
        key.deallocate()
        certificate.deallocate()
        trust?.deallocate()
    }
}
