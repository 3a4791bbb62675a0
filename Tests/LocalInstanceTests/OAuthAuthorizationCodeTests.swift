import Foundation
import NowData
import Testing

@testable import LocalInstance

/// The authorization-code grant with PKCE (`/oauth_auth.do`'s consent, then `/oauth_token.do`) and token
/// revocation (`/oauth_revoke_token.do`), attacked as a client without the secret, the verifier or the right code
/// would.
@Suite struct OAuthAuthorizationCodeTests {
    private static let form = [("Content-Type", "application/x-www-form-urlencoded")]
    private static let callback = "http://127.0.0.1:8765/callback"
    /// RFC 7636's example verifier and its S256 challenge (appendix B).
    private static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    private static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    /// An instance with two registered applications: `cli` (redirecting to ``callback``) and `other`.
    private func harness() async throws -> (Harness, WebInterface) {
        let harness = try Harness { $0.oauthClients = ["cli": "s3cret", "other": "0ther"] }
        for client in ["cli", "other"] {
            let sysID = String(SHA256.hex("nowflow-oauth:" + client).prefix(32))
            let patched = try await harness.send(
                "PATCH", "/api/now/table/oauth_entity/\(sysID)",
                body: #"{"redirect_url":"\#(Self.callback), http://127.0.0.1:8765/other"}"#)
            #expect(patched.statusCode == 200)
        }
        return (harness, WebInterface(instance: harness.instance))
    }

    private func page(
        _ web: WebInterface, _ method: String, query: [(String, String)] = [], body: String? = nil,
        authorization: String? = Harness.adminAuth
    ) throws -> NowHTTPResponse {
        var headers: [(String, String)] = [("Host", "localhost")]
        if let authorization { headers.append(("Authorization", authorization)) }
        if body != nil { headers += Self.form }
        return try #require(
            web.response(
                to: NowHTTPRequest(
                    method: method, path: "/oauth_auth.do", queryItems: query.map { URLQueryItem(name: $0.0, value: $0.1) },
                    headers: HTTPHeaders(headers), body: body.map { Data($0.utf8) })))
    }

    private static func authorizeQuery(
        client: String = "cli", challenge: String? = OAuthAuthorizationCodeTests.challenge, method: String? = "S256",
        redirect: String? = OAuthAuthorizationCodeTests.callback, responseType: String = "code"
    ) -> [(String, String)] {
        var query = [("response_type", responseType), ("client_id", client), ("state", "st-1")]
        if let redirect { query.append(("redirect_uri", redirect)) }
        if let challenge { query.append(("code_challenge", challenge)) }
        if let method { query.append(("code_challenge_method", method)) }
        return query
    }

    /// The code the consent of `query` sends to the callback.
    private func consentedCode(_ web: WebInterface, _ query: [(String, String)]) throws -> String {
        let consent = try page(web, "GET", query: query)
        #expect(consent.statusCode == 200)
        let html = Harness.text(consent)
        let token = try #require(
            html.firstMatch(of: /name="sysparm_ck" value="([0-9a-f]+)"/).map { String($0.1) })
        let fields = query + [("action", "allow"), ("sysparm_ck", token)]
        let allowed = try page(web, "POST", body: fields.map { "\($0.0)=\(WebForm.encode($0.1))" }.joined(separator: "&"))
        #expect(allowed.statusCode == 303)
        let location = try #require(allowed.headers.value(named: "Location"))
        let match = try #require(location.firstMatch(of: /^(.*)\?code=([0-9a-f]{64})&state=st-1$/))
        #expect(String(match.1) == (query.first { $0.0 == "redirect_uri" }?.1 ?? Self.callback))
        return String(match.2)
    }

    private func exchange(_ harness: Harness, _ fields: [(String, String)]) async throws -> NowHTTPResponse {
        try await harness.send(
            "POST", "/oauth_token.do", body: fields.map { "\($0.0)=\(WebForm.encode($0.1))" }.joined(separator: "&"),
            headers: Self.form)
    }

    private static func exchangeFields(
        _ code: String, client: String = "cli", secret: String = "s3cret",
        verifier: String? = OAuthAuthorizationCodeTests.verifier, redirect: String? = OAuthAuthorizationCodeTests.callback
    ) -> [(String, String)] {
        var fields = [("grant_type", "authorization_code"), ("code", code), ("client_id", client), ("client_secret", secret)]
        if let redirect { fields.append(("redirect_uri", redirect)) }
        if let verifier { fields.append(("code_verifier", verifier)) }
        return fields
    }

    private static func grantError(_ description: String) -> String {
        #"{"error_description":"\#(description)","error":"invalid_grant"}"#
    }

    private func incidents(_ harness: Harness, bearer: String) async throws -> Int {
        try await harness.send(
            "GET", "/api/now/table/incident", query: [("sysparm_limit", "1")],
            headers: [("Authorization", "Bearer \(bearer)")]
        ).statusCode
    }

    @Test func aConsentedCodeWithItsS256VerifierGetsTokensOnceAndAReplayEndsThem() async throws {
        let (harness, web) = try await harness()
        let consent = try page(web, "GET", query: Self.authorizeQuery())
        #expect(
            consent.headers.value(named: "Content-Security-Policy")
                == "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self' http://127.0.0.1:8765; "
                + "frame-ancestors 'none'; base-uri 'none'")
        #expect(Harness.text(consent).contains("<p>The application <strong>cli</strong> asks to act as <strong>admin</strong>"))
        let code = try consentedCode(web, Self.authorizeQuery())
        let granted = try await exchange(harness, Self.exchangeFields(code))
        #expect(granted.statusCode == 200)
        let body = try Harness.json(granted)
        #expect(body.keys.sorted() == ["access_token", "expires_in", "refresh_token", "scope", "token_type"])
        let access = try #require(body["access_token"] as? String)
        #expect(try await incidents(harness, bearer: access) == 200)

        let replay = try await exchange(harness, Self.exchangeFields(code))
        #expect(replay.statusCode == 400)
        #expect(Harness.text(replay) == Self.grantError("the authorization code was already used: the tokens it got are revoked"))
        #expect(try await incidents(harness, bearer: access) == 401)
        let refresh = try await exchange(
            harness,
            [("grant_type", "refresh_token"), ("refresh_token", try #require(body["refresh_token"] as? String)),
             ("client_id", "cli"), ("client_secret", "s3cret")])
        #expect(refresh.statusCode == 401)
    }

    @Test func eachWrongPartOfTheExchangeIsRefusedAndSpendsTheCode() async throws {
        let (harness, web) = try await harness()
        let cases: [(fields: (String) -> [(String, String)], status: Int, body: String)] = [
            ({ Self.exchangeFields($0, verifier: String(Self.verifier.reversed())) }, 400,
             Self.grantError("the code_verifier does not match the code_challenge")),
            ({ Self.exchangeFields($0, verifier: Self.challenge) }, 400,
             Self.grantError("the code_verifier does not match the code_challenge")),
            ({ Self.exchangeFields($0, verifier: nil) }, 400,
             Self.grantError("the code was asked for with a code_challenge: the code_verifier is missing")),
            ({ Self.exchangeFields($0, redirect: "http://127.0.0.1:8765/other") }, 400,
             Self.grantError("the redirect_uri is not the one the authorization code was sent to")),
            ({ Self.exchangeFields($0, redirect: nil) }, 400,
             Self.grantError("the redirect_uri is not the one the authorization code was sent to")),
            ({ Self.exchangeFields($0, client: "other", secret: "0ther") }, 400,
             Self.grantError("the authorization code was given to another client")),
        ]
        for (index, refusal) in cases.enumerated() {
            let code = try consentedCode(web, Self.authorizeQuery())
            let refused = try await exchange(harness, refusal.fields(code))
            #expect(refused.statusCode == refusal.status, "case \(index)")
            #expect(Harness.text(refused) == refusal.body, "case \(index)")
            // The code is spent: the right exchange after a wrong one is a replay.
            let after = try await exchange(harness, Self.exchangeFields(code))
            #expect(
                Harness.text(after) == Self.grantError("the authorization code was already used: the tokens it got are revoked"),
                "case \(index)")
        }
        // A wrong client secret is the platform's access_denied, and leaves the code for its client.
        let code = try consentedCode(web, Self.authorizeQuery())
        let wrongSecret = try await exchange(harness, Self.exchangeFields(code, secret: "guess"))
        #expect(wrongSecret.statusCode == 401)
        #expect(Harness.text(wrongSecret) == #"{"error_description":"access_denied","error":"server_error"}"#)
        #expect(try await exchange(harness, Self.exchangeFields(code)).statusCode == 200)
        // Unknown and expired codes.
        let unknown = try await exchange(harness, Self.exchangeFields(String(repeating: "0", count: 64)))
        #expect(Harness.text(unknown) == Self.grantError("the authorization code is unknown or expired"))
        let late = try consentedCode(web, Self.authorizeQuery())
        harness.clock.advance(seconds: 61)
        #expect(Harness.text(try await exchange(harness, Self.exchangeFields(late))) == Self.grantError("the authorization code is unknown or expired"))
        // A verifier for a code asked for without a challenge.
        let plainless = try consentedCode(web, Self.authorizeQuery(challenge: nil, method: nil))
        #expect(
            Harness.text(try await exchange(harness, Self.exchangeFields(plainless)))
                == Self.grantError("the code was asked for without a code_challenge: no code_verifier is expected"))
        // The plain method, and a code without PKCE exchanged by a confidential client.
        let plain = try consentedCode(web, Self.authorizeQuery(challenge: Self.verifier, method: "plain"))
        #expect(try await exchange(harness, Self.exchangeFields(plain)).statusCode == 200)
        let noPKCE = try consentedCode(web, Self.authorizeQuery(challenge: nil, method: nil))
        #expect(try await exchange(harness, Self.exchangeFields(noPKCE, verifier: nil)).statusCode == 200)
    }

    @Test func theConsentPageNeverSendsToAnUncheckedRedirect() async throws {
        let (_, web) = try await harness()
        let unknown = try page(web, "GET", query: Self.authorizeQuery(client: "nobody"))
        #expect(unknown.statusCode == 400)
        #expect(unknown.headers.value(named: "Location") == nil)
        #expect(
            Harness.text(unknown).contains(
                #"<p class="error" role="alert">No active OAuth application (oauth_entity) has the client_id &#39;nobody&#39;.</p>"#))
        let elsewhere = try page(web, "GET", query: Self.authorizeQuery(redirect: "https://attacker.example/cb"))
        #expect(elsewhere.statusCode == 400)
        #expect(elsewhere.headers.value(named: "Location") == nil)
        #expect(
            Harness.text(elsewhere).contains(
                #"<p class="error" role="alert">&#39;https://attacker.example/cb&#39; is not a redirect URL of the "#
                    + #"application &#39;cli&#39;.</p>"#))
        let ambiguous = try page(web, "GET", query: Self.authorizeQuery(redirect: nil))
        #expect(ambiguous.statusCode == 400)
        // Checked errors go back to the client with its state.
        let implicit = try page(web, "GET", query: Self.authorizeQuery(responseType: "token"))
        #expect(
            implicit.headers.value(named: "Location")
                == Self.callback + "?error=unsupported_response_type&error_description=response_type%20must%20be%20code&state=st-1")
        let method = try page(web, "GET", query: Self.authorizeQuery(method: "S512"))
        #expect(
            method.headers.value(named: "Location")
                == Self.callback
                + "?error=invalid_request&error_description=code_challenge_method%20must%20be%20S256%20or%20plain&state=st-1")
        let short = try page(web, "GET", query: Self.authorizeQuery(challenge: "abc"))
        #expect(short.headers.value(named: "Location")?.hasPrefix(Self.callback + "?error=invalid_request&") == true)
        // Deny, a POST without the page's token, and no login.
        let consent = Harness.text(try page(web, "GET", query: Self.authorizeQuery()))
        let token = try #require(consent.firstMatch(of: /name="sysparm_ck" value="([0-9a-f]+)"/).map { String($0.1) })
        let fields = Self.authorizeQuery().map { "\($0.0)=\(WebForm.encode($0.1))" }.joined(separator: "&")
        let denied = try page(web, "POST", body: fields + "&action=deny&sysparm_ck=\(token)")
        #expect(denied.headers.value(named: "Location") == Self.callback + "?error=access_denied&state=st-1")
        let forged = try page(web, "POST", body: fields + "&action=allow")
        #expect(forged.statusCode == 403)
        #expect(forged.headers.value(named: "Location") == nil)
        let anonymous = try page(web, "GET", query: Self.authorizeQuery(), authorization: nil)
        #expect(anonymous.statusCode == 303)
        #expect(anonymous.headers.value(named: "Location")?.hasPrefix("/login.do?sysparm_goto=%2Foauth_auth.do%3F") == true)
    }

    @Test func aRevokedTokenIsRefusedAndRevocationTellsNothing() async throws {
        let harness = try Harness()
        let granted = try await exchange(
            harness, [("grant_type", "password"), ("username", "admin"), ("password", "secret")])
        let body = try Harness.json(granted)
        let access = try #require(body["access_token"] as? String)
        let refresh = try #require(body["refresh_token"] as? String)
        #expect(try await incidents(harness, bearer: access) == 200)
        let byPost = try await harness.send(
            "POST", "/oauth_revoke_token.do", body: "token=\(access)", headers: Self.form)
        #expect(byPost.statusCode == 200)
        #expect(byPost.body.isEmpty)
        #expect(try await incidents(harness, bearer: access) == 401)
        // The refresh token, by the query string as the platform's documentation shows it.
        let byQuery = try await harness.send("GET", "/oauth_revoke_token.do", query: [("token", refresh)], headers: [])
        #expect(byQuery.statusCode == 200)
        let refreshed = try await exchange(harness, [("grant_type", "refresh_token"), ("refresh_token", refresh)])
        #expect(refreshed.statusCode == 401)
        // An unknown token is answered the same; no token, or another method, is refused.
        let unknown = try await harness.send("GET", "/oauth_revoke_token.do", query: [("token", "not-a-token")], headers: [])
        #expect(unknown.statusCode == 200 && unknown.body.isEmpty)
        let missing = try await harness.send("POST", "/oauth_revoke_token.do", body: "", headers: Self.form)
        #expect(missing.statusCode == 400)
        #expect(
            Harness.text(missing)
                == #"{"error_description":"the request names no token to revoke (token)","error":"invalid_request"}"#)
        let put = try await harness.send("PUT", "/oauth_revoke_token.do", query: [("token", refresh)], headers: [])
        #expect(put.statusCode == 405)
        #expect(
            harness.log.all.filter { $0.contains("revoked") }
                == ["local instance: an OAuth token was revoked", "local instance: an OAuth token was revoked"])
    }

    @Test func noSecretReachesTheLogOrAnAnswerInAnyEncoding() async throws {
        let (harness, web) = try await harness()
        var answers: [String] = []
        let code = try consentedCode(web, Self.authorizeQuery())
        for fields in [
            Self.exchangeFields(code, verifier: "x" + Self.verifier.dropFirst()),
            Self.exchangeFields(code), Self.exchangeFields(code, secret: "s3cret-guess"),
        ] {
            answers.append(Harness.text(try await exchange(harness, fields)))
        }
        let secrets = ["s3cret", "0ther", Self.verifier, code, "s3cret-guess"]
        let encoded = secrets.flatMap { secret in
            [secret, Data(secret.utf8).base64EncodedString(), WebForm.encode(secret),
             Data("cli:\(secret)".utf8).base64EncodedString()]
        }
        for line in harness.log.all + answers {
            for secret in encoded { #expect(!line.contains(secret), "\(line)") }
        }
    }
}
