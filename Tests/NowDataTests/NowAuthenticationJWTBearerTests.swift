import Foundation
import LocalInstance
import NowData
import TestSupport
import Testing

/// ``NowAuthentication/jwtBearer(clientID:clientSecret:privateKeyPEM:keyID:subject:)`` against the local instance:
/// the service signs its own assertions with a key the `openssl` command made, and the instance's `oauth_jwt`
/// application verifies them with the key's certificate.
@Suite struct NowAuthenticationJWTBearerTests {
    private static let admin = "Basic " + Data("admin:admin".utf8).base64EncodedString()

    /// Inserts a record as the admin; its sys_id.
    private func insert(_ instance: LocalInstance, _ table: String, _ fields: [String: String]) async throws -> String {
        let response = try await instance.transport.send(
            NowHTTPRequest(
                method: "POST", path: "/api/now/table/\(table)",
                headers: HTTPHeaders([("Authorization", Self.admin), ("Content-Type", "application/json")]),
                body: try JSONSerialization.data(withJSONObject: fields)))
        #expect(response.statusCode == 201)
        return try #require(try JSONValue(json: response.body)["result"]?["sys_id"]?.string)
    }

    /// An instance with demo data and the application `sdk` (secret `Sdk-S3cret`) whose verifier map `sdk-key`
    /// holds the certificate of `signer`.
    private func instance(trusting signer: JWTSigner) async throws -> LocalInstance {
        let instance = try makeLocalInstance(seedDemoData: true)
        let certificate = try await insert(
            instance, "sys_certificate", ["name": "sdk", "pem_certificate": signer.certificatePEM])
        let application = try await insert(
            instance, "oauth_jwt", ["name": "SDK", "client_id": "sdk", "client_secret": "Sdk-S3cret"])
        _ = try await insert(
            instance, "jwt_verifier_map",
            ["name": "sdk", "oauth_jwt": application, "kid": "sdk-key", "sys_certificate": certificate])
        return instance
    }

    private static func authentication(_ privateKeyPEM: String) -> NowAuthentication {
        .jwtBearer(
            clientID: "sdk", clientSecret: "Sdk-S3cret", privateKeyPEM: privateKeyPEM, keyID: "sdk-key",
            subject: "itil")
    }

    @Test func theServiceSignsAnAssertionTheInstanceTakesAndActsAsItsSubject() async throws {
        let signer = try JWTSigner(name: "sdk")
        defer { signer.removeFiles() }
        let instance = try await instance(trusting: signer)
        defer { instance.close() }
        let service = makeService(on: instance, authentication: Self.authentication(signer.privateKeyPEM))
        let created = try await service.createRecord(
            with: ["short_description": "by the SDK's JWT"], in: "incident",
            configuration: FieldReadConfiguration(includeFields: ["sys_created_by"]))
        #expect(String(decoding: created, as: UTF8.self) == #"{"result":{"sys_created_by":"itil"}}"#)
        let read = try await service.records(from: "incident", configuration: FetchConfiguration(limit: 1))
        #expect(try JSONValue(json: read)["result"]?.array?.count == 1)
    }

    @Test func aKeyTheInstanceDoesNotTrustOrNoKeyAtAllIsAnAccessTokenError() async throws {
        let signer = try JWTSigner(name: "sdk")
        let stranger = try JWTSigner(name: "stranger")
        defer {
            signer.removeFiles()
            stranger.removeFiles()
        }
        let instance = try await instance(trusting: signer)
        defer { instance.close() }
        await #expect {
            _ = try await makeService(on: instance, authentication: Self.authentication(stranger.privateKeyPEM))
                .records(from: "incident")
        } throws: { error in
            guard case NowDataError.accessToken(.userSessionError(let cause)) = error else { return false }
            return "\(cause)".contains("400")
        }
        await #expect {
            _ = try await makeService(on: instance, authentication: Self.authentication(signer.publicKeyPEM))
                .records(from: "incident")
        } throws: { error in
            guard case NowDataError.accessToken(.userSessionError(let cause)) = error else { return false }
            return "\(cause)" == "the JWT bearer grant's private key is not an unencrypted RSA private key in PEM"
        }
    }

    @Test func itsDescriptionNeverShowsTheSecretOrTheKey() {
        let authentication = NowAuthentication.jwtBearer(
            clientID: "sdk", clientSecret: "Sdk-S3cret", privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nMIIsecret",
            keyID: "sdk-key", subject: "itil")
        var dumped = ""
        dump(authentication, to: &dumped)
        #expect(
            "\(authentication)"
                == "jwtBearer(clientID: sdk, clientSecret: <redacted>, privateKeyPEM: <redacted>, keyID: sdk-key, "
                + "subject: itil)")
        for text in ["\(authentication)", String(reflecting: authentication), dumped] {
            #expect(!text.contains("Sdk-S3cret"))
            #expect(!text.contains("MIIsecret"))
        }
    }
}
