import Foundation
import NowData

/// The JWT bearer grant (RFC 7523 §2.1) as the platform's "OAuth JWT API endpoint for external clients" takes it:
/// an `oauth_jwt` application, its `jwt_verifier_map` records naming the `sys_certificate` whose key signs the
/// assertions, and the `sys_user` field the assertion's `sub` names a user by.
extension LocalInstance {
    /// The grant's `grant_type`.
    static let jwtBearerGrantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    /// `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`: an access token (no refresh token, as on the
    /// platform) for the user the assertion's `sub` names, when the assertion is an RS256 JWT signed by the key of
    /// one of the application's verifier maps (the one whose `kid` its header names), for this application (`aud`
    /// and `iss` its `client_id`), within its `nbf` and `exp` (give or take the application's `clock_skew`), not
    /// brought before (by its `jti`, when the application verifies them), and the user may log in and is not an
    /// administrator (the platform: "Grant access to admin is not allowed").
    ///
    /// The assertion is the form's `assertion`, or, when the form has none, the bearer token of an
    /// `Authentication` header (what PySNC's `ServiceNowJWTAuth` sends). Each refusal is 400 `invalid_grant` saying
    /// what was wrong (logged with the client's id), never repeating the assertion.
    func jwtBearerGrant(
        form: [String: String], request: NowHTTPRequest, clientID: String, client: OAuthClientCheck,
        lifetime: TimeInterval, now time: Date
    ) -> NowHTTPResponse {
        let application: OAuthJWTRecord?
        do {
            application = try database.read { [store] db in try store.activeOAuthJWT(clientID: clientID, db) }
        } catch {
            log("local instance: cannot read the OAuth JWT applications: \(error)")
            return TableAPIError.internalFailure.response
        }
        guard case .registered = client, let application else {
            return Self.oauthError(
                401, "invalid_client",
                "the JWT bearer grant needs an active OAuth JWT application (oauth_jwt) and its client_secret")
        }
        do {
            let user = try checkedUser(
                of: Self.assertion(form: form, request: request), for: application, now: time)
            guard
                case let (access, _)? = grantTokens(
                    to: user, clientID: clientID, refreshable: false, lifetime: lifetime, now: time,
                    login: { try loginHash(of: user) })
            else { throw JWTBearerRefusal("the user the assertion names cannot log in") }
            return Self.tokenResponse(access: access, refresh: nil, lifetime: lifetime)
        } catch let refusal as JWTBearerRefusal {
            log("local instance: JWT bearer grant of OAuth client '\(clientID)' refused: \(refusal.reason)")
            return Self.oauthError(400, "invalid_grant", refusal.reason)
        } catch {
            log("local instance: cannot check a JWT bearer assertion: \(error)")
            return TableAPIError.internalFailure.response
        }
    }

    /// The request's assertion: the form's `assertion`, else an `Authentication: Bearer` header's token.
    private static func assertion(form: [String: String], request: NowHTTPRequest) throws -> JWTAssertion {
        if let text = form["assertion"] ?? bearerToken(request.headers.value(named: "Authentication")), !text.isEmpty {
            return try JWTAssertion(text.trimmingCharacters(in: .whitespaces))
        }
        throw JWTBearerRefusal("the request has no assertion (assertion)")
    }

    /// The token of a `Bearer <token>` header value.
    private static func bearerToken(_ value: String?) -> String? {
        guard let value, value.lowercased().hasPrefix("bearer ") else { return nil }
        return String(value.dropFirst(7))
    }

    /// The `user_name` of the user `assertion` names, once its algorithm, key, signature and claims are checked
    /// for `application` and its `jti` noted.
    ///
    /// - Throws: a ``JWTBearerRefusal`` saying what was wrong, or the database's error.
    private func checkedUser(of assertion: JWTAssertion, for application: OAuthJWTRecord, now time: Date) throws
        -> String
    {
        try checkSignature(of: assertion, for: application, now: time)
        let skew = TimeInterval(application.clockSkew)
        guard assertion.string("iss") == application.clientID else {
            throw JWTBearerRefusal("the assertion's issuer (iss) is not the application's client_id")
        }
        guard assertion.audiences.contains(application.clientID) else {
            throw JWTBearerRefusal("the assertion's audience (aud) is not the application's client_id")
        }
        guard let expires = assertion.date("exp") else {
            throw JWTBearerRefusal("the assertion has no expiry (exp, a NumericDate)")
        }
        guard time.timeIntervalSince(expires) < skew else { throw JWTBearerRefusal("the assertion has expired (exp)") }
        if assertion.claims["nbf"] != nil {
            guard let notBefore = assertion.date("nbf") else {
                throw JWTBearerRefusal("the assertion's not-before (nbf) is not a NumericDate")
            }
            guard notBefore.timeIntervalSince(time) <= skew else {
                throw JWTBearerRefusal("the assertion is not valid yet (nbf)")
            }
        }
        guard let subject = assertion.string("sub"), !subject.isEmpty else {
            throw JWTBearerRefusal("the assertion names no user (sub)")
        }
        let users = try database.read { [store] db in
            try store.users(where: application.userField, is: subject, limit: 2, db)
        }
        guard users.count == 1, let user = users.first else {
            throw JWTBearerRefusal(
                users.isEmpty
                    ? "no user has the assertion's subject (sub) as \(application.userField)"
                    : "more than one user has the assertion's subject (sub) as \(application.userField)")
        }
        guard user.mayLogIn, loginAllowed(Self.account(user: user.userName)) else {
            throw JWTBearerRefusal("the user the assertion names cannot log in (inactive or locked out)")
        }
        guard try !handler.policy.access(for: user.userName).holds("admin") else {
            throw JWTBearerRefusal("Grant access to admin is not allowed")
        }
        if application.verifiesJTI {
            guard let jti = assertion.string("jti"), !jti.isEmpty else {
                throw JWTBearerRefusal("the assertion has no JWT ID (jti), which the application verifies")
            }
            let fresh = usedAssertions.withLock {
                $0.use(jti, clientID: application.clientID, expires: expires.addingTimeInterval(skew), now: time)
            }
            guard fresh else { throw JWTBearerRefusal("the assertion was already used (jti)") }
        }
        return user.userName
    }

    /// Checks that `assertion` is RS256-signed by the key of the verifier map its `kid` names (or, without a
    /// `kid`, of one of the maps that name none).
    ///
    /// - Throws: a ``JWTBearerRefusal`` saying what was wrong, or the database's error.
    private func checkSignature(of assertion: JWTAssertion, for application: OAuthJWTRecord, now time: Date) throws {
        guard let algorithm = assertion.header["alg"] else {
            throw JWTBearerRefusal("the assertion's header names no algorithm (alg)")
        }
        guard algorithm.string == "RS256" else {
            // Named only when JWS defines it: the header is the sender's text, for the answer and the log.
            throw JWTBearerRefusal(
                "the assertion's algorithm (alg) is "
                    + (algorithm.string.flatMap { Self.jwsAlgorithms.contains($0) ? $0 : nil } ?? "not one JWS defines")
                    + ": only RS256 is accepted")
        }
        guard assertion.header["crit"] == nil else {
            throw JWTBearerRefusal("the assertion's header has critical extensions (crit), which are not understood")
        }
        let kid: String
        switch assertion.header["kid"] {
        case nil: kid = ""
        case .string(let text)?: kid = text
        default: throw JWTBearerRefusal("the assertion's key id (kid) is not a string")
        }
        let verifiers = try database.read { [store] db in try store.verifiers(ofOAuthJWT: application.sysID, db) }
            .filter { $0.kid == kid }
        guard !verifiers.isEmpty else {
            throw JWTBearerRefusal(
                kid.isEmpty
                    ? "the assertion's header names no key id (kid), and every verifier map of the application "
                        + "names one"
                    : "no verifier map (jwt_verifier_map) of the application has the assertion's key id (kid)")
        }
        var problems: [String] = []
        for verifier in verifiers {
            guard let pem = verifier.pem else {
                problems.append("its verifier map names no active certificate (sys_certificate)")
                continue
            }
            do {
                let key = try RSAPublicKey(pem: pem, now: time)
                if key.verifiesRS256(assertion.signature, of: assertion.signingInput) { return }
                problems.append("the signature does not verify with the key of its verifier map")
            } catch {
                problems.append(Self.describe(error))
            }
        }
        throw JWTBearerRefusal(
            "the assertion's signature cannot be verified: " + Set(problems).sorted().joined(separator: "; "))
    }

    /// The algorithms JWS defines (RFC 7518 §3.1), which a refusal may name.
    private static let jwsAlgorithms: Set = [
        "HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "ES256", "ES384", "ES512", "PS256", "PS384", "PS512", "none",
    ]

    /// What a certificate's problem means for the grant.
    private static func describe(_ problem: RSAPublicKey.Problem) -> String {
        switch problem {
        case .notPEM: "its certificate's pem_certificate holds no certificate or public key in PEM"
        case .certificateOutOfDate: "its certificate is not valid now"
        case .notRSA: "its certificate's key is not an RSA key"
        case .tooShort(let bits): "its certificate's RSA key has \(bits) bits, fewer than 2048"
        }
    }
}
