import Foundation
import NowData

/// The authorization-code grant (RFC 6749 §4.1) with PKCE (RFC 7636): `/oauth_auth.do` asks the logged-in user's
/// consent (``WebInterface``) and sends a code to the application's redirect URL; `/oauth_token.do` exchanges it.
extension LocalInstance {
    /// The active OAuth application with `clientID`, if there is one.
    ///
    /// - Throws: when the database cannot be read.
    func oauthApplication(clientID: String) throws -> OAuthEntityRecord? {
        guard !clientID.isEmpty else { return nil }
        return try database.read { [store] db in try store.activeOAuthEntities(db) }.first { $0.clientID == clientID }
    }

    /// `grant_type=authorization_code`: the code (single-use, within ``AuthorizationCodeStore/lifetime``) for the
    /// client it was given to, with the redirect URI it was sent to and, when it was asked with a
    /// `code_challenge`, the `code_verifier` that matches it; an access and a refresh token for the user who
    /// consented, while they may still log in with the password they had. A code brought again ends the tokens
    /// its first exchange got.
    func authorizationCodeGrant(
        form: [String: String], clientID: String, client: OAuthClientCheck, lifetime: TimeInterval, now time: Date
    ) -> NowHTTPResponse {
        guard case .registered = client else {
            return Self.oauthError(
                401, "invalid_client",
                "the authorization code grant needs a registered OAuth application (oauth_entity) and its client_secret")
        }
        guard let code = form["code"], !code.isEmpty else {
            return Self.oauthError(400, "invalid_request", "the request names no authorization code (code)")
        }
        let grant: AuthorizationCodeStore.Grant
        switch authorizationCodes.withLock({ $0.take(code, now: time) }) {
        case .unknown:
            return Self.oauthError(400, "invalid_grant", "the authorization code is unknown or expired")
        case .replayed(let issued):
            tokens.withLock { store in for token in issued { _ = store.revoke(token: token) } }
            log("local instance: an authorization code was brought again; the tokens it got are revoked")
            return Self.oauthError(
                400, "invalid_grant", "the authorization code was already used: the tokens it got are revoked")
        case .grant(let found):
            grant = found
        }
        guard grant.clientID == clientID else {
            return Self.oauthError(400, "invalid_grant", "the authorization code was given to another client")
        }
        if grant.redirectURIGiven || form["redirect_uri"] != nil, form["redirect_uri"] != grant.redirectURI {
            return Self.oauthError(
                400, "invalid_grant", "the redirect_uri is not the one the authorization code was sent to")
        }
        if let challenge = grant.challenge {
            guard let verifier = form["code_verifier"] else {
                return Self.oauthError(
                    400, "invalid_grant", "the code was asked for with a code_challenge: the code_verifier is missing")
            }
            guard Self.verifier(verifier, matches: challenge, method: grant.challengeMethod) else {
                return Self.oauthError(400, "invalid_grant", "the code_verifier does not match the code_challenge")
            }
        } else if form["code_verifier"] != nil {
            return Self.oauthError(
                400, "invalid_grant", "the code was asked for without a code_challenge: no code_verifier is expected")
        }
        guard
            case let (access, refresh)? = grantTokens(
                to: grant.userName, clientID: clientID, refreshable: true, lifetime: lifetime, now: time,
                login: { [grant] in try loginHash(of: grant.userName) == grant.passwordHash ? grant.passwordHash : nil })
        else {
            return Self.oauthError(
                400, "invalid_grant", "the user who consented can no longer log in with the password they had")
        }
        authorizationCodes.withLock { $0.record([access] + (refresh.map { [$0] } ?? []), for: code) }
        return Self.tokenResponse(access: access, refresh: refresh, lifetime: lifetime)
    }

    /// Whether `text` is a PKCE code verifier or challenge: 43 to 128 of `A-Z a-z 0-9 - . _ ~` (RFC 7636 §4.1).
    static func isPKCEValue(_ text: String) -> Bool {
        (43...128).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                    || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            }
    }

    /// Whether `verifier` matches `challenge`: `S256`, the challenge is the unpadded base64url of the verifier's
    /// SHA-256; `plain`, the verifier itself. Compared in a time that does not depend on where they differ.
    static func verifier(_ verifier: String, matches challenge: String, method: String) -> Bool {
        guard isPKCEValue(verifier) else { return false }
        let expected: String
        switch method {
        case "S256":
            expected = Data(SHA256.digest(Array(verifier.utf8))).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        case "plain": expected = verifier
        default: return false
        }
        return WebSessions.tokensMatch(expected, challenge)
    }
}
