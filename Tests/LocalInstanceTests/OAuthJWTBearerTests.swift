import Foundation
import NowData
import TestSupport
import Testing

@testable import LocalInstance

/// The JWT bearer grant (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`) against an `oauth_jwt`
/// application, its `jwt_verifier_map` and the `sys_certificate` it names, all registered through the Table API,
/// with assertions that the `openssl` command signs (``JWTSigner``); attacked as a client holding the wrong key, an
/// old or foreign assertion, or none of the algorithm the application trusts.
@Suite struct OAuthJWTBearerTests {
    static let clientID = "jwt-client"
    static let secret = "Jwt-Cl1ent-S3cret!"
    static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    private static let form = [("Content-Type", "application/x-www-form-urlencoded")]

    /// An instance (its clock at the real time, when the certificate is valid) with the application `jwt-client`
    /// whose verifier map `key-1` holds `pem` (the signer's certificate unless told), and the signers `jwt` and
    /// `other`.
    private struct Setup {
        let harness: Harness
        let signer: JWTSigner
        let other: JWTSigner
        let applicationID: String

        init(
            userField: String? = nil, pem: ((JWTSigner) -> String)? = nil,
            configure: (inout LocalInstance.Options) -> Void = { _ in }
        ) async throws {
            signer = try JWTSigner(name: "jwt")
            other = try JWTSigner(name: "other")
            harness = try Harness(configure: configure)
            harness.clock.advance(seconds: Date().timeIntervalSince(harness.clock.now) + 5)
            let certificate = try await Self.insert(
                harness, "sys_certificate", ["name": "jwt", "pem_certificate": (pem ?? { $0.certificatePEM })(signer)])
            var application = [
                "name": "JWT app", "client_id": OAuthJWTBearerTests.clientID,
                "client_secret": OAuthJWTBearerTests.secret,
            ]
            if let userField { application["user_field"] = userField }
            applicationID = try await Self.insert(harness, "oauth_jwt", application)
            _ = try await Self.insert(
                harness, "jwt_verifier_map",
                ["name": "key-1", "oauth_jwt": applicationID, "kid": "key-1", "sys_certificate": certificate])
        }

        /// Inserts a record as the admin; its sys_id.
        static func insert(_ harness: Harness, _ table: String, _ fields: [String: String]) async throws -> String {
            let body = String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
            let response = try await harness.send("POST", "/api/now/table/\(table)", body: body)
            #expect(response.statusCode == 201, "\(Harness.text(response))")
            return try #require(try Harness.result(response)["sys_id"] as? String)
        }

        var now: Int { Int(harness.clock.now.timeIntervalSince1970) }

        /// Removes the signers' files.
        func removeFiles() {
            signer.removeFiles()
            other.removeFiles()
        }

        /// The claims of an assertion for `sub` from `jwt-client`, expiring in five minutes, with a new `jti`, with
        /// `changes` (a nil value leaves the claim out).
        func claims(sub: String = "itil", _ changes: [String: Any?] = [:]) -> String {
            var claims: [String: Any] = [
                "iss": OAuthJWTBearerTests.clientID, "aud": OAuthJWTBearerTests.clientID, "sub": sub,
                "iat": now, "exp": now + 300, "jti": UUID().uuidString,
            ]
            for (name, value) in changes { claims[name] = value }
            let data = try? JSONSerialization.data(withJSONObject: claims, options: .sortedKeys)
            return String(decoding: data ?? Data(), as: UTF8.self)
        }

        /// An assertion for `sub` signed by `signer` (the mapped key unless told), its header naming `kid`.
        func assertion(
            sub: String = "itil", _ changes: [String: Any?] = [:], kid: String? = "key-1", by signer: JWTSigner? = nil
        ) throws -> String {
            let header = kid.map { #"{"alg":"RS256","kid":"\#($0)","typ":"JWT"}"# } ?? #"{"alg":"RS256","typ":"JWT"}"#
            return try (signer ?? self.signer).sign(header: header, claims: claims(sub: sub, changes))
        }

        /// `POST /oauth_token.do` with the grant, the client and `assertion` in the form (or, for `header`, in an
        /// `Authentication: Bearer` header, as PySNC sends it).
        func exchange(
            _ assertion: String?, header: Bool = false, client: String = OAuthJWTBearerTests.clientID,
            secret: String = OAuthJWTBearerTests.secret
        ) async throws -> NowHTTPResponse {
            var fields = [
                ("grant_type", OAuthJWTBearerTests.grantType), ("client_id", client), ("client_secret", secret),
            ]
            var headers = OAuthJWTBearerTests.form
            if let assertion {
                if header { headers.append(("Authentication", "Bearer \(assertion)")) } else {
                    fields.append(("assertion", assertion))
                }
            }
            return try await harness.send(
                "POST", "/oauth_token.do",
                body: fields.map { "\($0.0)=\(WebForm.encode($0.1))" }.joined(separator: "&"), headers: headers)
        }
    }

    private static func grantError(_ description: String) -> String {
        #"{"error_description":"\#(description)","error":"invalid_grant"}"#
    }

    @Test func anAssertionSignedByTheMappedKeyGetsAnAccessTokenForItsSubjectAndNoRefreshToken() async throws {
        let setup = try await Setup()
        defer { setup.removeFiles() }
        for header in [false, true] {
            let granted = try await setup.exchange(try setup.assertion(), header: header)
            #expect(granted.statusCode == 200, "\(Harness.text(granted))")
            let body = try Harness.json(granted)
            #expect(body.keys.sorted() == ["access_token", "expires_in", "scope", "token_type"])
            #expect(body["scope"] as? String == "useraccount")
            #expect(body["token_type"] as? String == "Bearer")
            #expect(body["expires_in"] as? Int == 1799)
            let access = try #require(body["access_token"] as? String)
            let created = try await setup.harness.send(
                "POST", "/api/now/table/incident", query: [("sysparm_fields", "sys_created_by")],
                body: #"{"short_description":"by JWT"}"#,
                headers: [("Authorization", "Bearer \(access)"), ("Content-Type", "application/json")])
            #expect(Harness.text(created) == #"{"result":{"sys_created_by":"itil"}}"#)
        }
        #expect(
            setup.harness.log.all.filter { $0.contains("JWT") }.isEmpty,
            "a grant that succeeds logs no refusal")
    }

    @Test func eachRefusalSaysWhatWasWrongAndGivesNoToken() async throws {
        let setup = try await Setup()
        defer { setup.removeFiles() }
        let itil = DemoData.sysID("sys_user", "itil")
        let signed = { (header: String, claims: String) throws -> String in
            try setup.signer.sign(header: header, claims: claims)
        }
        let unsignedNone = JWTSigner.base64URL(Data(#"{"alg":"none","kid":"key-1"}"#.utf8)) + "."
            + JWTSigner.base64URL(Data(setup.claims().utf8)) + "."
        let cases: [(String, String?, String)] = [
            ("no assertion", nil, "the request has no assertion (assertion)"),
            ("two parts", "abc.def", "the assertion is not a signed JWT: it has 2 parts, not header.claims.signature"),
            ("padded header", "eyJhbGciOiJSUzI1NiJ9==.e30.c2ln", "the assertion's header is not base64url"),
            ("header not JSON", "bm90IGpzb24.e30.c2ln", "the assertion's header is not a JSON object"),
            ("alg none", unsignedNone, "the assertion's algorithm (alg) is none: only RS256 is accepted"),
            (
                "HS256 with the public key as its secret",
                try setup.signer.signHS256(
                    header: #"{"alg":"HS256","kid":"key-1"}"#, claims: setup.claims(),
                    secret: setup.signer.publicKeyPEM),
                "the assertion's algorithm (alg) is HS256: only RS256 is accepted"
            ),
            (
                "no alg", try signed(#"{"kid":"key-1"}"#, setup.claims()),
                "the assertion's header names no algorithm (alg)"
            ),
            (
                "crit", try signed(#"{"alg":"RS256","kid":"key-1","crit":["exp"]}"#, setup.claims()),
                "the assertion's header has critical extensions (crit), which are not understood"
            ),
            (
                "unknown kid", try setup.assertion(kid: "key-2"),
                "no verifier map (jwt_verifier_map) of the application has the assertion's key id (kid)"
            ),
            (
                "no kid", try setup.assertion(kid: nil),
                "the assertion's header names no key id (kid), and every verifier map of the application names one"
            ),
            (
                "another key's signature", try setup.assertion(by: setup.other),
                "the assertion's signature cannot be verified: the signature does not verify with the key of its "
                    + "verifier map"
            ),
            (
                "claims changed after signing",
                try {
                    let parts = try setup.assertion().split(separator: ".").map(String.init)
                    let forged = JWTSigner.base64URL(Data(setup.claims(sub: "beth.anglin").utf8))
                    return [parts[0], forged, parts[2]].joined(separator: ".")
                }(),
                "the assertion's signature cannot be verified: the signature does not verify with the key of its "
                    + "verifier map"
            ),
            (
                "another issuer", try setup.assertion(["iss": "someone-else"]),
                "the assertion's issuer (iss) is not the application's client_id"
            ),
            (
                "another audience", try setup.assertion(["aud": "https://elsewhere.example.com/oauth_token.do"]),
                "the assertion's audience (aud) is not the application's client_id"
            ),
            ("no exp", try setup.assertion(["exp": nil]), "the assertion has no expiry (exp, a NumericDate)"),
            ("expired past the skew", try setup.assertion(["exp": setup.now - 301]), "the assertion has expired (exp)"),
            (
                "not valid yet past the skew", try setup.assertion(["nbf": setup.now + 301]),
                "the assertion is not valid yet (nbf)"
            ),
            ("no sub", try setup.assertion(["sub": nil]), "the assertion names no user (sub)"),
            (
                "unknown user", try setup.assertion(sub: "nobody"),
                "no user has the assertion's subject (sub) as user_name"
            ),
            ("an administrator", try setup.assertion(sub: "admin"), "Grant access to admin is not allowed"),
            (
                "no jti", try setup.assertion(["jti": nil]),
                "the assertion has no JWT ID (jti), which the application verifies"
            ),
        ]
        for (name, assertion, description) in cases {
            let refused = try await setup.exchange(assertion)
            #expect(refused.statusCode == 400, "\(name)")
            #expect(Harness.text(refused) == Self.grantError(description), "\(name)")
        }

        let once = try setup.assertion()
        #expect(try await setup.exchange(once).statusCode == 200)
        let replayed = try await setup.exchange(once)
        #expect(Harness.text(replayed) == Self.grantError("the assertion was already used (jti)"))

        let cannotLogIn = "the user the assertion names cannot log in (inactive or locked out)"
        for (change, description) in [
            (#"{"active":"false"}"#, cannotLogIn), (#"{"active":"true","locked_out":"true"}"#, cannotLogIn),
        ] {
            let patched = try await setup.harness.send("PATCH", "/api/now/table/sys_user/\(itil)", body: change)
            #expect(patched.statusCode == 200)
            let refused = try await setup.exchange(try setup.assertion())
            #expect(Harness.text(refused) == Self.grantError(description), "\(change)")
        }
        #expect(
            setup.harness.log.all.filter { $0.contains("JWT bearer grant") }.last
                == "local instance: JWT bearer grant of OAuth client 'jwt-client' refused: the user the assertion "
                + "names cannot log in (inactive or locked out)")
    }

    /// Headers and encodings an attacker controls: each refused with a reason that repeats none of the header's
    /// values (an `alg` that JWS does not define is not named), and an empty signature is handed to libcrypto
    /// safely.
    @Test func hostileHeadersAndEncodingsAreRefusedWithoutRepeatingThem() async throws {
        let setup = try await Setup()
        defer { setup.removeFiles() }
        let encoded = { (header: String) in
            JWTSigner.base64URL(Data(header.utf8)) + "." + JWTSigner.base64URL(Data(setup.claims().utf8))
        }
        let signed = try setup.assertion()
        let signature = try #require(signed.split(separator: ".").last)
        let unknownAlgorithm = "the assertion's algorithm (alg) is not one JWS defines: only RS256 is accepted"
        let cases: [(String, String, String)] = [
            (
                "an alg with a forged log line", encoded(#"{"alg":"RS256\nlocal instance: granted","kid":"key-1"}"#) + ".\(signature)",
                unknownAlgorithm
            ),
            ("a long alg", encoded(#"{"alg":"\#(String(repeating: "A", count: 4_000))","kid":"key-1"}"#) + ".\(signature)", unknownAlgorithm),
            ("an alg that is a number", encoded(#"{"alg":256,"kid":"key-1"}"#) + ".\(signature)", unknownAlgorithm),
            ("alg ES256", encoded(#"{"alg":"ES256","kid":"key-1"}"#) + ".\(signature)", "the assertion's algorithm (alg) is ES256: only RS256 is accepted"),
            ("a kid that is a number", encoded(#"{"alg":"RS256","kid":1}"#) + ".\(signature)", "the assertion's key id (kid) is not a string"),
            (
                "an empty signature", encoded(#"{"alg":"RS256","kid":"key-1"}"#) + ".",
                "the assertion's signature cannot be verified: the signature does not verify with the key of its "
                    + "verifier map"
            ),
            ("a signature with a character outside base64url", encoded(#"{"alg":"RS256","kid":"key-1"}"#) + ".ab+/", "the assertion's signature is not base64url"),
            (
                "an assertion longer than 16 KB", encoded(#"{"alg":"RS256","kid":"key-1","x":"\#(String(repeating: "x", count: 13_000))"}"#) + ".\(signature)",
                "the assertion is longer than 16384 bytes"
            ),
        ]
        for (name, assertion, description) in cases {
            let refused = try await setup.exchange(assertion)
            #expect(refused.statusCode == 400, "\(name)")
            #expect(Harness.text(refused) == Self.grantError(description), "\(name)")
        }
        let refusals = setup.harness.log.all.filter { $0.contains("JWT bearer grant") }
        #expect(refusals.count == cases.count)
        #expect(!refusals.contains { $0.contains("granted") || $0.contains("AAAA") })
    }

    @Test func theClientMustBeAnActiveOAuthJWTApplicationWithItsSecret() async throws {
        let setup = try await Setup()
        defer { setup.removeFiles() }
        let assertion = try setup.assertion()
        let wrongSecret = try await setup.exchange(assertion, secret: "wrong")
        #expect(wrongSecret.statusCode == 401)
        #expect(Harness.text(wrongSecret) == #"{"error_description":"access_denied","error":"server_error"}"#)
        _ = try await Setup.insert(
            setup.harness, "oauth_entity", ["name": "plain", "client_id": "plain", "client_secret": "pl4in"])
        let plain = try await setup.exchange(assertion, client: "plain", secret: "pl4in")
        #expect(plain.statusCode == 401)
        #expect(
            Harness.text(plain)
                == #"{"error_description":"the JWT bearer grant needs an active OAuth JWT application (oauth_jwt) and "#
                + #"its client_secret","error":"invalid_client"}"#)
        let deactivated = try await setup.harness.send(
            "PATCH", "/api/now/table/oauth_jwt/\(setup.applicationID)", body: #"{"active":"false"}"#)
        #expect(deactivated.statusCode == 200)
        #expect(try await setup.exchange(assertion).statusCode == 401)
    }

    @Test func aPublicKeyInPlaceOfACertificateAndAnEmailUserFieldWithinTheClockSkew() async throws {
        let setup = try await Setup(userField: "email", pem: { $0.publicKeyPEM })
        defer { setup.removeFiles() }
        let assertion = try setup.assertion(
            sub: "beth.anglin@example.com", ["exp": setup.now - 200, "nbf": setup.now + 200])
        let granted = try await setup.exchange(assertion)
        #expect(granted.statusCode == 200, "\(Harness.text(granted))")
        let access = try #require(try Harness.json(granted)["access_token"] as? String)
        let created = try await setup.harness.send(
            "POST", "/api/now/table/incident", query: [("sysparm_fields", "sys_created_by")],
            body: #"{"short_description":"by JWT"}"#,
            headers: [("Authorization", "Bearer \(access)"), ("Content-Type", "application/json")])
        #expect(Harness.text(created) == #"{"result":{"sys_created_by":"beth.anglin"}}"#)
        let byUserName = try await setup.exchange(try setup.assertion(sub: "beth.anglin"))
        #expect(Harness.text(byUserName) == Self.grantError("no user has the assertion's subject (sub) as email"))
    }

    @Test func aCertificateOutOfDateOrNotInPEMVerifiesNothing() async throws {
        let setup = try await Setup()
        defer { setup.removeFiles() }
        setup.harness.clock.advance(seconds: 2 * 86_400)
        let late = try await setup.exchange(try setup.assertion())
        #expect(
            Harness.text(late)
                == Self.grantError("the assertion's signature cannot be verified: its certificate is not valid now"))
        let maps = try await setup.harness.send(
            "GET", "/api/now/table/sys_certificate", query: [("sysparm_fields", "sys_id")])
        let certificate = try #require(try Harness.results(maps).first?["sys_id"] as? String)
        let garbled = try await setup.harness.send(
            "PATCH", "/api/now/table/sys_certificate/\(certificate)", body: #"{"pem_certificate":"not a certificate"}"#)
        #expect(garbled.statusCode == 200)
        let refused = try await setup.exchange(try setup.assertion())
        #expect(
            Harness.text(refused)
                == Self.grantError(
                    "the assertion's signature cannot be verified: its certificate's pem_certificate holds no "
                        + "certificate or public key in PEM"))
    }

    /// An application's client secret stored with fewer rounds than the instance's is stored anew, in `oauth_jwt`
    /// where the record is, by the next exchange that verifies it.
    @Test func aWeakerClientSecretIsUpgradedInTheApplicationsOwnTable() async throws {
        let setup = try await Setup(configure: { $0.passwordIterations = Harness.passwordIterations * 2 })
        defer { setup.removeFiles() }
        let instance = setup.harness.instance
        let applications = try #require(instance.dictionary.table("oauth_jwt"))
        let stored = {
            try instance.database.read { db in
                try instance.store.fetch(applications, sysID: setup.applicationID, db)?["client_secret"] ?? ""
            }
        }
        _ = try instance.database.write { db in
            try instance.store.update(
                applications, sysID: setup.applicationID,
                ["client_secret": PasswordHash.make(Self.secret, iterations: Harness.passwordIterations)], db)
        }
        #expect(try stored().hasPrefix("pbkdf2-sha256$\(Harness.passwordIterations)$"))
        #expect(try await setup.exchange(try setup.assertion()).statusCode == 200)
        #expect(try stored().hasPrefix("pbkdf2-sha256$\(Harness.passwordIterations * 2)$"))
        #expect(PasswordHash.verify(Self.secret, against: try stored()))
    }

    /// Over HTTP, with the server's log: neither the assertion (whole or any of its parts) nor the client secret
    /// appears in any answer or log line, in any encoding, whether the grant succeeds or is refused.
    @Test func noAnswerOrLogLineRepeatsTheAssertionOrTheSecret() async throws {
        let signer = try JWTSigner(name: "jwt")
        let other = try JWTSigner(name: "other")
        defer {
            signer.removeFiles()
            other.removeFiles()
        }
        let log = LogLines()
        let server = try LocalInstanceServer(
            options: LocalInstance.Options(adminPassword: "secret", log: log.sink, passwordIterations: 1_000))
        defer { server.stop() }
        var answers: [(request: String, text: String)] = []
        func send(_ target: String, _ headers: [String: String], body: String, contentType: String) async throws
            -> RawHTTPClient.Reply
        {
            var head = "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n"
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            head += "Content-Type: \(contentType)\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
            let reply = try await RawHTTPClient.exchangeOnItsOwnThread(Array((head + body).utf8), port: server.port)
            answers.append((target, reply.head + "\n" + reply.body))
            return reply
        }
        let admin = ["Authorization": Harness.adminAuth]
        func insert(_ table: String, _ fields: [String: String]) async throws -> String {
            let body = String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
            let reply = try await send("/api/now/table/\(table)", admin, body: body, contentType: "application/json")
            #expect(reply.status == 201)
            let object = try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any]
            return try #require((object?["result"] as? [String: Any])?["sys_id"] as? String)
        }
        let certificate = try await insert("sys_certificate", ["name": "jwt", "pem_certificate": signer.certificatePEM])
        let application = try await insert(
            "oauth_jwt", ["name": "JWT app", "client_id": Self.clientID, "client_secret": Self.secret])
        _ = try await insert(
            "jwt_verifier_map", ["name": "k", "oauth_jwt": application, "kid": "key-1", "sys_certificate": certificate])

        let now = Int(Date().timeIntervalSince1970)
        func claims(_ changes: [String: Any]) -> String {
            var claims: [String: Any] = [
                "iss": Self.clientID, "aud": Self.clientID, "sub": "itil", "exp": now + 300, "jti": UUID().uuidString,
            ]
            claims.merge(changes) { $1 }
            return String(decoding: (try? JSONSerialization.data(withJSONObject: claims)) ?? Data(), as: UTF8.self)
        }
        let header = #"{"alg":"RS256","kid":"key-1"}"#
        let assertions = [
            try signer.sign(header: header, claims: claims([:])),
            try signer.sign(header: header, claims: claims(["exp": now - 1_000])),
            try other.sign(header: header, claims: claims([:])),
            try signer.sign(header: #"{"alg":"RS256","kid":"nope"}"#, claims: claims([:])),
            try signer.sign(header: header, claims: claims(["sub": "admin"])),
        ]
        var statuses: [Int] = []
        for assertion in assertions {
            for secret in [Self.secret, "wrong-secret"] {
                let fields = [
                    ("grant_type", Self.grantType), ("client_id", Self.clientID), ("client_secret", secret),
                    ("assertion", assertion),
                ]
                let form = fields.map { "\($0.0)=\(WebForm.encode($0.1))" }.joined(separator: "&")
                statuses.append(
                    try await send("/oauth_token.do", [:], body: form, contentType: "application/x-www-form-urlencoded")
                        .status)
                let headerForm = fields.dropLast().map { "\($0.0)=\(WebForm.encode($0.1))" }.joined(separator: "&")
                statuses.append(
                    try await send(
                        "/oauth_token.do", ["Authentication": "Bearer \(assertion)"], body: headerForm,
                        contentType: "application/x-www-form-urlencoded"
                    ).status)
            }
        }
        // The first assertion's second exchange (in the header) is a replay of its first.
        #expect(statuses == [200, 400, 401, 401] + Array(repeating: [400, 400, 401, 401], count: 4).flatMap { $0 })
        #expect(log.all.contains { $0.contains("JWT bearer grant of OAuth client 'jwt-client' refused") })

        var needles: [String: String] = [:]
        for secret in assertions.flatMap({ [$0] + $0.split(separator: ".").map(String.init) }) + [Self.secret] {
            let name = "\(secret.prefix(6))…"
            needles[secret] = "plain \(name)"
            needles[Data(secret.utf8).base64EncodedString()] = "base64 of \(name)"
            needles[secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret] =
                "percent-encoded \(name)"
            needles[WebForm.encode(secret)] = "form-encoded \(name)"
        }
        for (needle, name) in needles {
            for answer in answers where answer.text.contains(needle) {
                Issue.record("\(name) appears in the answer to \(answer.request): \(answer.text.prefix(300))")
            }
            for line in log.all where line.contains(needle) {
                Issue.record("\(name) appears in the log line: \(line.prefix(300))")
            }
        }
    }
}
