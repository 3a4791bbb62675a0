internal import CCrypto
import Foundation
#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The certificate authority that `nowflow serve --tls` makes for itself, once, and the server certificate it
/// issues, so that clients trust the server by trusting one CA file.
///
/// The folder holds `ca.pem` (the CA's certificate, the file to trust), `ca-key.pem`, `server.pem`,
/// `server-key.pem` and `server-names.txt` (the names the server certificate was issued for); the folder is
/// private to its user (0700) and so is every file (0600). The CA (ECDSA P-256, ten years) is made when
/// `ca.pem` or `ca-key.pem` is missing; the server certificate (ECDSA P-256, 825 days, the longest that Apple's
/// clients accept) is issued again when it is missing, was issued by another CA, is for other names or expires
/// within 30 days.
///
/// ```swift
/// let authority = try LocalCertificateAuthority(directory: folder, names: ["dev.example"])
/// print("trust \(authority.caFile.path)")
/// let listener = try HTTPListener(port: 8443, tls: authority.identity) { ... }
/// ```
public struct LocalCertificateAuthority: Sendable {
    /// The names every server certificate is issued for, before the names asked for.
    public static let defaultNames = ["localhost", "127.0.0.1", "::1"]

    /// The CA's certificate (PEM): the file clients trust.
    public let caFile: URL
    /// The server's certificate and key.
    public let identity: TLSIdentity
    /// The names (DNS names and IP addresses) the server certificate is for.
    public let names: [String]
    /// Whether the CA was made now (clients that trusted an earlier `ca.pem` must trust the new one).
    public let madeAuthority: Bool

    /// Makes or reuses the CA in `directory` (created, 0700, when missing) and issues a server certificate for
    /// ``defaultNames`` and `names` when need be.
    ///
    /// - parameter names: more DNS names (such as `dev.example` or `*.dev.example`) and IP addresses.
    /// - throws: ``TLSError`` naming the file or step that failed.
    public init(directory: URL, names: [String] = []) throws(TLSError) {
        var all: [String] = []
        for name in Self.defaultNames + names where !all.contains(name.lowercased()) { all.append(name.lowercased()) }
        try Self.makePrivate(directory)
        let file = { (name: String) in directory.appendingPathComponent(name) }
        caFile = file("ca.pem")
        self.names = all
        var authority = try? (
            certificate: X509Certificate(pem: Self.text(of: file("ca.pem")), source: "ca.pem"),
            key: PrivateKey(pem: Self.text(of: file("ca-key.pem")), source: "ca-key.pem")
        )
        if let existing = authority,
            !existing.certificate.matches(existing.key) || !existing.certificate.isValid(for: .seconds(86_400))
        {
            authority = nil
        }
        madeAuthority = authority == nil
        let ca: (certificate: X509Certificate, key: PrivateKey)
        if let authority { ca = authority } else { ca = try Self.makeAuthority(in: directory) }
        let namesText = all.joined(separator: "\n") + "\n"
        if !madeAuthority, (try? Self.text(of: file("server-names.txt"))) == namesText,
            let certificatePEM = try? Self.text(of: file("server.pem")),
            let keyPEM = try? Self.text(of: file("server-key.pem")),
            let certificate = try? X509Certificate(pem: certificatePEM, source: "server.pem"),
            let key = try? PrivateKey(pem: keyPEM, source: "server-key.pem"), certificate.matches(key),
            certificate.isValid(for: .seconds(30 * 86_400)),
            X509_check_issued(ca.certificate.pointer, certificate.pointer) == X509_V_OK
        {
            identity = TLSIdentity(certificatePEM: certificatePEM, keyPEM: keyPEM)
            return
        }
        let key = try PrivateKey.generate()
        let alternativeNames = all.map { Self.isAddress($0) ? "IP:\($0)" : "DNS:\($0)" }.joined(separator: ",")
        let certificate = try X509Certificate(
            commonName: names.first?.lowercased() ?? "localhost", key: key, issuer: ca, days: 825,
            extensions: [
                (NID_basic_constraints, "critical,CA:FALSE"),
                (NID_key_usage, "critical,digitalSignature"),
                (NID_ext_key_usage, "serverAuth"),
                (NID_subject_key_identifier, "hash"),
                (NID_authority_key_identifier, "keyid:always"),
                (NID_subject_alt_name, alternativeNames),
            ])
        identity = TLSIdentity(certificatePEM: try certificate.pem(), keyPEM: try key.pem())
        try Self.writePrivately(identity.keyPEM, to: file("server-key.pem"))
        try Self.writePrivately(identity.certificatePEM, to: file("server.pem"))
        try Self.writePrivately(namesText, to: file("server-names.txt"))
    }

    /// A new CA, written to `ca-key.pem` and `ca.pem` in `directory`.
    private static func makeAuthority(in directory: URL) throws(TLSError) -> (
        certificate: X509Certificate, key: PrivateKey
    ) {
        let key = try PrivateKey.generate()
        let certificate = try X509Certificate(
            commonName: "nowflow local instance CA", key: key, issuer: nil, days: 3_650,
            extensions: [
                (NID_basic_constraints, "critical,CA:TRUE,pathlen:0"),
                (NID_key_usage, "critical,keyCertSign,cRLSign"),
                (NID_subject_key_identifier, "hash"),
            ])
        try writePrivately(try key.pem(), to: directory.appendingPathComponent("ca-key.pem"))
        try writePrivately(try certificate.pem(), to: directory.appendingPathComponent("ca.pem"))
        return (certificate, key)
    }

    /// Whether `name` is an IPv4 or IPv6 address rather than a DNS name.
    public static func isAddress(_ name: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, name, &address) == 1 || inet_pton(AF_INET6, name, &address) == 1
    }

    private static func text(of file: URL) throws -> String {
        try String(contentsOf: file, encoding: .utf8)
    }

    /// Creates `directory` (and its parents) when missing and makes it private to its user.
    private static func makePrivate(_ directory: URL) throws(TLSError) {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw TLSError("cannot create \(directory.path): \(error.localizedDescription)")
        }
        guard chmod(directory.path, 0o700) == 0 else {
            throw TLSError("cannot make \(directory.path) private (0700): \(String(cString: strerror(errno)))")
        }
    }

    /// Writes `text` to `file` through a new file that only its user can read (0600) renamed over it, so that a
    /// reader never sees half a key.
    private static func writePrivately(_ text: String, to file: URL) throws(TLSError) {
        let temporary = file.path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw TLSError("cannot write \(file.path): \(String(cString: strerror(errno)))")
        }
        let bytes = Array(text.utf8)
        _ = fchmod(descriptor, 0o600)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let closed = close(descriptor)
        guard written == bytes.count, closed == 0, rename(temporary, file.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw TLSError("cannot write \(file.path): \(reason)")
        }
    }
}
