import Foundation

/// An `oauth_entity` record (a registered OAuth application) as `/oauth_token.do` reads it to check a client, and
/// `/oauth_auth.do` to ask a user's consent.
struct OAuthEntityRecord: Sendable, Equatable {
    var sysID: String
    /// `name`, which the consent page shows.
    var name: String
    /// `client_id`.
    var clientID: String
    /// `client_secret`, as ``PasswordHash`` stores it.
    var secretHash: String
    /// `user`: the sys_id of the user `client_credentials` acts as; empty when it names none.
    var userSysID: String
    /// `redirect_url`: the URLs an authorization code may be sent to (comma-separated in the field).
    var redirectURLs: [String]
    /// `sys_class_name`: the table the record is stored in (`oauth_jwt` for a JWT API endpoint).
    var className: String

    /// The application of a stored `oauth_entity` row.
    init(_ stored: StoredRecord) {
        sysID = stored["sys_id"] ?? ""
        name = stored["name"] ?? ""
        clientID = stored["client_id"] ?? ""
        secretHash = stored["client_secret"] ?? ""
        userSysID = stored["user"] ?? ""
        redirectURLs = (stored["redirect_url"] ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        className = stored["sys_class_name"].flatMap { $0.isEmpty ? nil : $0 } ?? "oauth_entity"
    }
}
