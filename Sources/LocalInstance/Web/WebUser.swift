import Foundation

/// Who a web page is for: the user, how they logged in, and the token their forms must carry.
struct WebUser: Sendable {
    /// The `user_name`.
    var name: String
    /// The token every form that writes carries as `sysparm_ck` (the platform's name for it).
    var csrfToken: String
    /// The session's id when the user logged in with the form; nil for Basic credentials.
    var sessionID: String?
    /// The user's time zone (`sys_user.time_zone` when the dictionary has it and it names a zone), else the
    /// instance's (``LocalInstance/Options/systemTimeZone``).
    var timeZone: TimeZone
}
