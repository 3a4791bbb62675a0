import Foundation
import NowData

extension LocalInstance {
    /// `POST /oauth_token.do`: the `password` and `refresh_token` grants, form-urlencoded.
    ///
    /// A refused request gets the platform's answer,
    /// 401 `{"error_description":"access_denied","error":"server_error"}`.
    func oauthToken(_ request: NowHTTPRequest) -> NowHTTPResponse {
        guard request.method.uppercased() == "POST" else {
            return TableAPIError.methodNotSupported(request.method.uppercased()).response
        }
        let contentType = request.headers.value(named: "Content-Type")?.lowercased() ?? ""
        guard contentType.hasPrefix("application/x-www-form-urlencoded"), let body = request.body else {
            return Self.accessDenied
        }
        let form = Self.formFields(String(decoding: body, as: UTF8.self))
        let clientID = form["client_id"] ?? ""
        if !options.oauthClients.isEmpty {
            guard let secret = options.oauthClients[clientID], secret == form["client_secret"] else {
                return Self.accessDenied
            }
        }
        let time = now()
        let lifetime =
            Double(options.tokenLifetime.components.seconds)
            + Double(options.tokenLifetime.components.attoseconds) / 1e18
        switch form["grant_type"] {
        case "password":
            guard let user = form["username"], let password = form["password"],
                let hash = try? verifiedHash(user: user, password: password)
            else { return Self.accessDenied }
            let (access, refresh) = tokens.withLock { store in
                (
                    store.issueAccessToken(
                        userName: user, clientID: clientID, passwordHash: hash, lifetime: lifetime, now: time),
                    store.issueRefreshToken(userName: user, clientID: clientID, passwordHash: hash, now: time)
                )
            }
            return Self.tokenResponse([
                ("access_token", .string(access)), ("refresh_token", .string(refresh)),
                ("scope", .string("useraccount")),
                ("token_type", .string("Bearer")), ("expires_in", .number(JSONNumber(Int(lifetime)))),
            ])
        case "refresh_token":
            let token = form["refresh_token"] ?? ""
            let access: String? = tokens.withLock { store in
                guard let grant = store.grant(forRefreshToken: token, now: time),
                    options.oauthClients.isEmpty || grant.clientID == clientID
                else { return nil }
                return store.issueAccessToken(
                    userName: grant.userName, clientID: clientID, passwordHash: grant.passwordHash,
                    lifetime: lifetime, now: time)
            }
            guard let access else { return Self.accessDenied }
            return Self.tokenResponse([
                ("access_token", .string(access)), ("scope", .string("useraccount")), ("token_type", .string("Bearer")),
                ("expires_in", .number(JSONNumber(Int(lifetime)))),
            ])
        default:
            return Self.accessDenied
        }
    }

    private static var accessDenied: NowHTTPResponse {
        NowHTTPResponse(
            statusCode: 401, headers: ["Content-Type": "application/json;charset=UTF-8"],
            body: JSONValue.object(["error_description": "access_denied", "error": "server_error"]).jsonData())
    }

    private static func tokenResponse(_ members: [(String, JSONValue)]) -> NowHTTPResponse {
        NowHTTPResponse(
            statusCode: 200, headers: ["Content-Type": "application/json;charset=UTF-8"],
            body: JSONValue.object(JSONObject(members)).jsonData())
    }

    /// The fields of a form-urlencoded body (`+` is a space).
    static func formFields(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            guard let name = parts.first else { continue }
            fields[decode(name)] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }
}
