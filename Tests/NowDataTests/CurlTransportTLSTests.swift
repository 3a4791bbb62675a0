import Foundation
import LocalInstance
@testable import NowData
import Testing

/// The libcurl transport over HTTPS to the local instance (in process, with the certificate authority that
/// `nowflow serve --tls` makes): a CA file, an unchecked certificate, a client certificate, and a service whose
/// configuration says so.
@Suite struct CurlTransportTLSTests {
    private static let authorization = "Basic " + Data("admin:admin".utf8).base64EncodedString()

    private static func read(_ path: String, fields: String, authorized: Bool = true) -> NowHTTPRequest {
        NowHTTPRequest(
            method: "GET", path: path,
            queryItems: [
                URLQueryItem(name: "sysparm_limit", value: "1"), URLQueryItem(name: "sysparm_fields", value: fields),
            ],
            headers: authorized
                ? ["Authorization": authorization, "Accept": "application/json"] : ["Accept": "application/json"])
    }

    /// A server over HTTPS (asking for client certificates of its own CA) and the folder of its certificates.
    private static func server() throws -> (
        server: LocalInstanceServer, authority: LocalCertificateAuthority, folder: URL
    ) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nowdata-tls-\(UUID().uuidString)")
        let authority = try LocalCertificateAuthority(directory: folder)
        let server = try LocalInstanceServer(
            tls: authority.identity, clientCertificateAuthorities: TLSClientAuthorities(file: authority.caFile.path),
            options: LocalInstance.Options(seedDemoData: false, log: { _ in }))
        return (server, authority, folder)
    }

    @Test func aCAFileIsTrustedTheSystemsAuthoritiesAloneAreNotAndInsecureChecksNothing() async throws {
        let (server, authority, folder) = try Self.server()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        let tlsURL = try #require(server.tlsURL)
        let url = try #require(URL(string: tlsURL))
        let request = Self.read("/api/now/table/sys_user", fields: "user_name")
        let trusted = CurlTransport(instanceURL: url, tls: NowTLSSettings(caFile: authority.caFile.path))
        let answer = try await trusted.send(request)
        #expect(String(decoding: answer.body, as: UTF8.self) == #"{"result":[{"user_name":"admin"}]}"#)

        await #expect { _ = try await CurlTransport(instanceURL: url).send(request) } throws: { error in
            guard case NetworkServiceError.systemError(let underlying as URLError) = error else { return false }
            return underlying.code == .serverCertificateUntrusted
        }
        let unchecked = CurlTransport(instanceURL: url, tls: NowTLSSettings(insecure: true))
        #expect(try await unchecked.send(request).statusCode == 200)
    }

    @Test func aClientCertificateLogsInAsTheUserItsRecordNames() async throws {
        let (server, authority, folder) = try Self.server()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        let tlsURL = try #require(server.tlsURL)
        let url = try #require(URL(string: tlsURL))
        // The server's own certificate, issued by the CA the server trusts for clients, serves as a client's.
        let certificate = folder.appendingPathComponent("server.pem").path
        let key = folder.appendingPathComponent("server-key.pem").path
        let base64 = authority.identity.certificatePEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = try #require(Data(base64Encoded: base64))
        var hasher = SHA256()
        hasher.update(der)
        let admin = CurlTransport(instanceURL: url, tls: NowTLSSettings(caFile: authority.caFile.path))
        let users = try await admin.send(Self.read("/api/now/table/sys_user", fields: "sys_id"))
        let adminID = try #require(
            String(decoding: users.body, as: UTF8.self).split(separator: "\"").dropFirst(5).first.map(String.init))
        var create = NowHTTPRequest(
            method: "POST", path: "/api/now/table/sys_user_certificate",
            headers: ["Authorization": Self.authorization, "Content-Type": "application/json"])
        create.body = Data(#"{"name":"client","fingerprint":"\#(hasher.finalizeHex())","user":"\#(adminID)"}"#.utf8)
        #expect(try await admin.send(create).statusCode == 201)

        let request = Self.read("/api/now/table/sys_user_certificate", fields: "name", authorized: false)
        let withCertificate = CurlTransport(
            instanceURL: url,
            tls: NowTLSSettings(caFile: authority.caFile.path, clientCertificateFile: certificate, clientKeyFile: key))
        let answer = try await withCertificate.send(request)
        #expect(String(decoding: answer.body, as: UTF8.self) == #"{"result":[{"name":"client"}]}"#)
        #expect(try await admin.send(request).statusCode == 401)

        // A service's configuration gives its transport the same settings.
        var configuration = NowServiceConfiguration(instanceURL: url)
        configuration.tls = NowTLSSettings(
            caFile: authority.caFile.path, clientCertificateFile: certificate, clientKeyFile: key)
        let service = NowTableService(configuration: configuration)
        let records = try await service.records(
            from: "sys_user_certificate",
            configuration: FetchConfiguration(
                limit: 1, readConfiguration: FieldReadConfiguration(includeFields: ["name"])))
        #expect(String(decoding: records, as: UTF8.self) == #"{"result":[{"name":"client"}]}"#)
    }
}
