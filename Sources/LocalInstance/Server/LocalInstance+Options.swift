import Foundation

extension LocalInstance {
    /// The platform's default `com.glide.attachment.max_size`: 1024 MB.
    public static let defaultAttachmentMaxSize = 1024 << 20

    /// The work factor of the stored password hashes: 600,000 rounds of PBKDF2-HMAC-SHA256, OWASP's figure
    /// (Password Storage Cheat Sheet).
    public static let defaultPasswordIterations = 600_000
    /// The most rounds a hash may have (more would take minutes per login); a stored hash naming more never
    /// matches, and a higher ``Options/passwordIterations`` is taken as this.
    public static let maximumPasswordIterations = 100_000_000
    /// Failed logins in a row after which an account is locked (the platform locks after repeated failures).
    public static let defaultLoginFailureLimit = 10
    /// How long a lock after failed logins lasts.
    public static let defaultLockoutDuration = Duration.seconds(300)

    /// How a local instance starts: its database, extra tables, credentials, data and faults.
    public struct Options: Sendable {
        /// The SQLite database file (created when missing, WAL journal); `":memory:"` is a private temporary
        /// database, removed when the instance closes.
        public var databasePath: String
        /// A JSON dictionary file with extra (custom `u_`) tables, or nil.
        public var schemaFile: String?
        /// The administrator's user name.
        public var adminUser: String
        /// The administrator's password, set on every start (the default is for local use only); with
        /// ``keepsExistingAdmin``, only given to an administrator that has none yet.
        public var adminPassword: String
        /// Whether an administrator already in the database with a password is left as it is (its password and
        /// `active` untouched, so that opening the database derives no password hash); a missing one (or the demo
        /// data's, which has no password) still gets ``adminPassword``, hashed once. False by default: every start
        /// reactivates the administrator and sets its password, as `nowflow serve` does. The embedded instance of
        /// `nowflow run` keeps it: it reaches the database through ``LocalInstance/transport(actingAs:)``, without
        /// a password.
        public var keepsExistingAdmin: Bool
        /// Whether a new database gets the demo data set (users, groups, incidents, problems, changes, CIs).
        public var seedDemoData: Bool
        /// The platform property `glide.invalid_query.returns_no_rows`: an invalid query part matches nothing
        /// instead of being ignored.
        public var invalidQueryReturnsNoRows: Bool
        /// The platform property `glide.sys.default.tz`: the time zone in which a user whose `time_zone` is empty
        /// sees date-times (display values, the web views) and computes a query's date helpers. UTC by default (the
        /// embedded instance of `nowflow run` and the tests); `nowflow serve` sets a PDI's, America/Los_Angeles.
        public var systemTimeZone: TimeZone
        /// How long an OAuth access token is valid (ServiceNow's default is 1799 seconds).
        public var tokenLifetime: Duration
        /// OAuth clients (client_id → client_secret) registered as `oauth_entity` records on every start, acting
        /// as the administrator for `client_credentials`. While no OAuth application is registered (here or
        /// through the Table API), `/oauth_token.do` accepts any client for the user grants (the user's
        /// credentials are still checked).
        public var oauthClients: [String: String]
        /// The administrator's REST API key (sent as `x-sn-apikey`), registered on every start as the active
        /// `sys_api_key` record `nowflow serve` acting as the administrator (its token replaced, stored hashed), as a
        /// PDI's admin has one a test rig uses (`SN_API_KEY`); nil registers none.
        public var adminAPIKey: String?
        /// How long one SQL statement may run; past it the request is answered 500 `Transaction cancelled: maximum
        /// execution time exceeded`, as the platform's transaction quota answers. nil for no limit.
        public var statementBudget: Duration?
        /// The platform property `com.glide.attachment.max_size`, in bytes: the largest attachment an upload may
        /// create (1024 MB by default, the platform's). Both uploads stream to their files over HTTP: a raw one
        /// (`POST /api/now/attachment/file`) up to this size, and each file part of a multipart one
        /// (`POST /api/now/attachment/upload`, parsed as it arrives) up to this size.
        public var attachmentMaxSize: Int
        /// The rounds of PBKDF2-HMAC-SHA256 of each new password, API key token and client secret hash
        /// (``LocalInstance/defaultPasswordIterations`` by default; fewer only for tests). A login that verifies a
        /// weaker hash (fewer rounds, or the salted SHA-256 of earlier versions) stores it anew with these.
        public var passwordIterations: Int
        /// Failed logins in a row (Basic, OAuth grants and client secrets, the login form; batches included) after
        /// which the user or OAuth client is locked for ``lockoutDuration``; a client address is locked after five
        /// times as many, whatever the accounts. 0 never locks.
        public var loginFailureLimit: Int
        /// How long a lock after failed logins lasts, and how long a failure counts towards one.
        public var lockoutDuration: Duration
        /// The faults injected from the start.
        public var faults: FaultInjection
        /// The platform's limits on requests over HTTP (rate-limit rules, semaphore, session synchronization,
        /// transaction quotas); none by default, ``PlatformLimits/pdi`` for a PDI's.
        public var limits = PlatformLimits()
        /// Where notices go (invalid query parts, ignored field values); never given credentials.
        /// Standard error by default.
        public var log: @Sendable (String) -> Void

        /// Options; the defaults give an in-memory instance with the demo data and `admin`/`admin`.
        public init(
            databasePath: String = ":memory:", schemaFile: String? = nil, adminUser: String = "admin",
            adminPassword: String = "admin", seedDemoData: Bool = true, invalidQueryReturnsNoRows: Bool = false,
            tokenLifetime: Duration = .seconds(1799), oauthClients: [String: String] = [:],
            statementBudget: Duration? = .seconds(10), faults: FaultInjection = .none,
            log: @escaping @Sendable (String) -> Void = LocalInstance.standardErrorLog,
            attachmentMaxSize: Int = LocalInstance.defaultAttachmentMaxSize,
            passwordIterations: Int = LocalInstance.defaultPasswordIterations,
            loginFailureLimit: Int = LocalInstance.defaultLoginFailureLimit,
            lockoutDuration: Duration = LocalInstance.defaultLockoutDuration, keepsExistingAdmin: Bool = false,
            systemTimeZone: TimeZone = .gmt, adminAPIKey: String? = nil
        ) {
            self.adminAPIKey = adminAPIKey
            self.systemTimeZone = systemTimeZone
            self.keepsExistingAdmin = keepsExistingAdmin
            self.passwordIterations = passwordIterations
            self.loginFailureLimit = loginFailureLimit
            self.lockoutDuration = lockoutDuration
            self.attachmentMaxSize = attachmentMaxSize
            self.databasePath = databasePath
            self.schemaFile = schemaFile
            self.adminUser = adminUser
            self.adminPassword = adminPassword
            self.seedDemoData = seedDemoData
            self.invalidQueryReturnsNoRows = invalidQueryReturnsNoRows
            self.tokenLifetime = tokenLifetime
            self.oauthClients = oauthClients
            self.statementBudget = statementBudget
            self.faults = faults
            self.log = log
        }
    }
}
