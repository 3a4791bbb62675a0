import Foundation
import NowData
import Synchronization

/// A ServiceNow-compatible instance on SQLite: the Table API (`/api/now/table/...`, `/api/now/v1|v2/table/...`)
/// and OAuth (`POST /oauth_token.do`), with Basic and bearer authentication and injectable faults.
///
/// Use it in process through ``transport`` (no socket) or behind an HTTP listener through ``reply(to:)``:
/// ```swift
/// let instance = try LocalInstance()   // in memory, demo data, admin/admin
/// let response = try await instance.transport.send(NowHTTPRequest(
///     method: "GET", path: "/api/now/table/incident", queryItems: [URLQueryItem(name: "sysparm_limit", value: "5")],
///     headers: ["Authorization": "Basic YWRtaW46YWRtaW4="]))
/// ```
public final class LocalInstance: Sendable {
    let options: Options
    let dictionary: TableDictionary
    let store: RecordStore
    let database: SQLiteDatabase
    let handler: TableAPIHandler
    let attachments: AttachmentAPIHandler
    let now: @Sendable () -> Date
    let tokens = Mutex(TokenStore())
    /// The authorization codes `/oauth_auth.do` gave out, until their exchange.
    let authorizationCodes = Mutex(AuthorizationCodeStore())
    /// The JWT bearer assertions already exchanged, for the applications that take each once.
    let usedAssertions = Mutex(AssertionReplayStore())
    /// Basic credentials already verified, forgotten at any write to sys_user (which also ends the tokens of users
    /// who can no longer log in).
    let verifiedCredentials = Mutex(VerifiedCredentials())
    /// The sessions of the login form and of impersonation, which every route honours.
    let sessions = WebSessions()
    /// The failed logins of each account and client, and their locks.
    let loginThrottle: Mutex<LoginThrottle>
    let faults: Mutex<FaultInjection>
    /// The last records deleted, for the web view of what changed.
    let deletions: DeletionLog
    /// The options' log, each line escaped (``LogLine/escaped(_:)``).
    let log: @Sendable (String) -> Void
    /// The state of the options' ``PlatformLimits``; nil when they enforce none.
    let limiter: RequestLimiter?

    /// Opens (or creates) the database, creates the tables of the dictionary, fills the read-only dictionary tables
    /// (`sys_db_object`, `sys_dictionary`, `sys_choice`) from it, sets the admin password and, on a new database,
    /// seeds the demo data.
    ///
    /// - Throws: ``LocalInstanceError`` when the dictionary file is invalid or the database cannot be opened.
    public convenience init(options: Options = Options()) throws {
        try self.init(options: options, now: { Date() })
    }

    /// An instance whose clock is `now` (for tests of token expiry and system dates).
    init(options: Options, now: @escaping @Sendable () -> Date) throws {
        self.options = options
        self.now = now
        let log: @Sendable (String) -> Void = { [sink = options.log] line in sink(LogLine.escaped(line)) }
        self.log = log
        limiter = options.limits.isEnforcing ? RequestLimiter(limits: options.limits) : nil
        dictionary =
            try options.schemaFile.map { path throws(LocalInstanceError) in try TableDictionary.loading(file: path) }
            ?? .builtIn
        store = RecordStore(dictionary: dictionary)
        let deletions = DeletionLog()
        self.deletions = deletions
        do {
            database = try SQLiteDatabase(path: options.databasePath, statementBudget: options.statementBudget)
        } catch {
            throw LocalInstanceError("cannot open the database \(options.databasePath): \(error.message)")
        }
        var tables = TableAPIHandler(
            dictionary: dictionary, store: store, database: database,
            translator: SQLQueryTranslator(
                schema: dictionary, invalidQueryReturnsNoRows: options.invalidQueryReturnsNoRows, now: now),
            now: now, log: log, administrator: options.adminUser, deletions: deletions)
        tables.passwordIterations = options.passwordIterations
        tables.systemTimeZone = options.systemTimeZone
        handler = tables
        faults = Mutex(options.faults)
        let lockout = options.lockoutDuration.components
        loginThrottle = Mutex(
            LoginThrottle(
                limit: options.loginFailureLimit,
                lockDuration: Double(lockout.seconds) + Double(lockout.attoseconds) / 1e18))
        do {
            attachments = AttachmentAPIHandler(
                tables: handler, content: try AttachmentContent(databasePath: options.databasePath),
                maxSize: options.attachmentMaxSize)
        } catch {
            throw LocalInstanceError("cannot create the attachment directory for \(options.databasePath): \(error)")
        }
        do {
            try database.write { [store, dictionary] db in
                try store.createSchema(db)
                try db.execute(AttachmentContent.schema(for: dictionary))
                try store.rebuildMetadata(timestamp: Timestamp.string(now()), db)
                if options.seedDemoData, try store.meta("demo_data", db) == nil {
                    try DemoData.seed(store: store, dictionary: dictionary, db)
                    try store.setMeta("demo_data", "seeded", db)
                }
                try DemoData.ensureUnknownModel(store: store, dictionary: dictionary, db)
                let adminSysID = try DemoData.ensureAdmin(
                    userName: options.adminUser, keepsExisting: options.keepsExistingAdmin,
                    passwordHash: { PasswordHash.make(options.adminPassword, iterations: options.passwordIterations) },
                    timestamp: Timestamp.string(now()), store: store, dictionary: dictionary, db)
                try Self.registerOAuthClients(
                    options.oauthClients, userSysID: adminSysID, timestamp: Timestamp.string(now()),
                    passwordIterations: options.passwordIterations, store: store, dictionary: dictionary, db)
                if let key = options.adminAPIKey {
                    try Self.registerAPIKey(
                        key, userSysID: adminSysID, timestamp: Timestamp.string(now()),
                        passwordIterations: options.passwordIterations, store: store, dictionary: dictionary, db)
                }
            }
        } catch let error as SQLiteError {
            throw LocalInstanceError("cannot prepare the database \(options.databasePath): \(error)")
        }
    }

    /// What to do with one request: its response (after any injected latency) or a dropped connection.
    /// Synchronous and thread-safe.
    public func reply(to request: NowHTTPRequest) -> LocalInstanceReply {
        reply(to: request, as: nil)
    }

    /// What to do with one request, as ``reply(to:)``; with `user`, as that user (already authenticated) instead of
    /// by the request's credentials.
    func reply(to request: NowHTTPRequest, as user: String?) -> LocalInstanceReply {
        switch nextFault() {
        case .drop(let delay):
            return .dropConnection(after: delay)
        case .status(let status, let retryAfter, let delay):
            return .respond(Self.faultResponse(status, retryAfterSeconds: retryAfter), after: delay)
        case .lostResponse(let delay):
            _ = handle(request, as: user)
            return .dropConnection(after: delay)
        case .none(let delay):
            return .respond(handle(request, as: user), after: delay)
        }
    }

    /// A transport that sends requests to this instance in process, without a socket; each request is
    /// authenticated by its own credentials, as over HTTP.
    public var transport: any NowTransport { LocalInstanceTransport(instance: self, actingUser: nil) }

    /// A transport that sends requests to this instance in process as `user`: a request without credentials of its
    /// own (no `Authorization` or `x-sn-apikey` header) is that user's, with no password checked, and goes through
    /// the ``AccessPolicy`` of that user as any other (roles apply); one with its own credentials is authenticated by
    /// them, as over HTTP. For the process that opened the database (the embedded instance of `nowflow run`), which
    /// could read and write it anyway; nothing reaches it over HTTP.
    public func transport(actingAs user: String) -> any NowTransport {
        LocalInstanceTransport(instance: self, actingUser: user)
    }

    /// Replaces the injected faults (scripted faults not yet used are dropped).
    public func setFaults(_ faults: FaultInjection) {
        self.faults.withLock { $0 = faults }
    }

    /// Closes the database; later requests are answered with 500.
    public func close() {
        database.close()
    }

    /// The default log: one line on standard error.
    public static let standardErrorLog: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The response to a request, without faults; with `user`, as that user (already authenticated, as the web
    /// views' session user is) instead of by the request's credentials; without either, by its session cookie
    /// (``sessionUser(of:)``). Every route but `/oauth_token.do` and `/oauth_revoke_token.do` answers through an
    /// ``AccessPolicy/Access`` for the request's user.
    func handle(_ request: NowHTTPRequest, as user: String? = nil) -> NowHTTPResponse {
        if request.path.utf8.count > Self.maximumPathLength { return Self.requestLineTooLong }
        if request.path == "/oauth_token.do" {
            return oauthToken(request)
        }
        if request.path == Self.oauthRevokePath { return oauthRevoke(request) }
        if let refusal = Self.crossSiteRefusal(request) { return refusal.response }
        var user = user
        let session: (id: String, session: WebSessions.Session)?
        do {
            session = user == nil ? try sessionUser(of: request) : nil
        } catch let error as TableAPIError {
            return error.response
        } catch {
            log("local instance: \(request.method) \(request.path) failed: \(error)")
            return TableAPIError.internalFailure.response
        }
        if let session { user = session.session.userName }
        if let target = Self.impersonationTarget(request.path) {
            return impersonate(request, target: target, as: user, session: session)
        }
        let request = expandingTinyURL(request)
        if let response = otherAPIResponse(request, as: user) { return response }
        let routed: TableAPIRequest?
        do throws(TableAPIError) {
            routed = try TableAPIRequest(request)
        } catch {
            return error.response
        }
        guard let tableRequest = routed else { return TableAPIError.unknownResource.response }
        let access: AccessPolicy.Access
        do {
            guard let granted = try self.access(request, as: user) else {
                return TableAPIError.notAuthenticated(request).response
            }
            access = granted
        } catch let error as SQLiteError where error.isInterrupted {
            return TableAPIError.executionTimeExceeded.response
        } catch {
            log("local instance: \(request.method) \(request.path) failed: \(error)")
            return TableAPIError.internalFailure.response
        }
        let response: NowHTTPResponse
        do {
            response = try handler.handle(tableRequest, as: access)
        } catch {
            response = error.response
        }
        if tableRequest.method == "DELETE" { sweepAttachments() }
        if tableRequest.tableName == "sys_user", tableRequest.method != "GET" {
            do {
                try revokeStaleCredentials()
            } catch {
                log("local instance: cannot check the tokens after a sys_user write: \(error)")
            }
        }
        return response
    }
}
