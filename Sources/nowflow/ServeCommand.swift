import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LocalInstance

/// `nowflow serve`: the local instance over HTTP until SIGINT or SIGTERM.
enum ServeCommand {
    /// The command's options, for the parser, the synopsis and `--help`.
    static let declaration = CommandDeclaration(
        name: "serve",
        abstract: """
            Serves the local instance over HTTP (HTTPS with --tls or --tls-cert) until SIGINT or SIGTERM. The admin
            password is --password, the first line of --password-file, else NOWFLOW_ADMIN_PASSWORD (out of sight of
            ps), else the documented default admin; OAuth clients may also come from NOWFLOW_OAUTH_CLIENTS
            (comma-separated ID:SECRET), and the admin's REST API key (x-sn-apikey) from NOWFLOW_API_KEY, without
            --api-key-file. NOWFLOW_PASSWORD_ITERATIONS sets the rounds of PBKDF2-HMAC-SHA256 of new password hashes
            (default 600000; fewer only for tests). On a loopback --host, a request whose Host header is not
            localhost, a loopback address or an --allowed-host is refused. --tls makes a certificate authority in
            ~/.nowflow/tls once (its ca.pem is the file clients trust) and a server certificate for localhost,
            127.0.0.1, ::1 and each --tls-name.
            """,
        options: [
            .value("host", "ADDR", "the address to listen on (default 127.0.0.1; any other needs a password)"),
            .value("port", "N", "the port (default 8080; 0 picks a free one); HTTPS with a certificate, unless --tls-port"),
            .value("db", "PATH", "the SQLite database (default ~/.nowflow/local.db; :memory: keeps nothing)"),
            .value("schema", "FILE", "a dictionary file with extra tables"),
            .value("user", "NAME", "the administrator's user_name (default admin)"),
            .value("password", "PW", "the administrator's password (visible in ps: prefer the file or the environment)"),
            .value("password-file", "FILE", "the administrator's password: the file's first line (not with --password)"),
            .value("latency", "MS", "milliseconds added to every answer (at most \(maximumLatency))"),
            .value("fail-rate", "R", "the share (0 to 1) of requests answered with --fail-status instead of being handled"),
            .value("fail-first", "N", "answer the first N requests with --fail-status, whatever the rates"),
            .value("fail-status", "429|500|503", "the status of injected failures (default 503)"),
            .value("retry-after", "S", "the Retry-After seconds of an injected 429 (default 1)"),
            .value("drop-rate", "R", "the share of requests whose connection is closed before they are handled"),
            .value("lost-response-rate", "R", "the share of requests handled, then closed without an answer"),
            .flag("invalid-query-no-rows", "an invalid query condition matches nothing instead of being ignored"),
            .repeating("oauth-client", "ID:SECRET", "register an OAuth application acting as the administrator (repeatable)"),
            .value("oauth-client-file", "FILE", "register the OAuth applications of FILE, one ID:SECRET a line"),
            .value("api-key-file", "FILE", "the admin's REST API key: the file's first line (the sys_api_key 'nowflow serve')"),
            .value("attachment-max-size", "MB", "the largest attachment an upload may create, in MB (default 1024)"),
            .value("header-timeout", "S", "seconds a request's headers may take to arrive (default 30), then the connection closes"),
            .value("login-failure-limit", "N", "logins failed in a row that lock a user or client (default 10, an address 5x; 0 never)"),
            .value("lockout-time", "S", "seconds a lock lasts (default 300)"),
            .repeating("allowed-host", "NAME", "one more Host header name accepted on a loopback --host, such as a proxy's (repeatable)"),
            .flag("tls", "serve HTTPS with a certificate made in ~/.nowflow/tls"),
            .repeating("tls-name", "NAME", "with --tls: one more DNS name or IP address the certificate is for (repeatable)"),
            .value("tls-cert", "FILE", "serve HTTPS with this certificate (PEM) instead of --tls; with --tls-key"),
            .value("tls-key", "FILE", "the private key of --tls-cert (PEM, unencrypted)"),
            .value("tls-port", "N", "with a certificate: serve HTTPS on this port, and HTTP on --port"),
            .value("tls-client-ca", "FILE", "ask HTTPS clients for a certificate these CAs issued; it logs in as the user it names"),
            .value("time-zone", "ZONE", "the system time zone a user without one sees (IANA; default America/Los_Angeles, a PDI's)"),
        ] + limitOptions)

    /// What the command line asks for.
    struct Settings {
        var host = "127.0.0.1"
        var port: UInt16 = 8080
        var headerTimeout = HTTPListener.defaultHeaderTimeout
        /// More names a request's Host header may give on a loopback address.
        var allowedHosts: [String] = []
        var options: LocalInstance.Options
        var usesDefaultPassword: Bool
        /// HTTPS; nil: plain HTTP only.
        var tls: TLS?
    }

    /// Where the HTTPS certificate comes from, and the port HTTPS has beside HTTP.
    struct TLS: Equatable {
        enum Certificate: Equatable {
            /// `--tls`: made in ~/.nowflow/tls for the default names and these.
            case made(names: [String])
            /// `--tls-cert` and `--tls-key`.
            case files(certificate: String, key: String)
        }
        var certificate: Certificate
        /// `--tls-port`: HTTPS there and HTTP on `--port`; nil: HTTPS on `--port` alone.
        var port: UInt16?
        /// `--tls-client-ca`: the PEM file of the CAs whose client certificates are asked for.
        var clientCAFile: String?
    }

    /// Runs the subcommand with the words after `serve`; returns the exit status.
    static func main(_ arguments: [String]) -> Int32 {
        let settings: Settings
        do {
            settings = try parse(arguments, environment: ProcessInfo.processInfo.environment)
        } catch {
            return declaration.fail(error)
        }
        if settings.usesDefaultPassword {
            printError(
                "nowflow serve: warning: no --password, --password-file or NOWFLOW_ADMIN_PASSWORD given; "
                    + "user '\(settings.options.adminUser)' has the documented default password 'admin'")
        }
        if settings.options.databasePath == defaultDatabasePath(environment: ProcessInfo.processInfo.environment) {
            let directory = URL(fileURLWithPath: settings.options.databasePath).deletingLastPathComponent()
            do {
                try NowflowDirectory.create()
            } catch {
                printError("nowflow serve: cannot create \(directory.path): \(error.localizedDescription)")
                return 1
            }
        }
        var identity: TLSIdentity?
        var authority: LocalCertificateAuthority?
        var clientAuthorities: TLSClientAuthorities?
        do {
            clientAuthorities = try settings.tls?.clientCAFile.map { file throws(TLSError) in
                try TLSClientAuthorities(file: file)
            }
            switch settings.tls?.certificate {
            case .made(let names):
                authority = try LocalCertificateAuthority(directory: tlsDirectory(), names: names)
                identity = authority?.identity
            case .files(let certificate, let key):
                identity = try TLSIdentity(certificateFile: certificate, keyFile: key)
            case nil:
                break
            }
        } catch {
            printError("nowflow serve: \(error)")
            return 1
        }
        // Before any server thread starts, so that the signals reach only the sigwait below.
        TerminationSignals.block()
        let server: LocalInstanceServer
        do {
            server = try LocalInstanceServer(
                host: settings.host, port: settings.port, tls: identity, tlsPort: settings.tls?.port,
                clientCertificateAuthorities: clientAuthorities, headerTimeout: settings.headerTimeout,
                allowedHosts: settings.allowedHosts, options: settings.options)
        } catch {
            printError("nowflow serve: \(error)")
            return 1
        }
        let urls = [server.url] + (server.tlsURL.map { $0 == server.url ? [] : [$0] } ?? [])
        let database = settings.options.databasePath
        print("nowflow serve: listening on \(urls.joined(separator: " and ")) (database \(database))")
        if let authority {
            let age = authority.madeAuthority ? "new" : "kept"
            print(
                "nowflow serve: certificate authority \(authority.caFile.path) (\(age)): trust it with "
                    + "REQUESTS_CA_BUNDLE, SSL_CERT_FILE, NODE_EXTRA_CA_CERTS, curl --cacert or a profile's ca_file")
        }
        fflush(nil)
        TerminationSignals.wait()
        // Requests in flight are answered, if they finish in time: a committed write is durable either way (WAL),
        // and a signal must end the server within seconds whatever a client asked for.
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            server.stop()
            stopped.signal()
        }
        if stopped.wait(timeout: .now() + stopDeadline) == .timedOut {
            printError("nowflow serve: stopped with requests still in flight after \(Int(stopDeadline)) seconds")
        }
        return 0
    }

    /// The settings for `arguments`, with the password from `environment` when not given.
    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Settings {
        let parsed = try declaration.parse(arguments)
        let host = parsed.value("host") ?? "127.0.0.1"
        var port: UInt16 = 8080
        if let value = parsed.value("port") {
            guard let given = UInt16(value) else {
                throw UsageError("--port expects a port number 0-65535, got '\(value)'")
            }
            port = given
        }
        let (password, source) = try adminPassword(parsed, environment: environment)
        if let password, password.isEmpty {
            throw UsageError("\(source) is empty: the admin password must not be empty")
        }
        if password == nil, !isLoopback(host) {
            throw UsageError(
                "--host \(host) is reachable from other machines: give --password, --password-file or NOWFLOW_ADMIN_PASSWORD")
        }
        var options = LocalInstance.Options()
        options.databasePath = parsed.value("db") ?? defaultDatabasePath(environment: environment)
        options.schemaFile = parsed.value("schema")
        options.adminUser = parsed.value("user") ?? "admin"
        options.adminPassword = password ?? "admin"
        options.invalidQueryReturnsNoRows = parsed.flag("invalid-query-no-rows")
        options.faults = try faults(parsed)
        options.limits = try limits(parsed)
        let zoneName = parsed.value("time-zone") ?? "America/Los_Angeles"
        guard let zone = TimeZone(identifier: zoneName) else {
            throw UsageError("--time-zone expects an IANA time zone name (such as Europe/Paris or UTC), got '\(zoneName)'")
        }
        options.systemTimeZone = zone
        options.oauthClients = try oauthClients(parsed, environment: environment)
        options.adminAPIKey = try adminAPIKey(parsed, environment: environment)
        if let iterations = try passwordIterations(environment: environment) {
            options.passwordIterations = iterations
        }
        if let value = parsed.value("login-failure-limit") {
            guard let limit = Int(value), (0...maximumLoginFailureLimit).contains(limit) else {
                throw UsageError(
                    "--login-failure-limit expects a number of failed logins 0-\(maximumLoginFailureLimit) "
                        + "(0 never locks), got '\(value)'")
            }
            options.loginFailureLimit = limit
        }
        if let value = parsed.value("lockout-time") {
            guard let seconds = Int(value), (1...maximumLockoutTime).contains(seconds) else {
                throw UsageError(
                    "--lockout-time expects seconds (a whole number 1-\(maximumLockoutTime)), got '\(value)'")
            }
            options.lockoutDuration = .seconds(seconds)
        }
        if let value = parsed.value("attachment-max-size") {
            guard let megabytes = Int(value), megabytes >= 1, megabytes <= maximumAttachmentSize else {
                throw UsageError(
                    "--attachment-max-size expects megabytes (a whole number 1-\(maximumAttachmentSize)), got '\(value)'")
            }
            options.attachmentMaxSize = megabytes << 20
        }
        var settings = Settings(host: host, port: port, options: options, usesDefaultPassword: password == nil)
        if let value = parsed.value("header-timeout") {
            guard let seconds = Int(value), (1...maximumHeaderTimeout).contains(seconds) else {
                throw UsageError(
                    "--header-timeout expects seconds (a whole number 1-\(maximumHeaderTimeout)), got '\(value)'")
            }
            settings.headerTimeout = .seconds(seconds)
        }
        for name in parsed.values("allowed-host") {
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.[]:".contains($0)) })
            else {
                throw UsageError("--allowed-host expects a host name or address (such as proxy.example), got '\(name)'")
            }
            settings.allowedHosts.append(name)
        }
        settings.tls = try tls(parsed, port: port)
        if case .made(let names) = settings.tls?.certificate {
            // A client reaching the server by a name of its certificate sends that name as its Host.
            settings.allowedHosts += names.map { $0.contains(":") ? "[\($0)]" : $0 }
        }
        return settings
    }

    /// The admin password and where it came from: `--password`, the first line of `--password-file`, else
    /// `NOWFLOW_ADMIN_PASSWORD`; nil when none is given.
    private static func adminPassword(
        _ parsed: CommandArguments, environment: [String: String]
    ) throws(UsageError) -> (String?, String) {
        switch (parsed.value("password"), parsed.value("password-file")) {
        case (.some, .some):
            throw UsageError("give --password or --password-file, not both")
        case (let password?, nil):
            return (password, "--password")
        case (nil, let file?):
            let text = try secretFile(file, option: "--password-file")
            return (String(text.prefix { $0 != "\n" && $0 != "\r" }), "--password-file \(file)")
        case (nil, nil):
            return (environment["NOWFLOW_ADMIN_PASSWORD"], "NOWFLOW_ADMIN_PASSWORD")
        }
    }

    /// The admin's API key: the first line of `--api-key-file`, else `NOWFLOW_API_KEY`; nil when neither is given.
    private static func adminAPIKey(
        _ parsed: CommandArguments, environment: [String: String]
    ) throws(UsageError) -> String? {
        let key: String
        let source: String
        if let file = parsed.value("api-key-file") {
            key = String(try secretFile(file, option: "--api-key-file").prefix { $0 != "\n" && $0 != "\r" })
            source = "--api-key-file \(file)"
        } else if let value = environment["NOWFLOW_API_KEY"] {
            key = value
            source = "NOWFLOW_API_KEY"
        } else {
            return nil
        }
        guard !key.isEmpty else { throw UsageError("\(source) is empty: an API key must not be empty") }
        return key
    }

    /// The OAuth clients of every `--oauth-client`, `--oauth-client-file` line and `NOWFLOW_OAUTH_CLIENTS` entry
    /// (client_id → secret; a later one replaces an earlier one with the same id).
    private static func oauthClients(
        _ parsed: CommandArguments, environment: [String: String]
    ) throws(UsageError) -> [String: String] {
        var entries: [(String, source: String)] = []
        if let list = environment["NOWFLOW_OAUTH_CLIENTS"] {
            for (index, entry) in list.split(separator: ",").enumerated() {
                entries.append((entry.trimmingCharacters(in: .whitespaces), "NOWFLOW_OAUTH_CLIENTS entry \(index + 1)"))
            }
        }
        if let file = parsed.value("oauth-client-file") {
            let lines = try secretFile(file, option: "--oauth-client-file").split(
                separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() {
                let entry = line.trimmingCharacters(in: .whitespacesAndNewlines)
                if entry.isEmpty || entry.hasPrefix("#") { continue }
                entries.append((entry, "--oauth-client-file \(file):\(index + 1)"))
            }
        }
        entries += parsed.values("oauth-client").map { ($0, "--oauth-client") }
        var clients: [String: String] = [:]
        for (entry, source) in entries {
            let parts = entry.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw UsageError("\(source) expects ID:SECRET: a client id, a colon and the client's secret")
            }
            clients[String(parts[0])] = String(parts[1])
        }
        return clients
    }

    /// The text of a file holding secrets; its content never appears in an error.
    private static func secretFile(_ path: String, option: String) throws(UsageError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("\(option) \(path) cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw UsageError("\(option) \(path) is not UTF-8 text")
        }
        return text
    }

    /// `NOWFLOW_PASSWORD_ITERATIONS`, the rounds of PBKDF2-HMAC-SHA256 of new password hashes; nil when unset.
    static func passwordIterations(environment: [String: String]) throws(UsageError) -> Int? {
        guard let value = environment["NOWFLOW_PASSWORD_ITERATIONS"] else { return nil }
        guard let iterations = Int(value), (1...LocalInstance.maximumPasswordIterations).contains(iterations) else {
            throw UsageError(
                "NOWFLOW_PASSWORD_ITERATIONS expects a number of rounds 1-\(LocalInstance.maximumPasswordIterations), got '\(value)'")
        }
        return iterations
    }
    /// The largest `--login-failure-limit`.
    static let maximumLoginFailureLimit = 1_000
    /// The longest `--lockout-time`, in seconds (one day).
    static let maximumLockoutTime = 86_400

    /// The HTTPS settings of `--tls`, `--tls-name`, `--tls-cert`, `--tls-key` and `--tls-port`; nil when none is
    /// given.
    private static func tls(_ parsed: CommandArguments, port: UInt16) throws(UsageError) -> TLS? {
        let names = parsed.values("tls-name")
        let files = (certificate: parsed.value("tls-cert"), key: parsed.value("tls-key"))
        let certificate: TLS.Certificate
        switch (parsed.flag("tls"), files.certificate, files.key) {
        case (false, nil, nil):
            if !names.isEmpty { throw UsageError("--tls-name names the certificate that --tls makes: give --tls too") }
            for option in ["tls-port", "tls-client-ca"] where parsed.value(option) != nil {
                throw UsageError("--\(option) needs a certificate: give --tls, or --tls-cert and --tls-key")
            }
            return nil
        case (true, nil, nil):
            for name in names where !isCertificateName(name) {
                throw UsageError("--tls-name expects a DNS name or an IP address (such as dev.example), got '\(name)'")
            }
            certificate = .made(names: names)
        case (false, let file?, let key?):
            if !names.isEmpty {
                throw UsageError("--tls-name names the certificate that --tls makes, not one given with --tls-cert")
            }
            certificate = .files(certificate: file, key: key)
        case (true, _, _):
            throw UsageError("--tls makes its own certificate: give either --tls or --tls-cert and --tls-key")
        case (false, _, _):
            throw UsageError("--tls-cert and --tls-key go together: give the certificate and its private key (PEM)")
        }
        var tlsPort: UInt16?
        if let value = parsed.value("tls-port") {
            guard let given = UInt16(value) else {
                throw UsageError("--tls-port expects a port number 0-65535, got '\(value)'")
            }
            if given != 0, given == port {
                throw UsageError("--tls-port \(given) is also the HTTP --port: give two different ports")
            }
            tlsPort = given
        }
        return TLS(certificate: certificate, port: tlsPort, clientCAFile: parsed.value("tls-client-ca"))
    }

    /// Whether `name` can be a name of the certificate `--tls` makes: an IP address, or a DNS name of letters,
    /// digits, hyphens and dots.
    private static func isCertificateName(_ name: String) -> Bool {
        if LocalCertificateAuthority.isAddress(name) { return true }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return name.utf8.count <= 253
            && labels.allSatisfy { label in
                !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
    }

    /// `~/.nowflow/tls`, where `--tls` keeps its certificate authority and server certificate.
    static func tlsDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        NowflowDirectory.url(environment: environment).appendingPathComponent("tls")
    }

    /// The largest `--attachment-max-size`, in MB (1 TB).
    static let maximumAttachmentSize = 1 << 20
    /// The longest `--header-timeout`, in seconds (one hour).
    static let maximumHeaderTimeout = 3_600
    /// The longest injected latency, in milliseconds (one minute: longer is a hung server, not a slow one).
    static let maximumLatency = 60_000
    /// The most requests `--fail-first` answers with `--fail-status`.
    static let maximumFailFirst = 1_000_000
    /// The longest `Retry-After`, in seconds (one day).
    static let maximumRetryAfter = 86_400
    /// How long a stop waits for the requests in flight before the process exits anyway, in seconds.
    static let stopDeadline = 5.0

    private static func faults(_ parsed: CommandArguments) throws(UsageError) -> FaultInjection {
        var faults = FaultInjection.none
        if let latency = parsed.value("latency") {
            guard let milliseconds = Int(latency), (0...maximumLatency).contains(milliseconds) else {
                throw UsageError(
                    "--latency expects milliseconds (a whole number 0-\(maximumLatency)), got '\(latency)'")
            }
            faults.latency = .milliseconds(milliseconds)
        }
        faults.statusRate = try rate(parsed, "fail-rate") ?? 0
        if let status = parsed.value("fail-status") {
            guard let code = Int(status), [429, 500, 503].contains(code) else {
                throw UsageError("--fail-status expects 429, 500 or 503, got '\(status)'")
            }
            faults.status = code
        }
        if let first = parsed.value("fail-first") {
            guard let count = Int(first), (0...maximumFailFirst).contains(count) else {
                throw UsageError("--fail-first expects a number of requests 0-\(maximumFailFirst), got '\(first)'")
            }
            faults.scripted = Array(repeating: .status(faults.status, retryAfterSeconds: nil), count: count)
        }
        if let retryAfter = parsed.value("retry-after") {
            guard let seconds = Int(retryAfter), (0...maximumRetryAfter).contains(seconds) else {
                throw UsageError(
                    "--retry-after expects seconds (a whole number 0-\(maximumRetryAfter)), got '\(retryAfter)'")
            }
            faults.retryAfterSeconds = seconds
        }
        faults.dropRate = try rate(parsed, "drop-rate") ?? 0
        faults.lostResponseRate = try rate(parsed, "lost-response-rate") ?? 0
        return faults
    }

    private static func rate(_ parsed: CommandArguments, _ name: String) throws(UsageError) -> Double? {
        guard let value = parsed.value(name) else { return nil }
        guard let rate = Double(value), (0...1).contains(rate) else {
            throw UsageError("--\(name) expects a share between 0 and 1, got '\(value)'")
        }
        return rate
    }

    private static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.")
    }

    /// `~/.nowflow/local.db`, the embedded instance's database.
    static func defaultDatabasePath(environment: [String: String]) -> String {
        NowflowDirectory.url(environment: environment).appendingPathComponent("local.db").path
    }
}
