import Foundation

/// An RSA key pair that the `openssl` command makes and signs with (a signer independent of the instance's
/// libcrypto calls), for JWT bearer assertions: its self-signed certificate and public key in PEM, and compact JWTs
/// signed RS256 with it.
public struct JWTSigner: Sendable {
    /// The directory of its own holding the key (``removeFiles()`` removes it).
    public let directory: URL
    /// The self-signed certificate of the key, in PEM, valid for a day from when it was made.
    public let certificatePEM: String
    /// The public key alone, in PEM (`BEGIN PUBLIC KEY`).
    public let publicKeyPEM: String
    /// The private key, in PEM (unencrypted PKCS#8, `BEGIN PRIVATE KEY`).
    public let privateKeyPEM: String
    private let keyFile: URL

    /// A new 2048-bit key named `name`, in a new temporary directory.
    public init(name: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("jwt-signer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        keyFile = directory.appendingPathComponent("\(name)-key.pem")
        let certificate = directory.appendingPathComponent("\(name).pem")
        try Self.openssl(
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", keyFile.path, "-out", certificate.path,
             "-days", "1", "-subj", "/CN=\(name)"], in: directory)
        certificatePEM = try String(contentsOf: certificate, encoding: .utf8)
        publicKeyPEM = try Self.openssl(["pkey", "-in", keyFile.path, "-pubout"], in: directory)
        privateKeyPEM = try String(contentsOf: keyFile, encoding: .utf8)
    }

    /// The compact JWT of `header` and `claims` (JSON texts), signed RS256 with this key whatever the header's
    /// `alg` says.
    public func sign(header: String, claims: String) throws -> String {
        let input = Self.base64URL(Data(header.utf8)) + "." + Self.base64URL(Data(claims.utf8))
        let message = directory.appendingPathComponent("message-\(UUID().uuidString)")
        let signature = directory.appendingPathComponent("signature-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: message)
            try? FileManager.default.removeItem(at: signature)
        }
        try Data(input.utf8).write(to: message)
        _ = try Self.openssl(
            ["dgst", "-sha256", "-sign", keyFile.path, "-out", signature.path, message.path], in: directory)
        return input + "." + Self.base64URL(try Data(contentsOf: signature))
    }

    /// The compact JWT of `header` and `claims` with an HMAC-SHA256 signature keyed by `secret` (what a client
    /// that takes a public key for an HS256 secret would send).
    public func signHS256(header: String, claims: String, secret: String) throws -> String {
        let input = Self.base64URL(Data(header.utf8)) + "." + Self.base64URL(Data(claims.utf8))
        let message = directory.appendingPathComponent("message-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: message) }
        try Data(input.utf8).write(to: message)
        let hexKey = secret.utf8.map { String(format: "%02x", $0) }.joined()
        try Self.openssl(
            ["dgst", "-sha256", "-mac", "HMAC", "-macopt", "hexkey:\(hexKey)", "-binary", "-out", message.path + ".mac",
             message.path], in: directory)
        let mac = try Data(contentsOf: URL(fileURLWithPath: message.path + ".mac"))
        try? FileManager.default.removeItem(atPath: message.path + ".mac")
        return input + "." + Self.base64URL(mac)
    }

    /// Removes the key's directory.
    public func removeFiles() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Unpadded base64url (RFC 7515 §2).
    public static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// What `openssl` printed; throws with its standard error when it fails.
    @discardableResult
    private static func openssl(_ arguments: [String], in directory: URL) throws -> String {
        let result = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/openssl"), arguments, environment: ["HOME": directory.path])
        guard result.status == 0 else {
            throw CocoaError(
                .executableLoad,
                userInfo: [NSLocalizedDescriptionKey: "openssl \(arguments.first ?? ""): \(result.stderr)"])
        }
        return result.stdout
    }
}
