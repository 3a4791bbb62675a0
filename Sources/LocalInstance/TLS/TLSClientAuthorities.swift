import Foundation

/// The certificate authorities whose client certificates an HTTPS ``HTTPListener`` asks for and verifies
/// (`nowflow serve --tls-client-ca`), in PEM.
public struct TLSClientAuthorities: Sendable, Hashable {
    /// One or more CA certificates, in PEM.
    public let certificatesPEM: String

    /// Reads the CA certificates of a PEM file, checking that it holds at least one.
    ///
    /// - throws: ``TLSError`` naming the file that cannot be read or holds no certificate.
    public init(file: String) throws(TLSError) {
        let pem = try TLSIdentity.read(file, what: "client CA certificate")
        _ = try X509Certificate(pem: pem, source: file)
        certificatesPEM = pem
    }
}
