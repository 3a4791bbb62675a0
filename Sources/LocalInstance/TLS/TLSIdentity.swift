import Foundation

/// A TLS server's certificate (with any intermediate certificates after it) and its private key, in PEM, as an
/// ``HTTPListener`` serves them.
public struct TLSIdentity: Sendable, Hashable {
    /// The server's certificate first, then any intermediate certificates, in PEM.
    public let certificatePEM: String
    /// The certificate's private key, in PEM (PKCS#8, PKCS#1 or SEC 1), unencrypted.
    public let keyPEM: String

    /// Reads a certificate (chain) and its key from PEM files, checking that both parse and that the key is the
    /// certificate's.
    ///
    /// - throws: ``TLSError`` naming the file that cannot be read, is not PEM of its kind, or does not match.
    public init(certificateFile: String, keyFile: String) throws(TLSError) {
        let certificatePEM = try Self.read(certificateFile, what: "certificate")
        let keyPEM = try Self.read(keyFile, what: "private key")
        let certificate = try X509Certificate(pem: certificatePEM, source: certificateFile)
        let key = try PrivateKey(pem: keyPEM, source: keyFile)
        guard certificate.matches(key) else {
            throw TLSError("the private key in \(keyFile) is not the key of the certificate in \(certificateFile)")
        }
        self.init(certificatePEM: certificatePEM, keyPEM: keyPEM)
    }

    init(certificatePEM: String, keyPEM: String) {
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
    }

    /// The text of the PEM file `file`, holding `what` (named in the error).
    static func read(_ file: String, what: String) throws(TLSError) -> String {
        guard FileManager.default.fileExists(atPath: file) else {
            throw TLSError("cannot read the \(what) file \(file): no such file")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw TLSError("cannot read the \(what) file \(file): \(error.localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN ") else {
            throw TLSError("\(file) is not a PEM \(what) (a text file with -----BEGIN lines)")
        }
        return text
    }
}
