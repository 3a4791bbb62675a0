import Foundation
import LocalInstance
import NowData
import Testing

/// A run through a profile of `~/.nowflow/config.yaml` that reaches the local instance over HTTPS: trusting its CA
/// file (`ca_file`), not trusting it, not checking it (`insecure`, with its warning), and logging in with a client
/// certificate (`client_cert`, `client_key`).
@Suite struct RunOverHTTPSTests {
    @Test func aProfilesTLSKeysDecideWhetherTheInstanceIsTrustedAndWhoTheClientIs() throws {
        let home = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let certificates = home.appendingPathComponent("certificates")
        let authority = try LocalCertificateAuthority(directory: certificates)
        let server = try LocalInstanceServer(
            tls: authority.identity, clientCertificateAuthorities: TLSClientAuthorities(file: authority.caFile.path),
            options: LocalInstance.Options(adminPassword: "pw", seedDemoData: false, log: { _ in }))
        defer { server.stop() }
        // The server's certificate, issued by the CA it trusts for clients, serves as the client's; its record
        // names the admin.
        let base64 = authority.identity.certificatePEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }
            .joined()
        var hasher = SHA256()
        hasher.update(try #require(Data(base64Encoded: base64)))
        let admins = server.instance.reply(
            to: NowHTTPRequest(
                method: "GET", path: "/api/now/table/sys_user",
                queryItems: [URLQueryItem(name: "sysparm_query", value: "user_name=admin")],
                headers: ["Authorization": "Basic " + Data("admin:pw".utf8).base64EncodedString()]))
        guard case .respond(let found, _) = admins else { throw TLSError("no answer") }
        let adminID = try #require(
            String(decoding: found.body, as: UTF8.self).components(separatedBy: #""sys_id":""#).dropFirst().first?
                .prefix(32))
        var create = NowHTTPRequest(
            method: "POST", path: "/api/now/table/sys_user_certificate",
            headers: [
                "Authorization": "Basic " + Data("admin:pw".utf8).base64EncodedString(),
                "Content-Type": "application/json",
            ])
        create.body = Data(#"{"name":"runner","fingerprint":"\#(hasher.finalizeHex())","user":"\#(adminID)"}"#.utf8)
        guard case .respond(let created, _) = server.instance.reply(to: create) else { throw TLSError("no answer") }
        #expect(created.statusCode == 201)

        let port = try #require(server.tlsPort)
        let url = "https://localhost:\(port)"
        let ca = authority.caFile.path
        let folder = home.appendingPathComponent(".nowflow")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
            profiles:
              trusted: { url: "\(url)", ca_file: "\(ca)" }
              untrusted: { url: "\(url)" }
              unchecked: { url: "\(url)", insecure: true }
              certificate:
                url: "\(url)"
                ca_file: "\(ca)"
                client_cert: ../certificates/server.pem
                client_key: ../certificates/server-key.pem
            """.write(to: folder.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        try """
            name: Over HTTPS
            steps:
              - id: mappings
                query: { table: sys_user_certificate, fields: [name] }
              - assert: "steps.mappings.count == 1"
            """.write(to: home.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let basic = ["NOW_USER": "admin", "NOW_PASSWORD": "pw"]
        func run(_ profile: String, _ environment: [String: String]) throws -> ToolInvocation {
            try ToolInvocation.run(
                ["run", "job.yaml", "--instance", profile, "--quiet"], in: home, environment: environment)
        }

        let trusted = try run("trusted", basic)
        #expect(trusted.status == 0, "\(trusted.stderr)")
        let untrusted = try run("untrusted", basic)
        #expect(untrusted.status == 3)
        #expect(
            untrusted.stderr.hasPrefix(
                "FAIL step 1 'mappings' (query): network error: system error: the TLS certificate of localhost:"
                    + "\(port) is not trusted (for an instance with its own CA, give its CA file: "
                    + "NowTLSSettings.caFile, a profile's ca_file) ("),
            "\(untrusted.stderr)")
        let unchecked = try run("unchecked", basic)
        #expect(unchecked.status == 0, "\(unchecked.stderr)")
        #expect(
            unchecked.stderr.hasPrefix(
                "nowflow: WARNING: profile unchecked has insecure: true: the certificate of \(url) is not checked, so "
                    + "anyone on the way can read and change every request, credentials included\n"))
        #expect(!trusted.stderr.contains("WARNING"))
        // No credentials but the client certificate, whose record names the admin (who alone reads the records).
        let certificate = try run("certificate", [:])
        #expect(certificate.status == 0, "\(certificate.stderr)")
        // A file that does not exist is an error of the config file, pointing at it.
        try """
            profiles:
              missing: { url: "\(url)", ca_file: nowhere.pem }
            """.write(to: folder.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        let missing = try run("missing", basic)
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains(
                "profile missing: ca_file 'nowhere.pem' does not exist (\(folder.path)/nowhere.pem)"),
            "\(missing.stderr)")
    }
}
