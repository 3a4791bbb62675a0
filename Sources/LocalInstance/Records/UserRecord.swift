/// A `sys_user` record as the instance reads it to log a user in and to write dates for them: the fields it reads,
/// named once here.
struct UserRecord: Sendable, Equatable {
    var sysID: String
    /// `user_name`: what Basic credentials, tokens and sessions name the user by.
    var userName: String
    /// `active`.
    var isActive: Bool
    /// `locked_out`: set by an administrator (failed logins lock through ``LoginThrottle`` instead).
    var isLockedOut: Bool
    /// `user_password`, as ``PasswordHash`` stores it; empty when the user has none, which no password matches.
    var passwordHash: String
    /// `time_zone`: an IANA name, or empty for the instance's.
    var timeZone: String
    /// `date_format`: one of ``UserDateDisplay/dateFormats``, or empty for the instance's.
    var dateFormat: String

    /// The user of a stored `sys_user` row.
    init(_ stored: StoredRecord) {
        sysID = stored["sys_id"] ?? ""
        userName = stored["user_name"] ?? ""
        isActive = stored["active"] == "true"
        isLockedOut = stored["locked_out"] == "true"
        passwordHash = stored["user_password"] ?? ""
        timeZone = stored["time_zone"] ?? ""
        dateFormat = stored["date_format"] ?? ""
    }

    /// Whether the user may log in: active and not locked out.
    var mayLogIn: Bool { isActive && !isLockedOut }
}
