import Foundation
import LocalInstance
import NowData
import NowFlow

/// The instance a run talks to: the embedded local instance (in process), a URL, or a profile of
/// `~/.nowflow/config.yaml`.
struct InstanceTarget {
    /// An instance that cannot be used: a usage or configuration error (a bad URL, an unknown profile, an unreadable
    /// `config.yaml`, a profile's unset environment variable) or a failure to open it.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        var isUsage: Bool
    }

    var url: URL
    /// The embedded instance's transport, in process; nil for an instance reached over HTTP(S).
    var transport: (any NowTransport)?
    /// How an instance reached over HTTPS is checked, and the client certificate (a profile's).
    var tls = NowTLSSettings()
    /// The most requests a run sends (a profile's `rate:`); nil: no limit of the instance's.
    var rate: RequestRate?
    /// The transport a run gives its requests: the embedded instance's, libcurl's with ``tls`` when it is not the
    /// default, or nil (libcurl's, the default).
    var runTransport: (any NowTransport)? {
        transport ?? (tls == NowTLSSettings() ? nil : CurlTransport(instanceURL: url, tls: tls))
    }
    var authentication: NowAuthentication
    var secrets: [String] = []
    /// Whether credentials were found (a profile's, the environment's) or are not needed (the embedded instance's
    /// transport acts as its administrator): what a 401 hints.
    var hasCredentials: Bool {
        if instance != nil { return true }
        if case .none = authentication { return false }
        return true
    }
    private var instance: LocalInstance?

    /// The instance as the reports name it: `local` for the embedded one, else its URL without user or password.
    var reportName: String {
        instance == nil ? Self.reportName(of: url.absoluteString) : "local"
    }

    /// `instance` (`--instance`, a job's `instance:`: a URL or a profile's name) as the reports name it, without the
    /// user or password a URL may hold.
    static func reportName(of instance: String) -> String {
        guard var components = URLComponents(string: instance), components.user != nil || components.password != nil
        else { return instance }
        (components.user, components.password) = (nil, nil)
        return components.string ?? ""
    }

    /// Where the name check keeps this instance's dictionary: `~/.nowflow/schema/HOST[-PORT].json` for an instance
    /// reached over HTTP(S); nil for the embedded one, whose dictionary is at hand.
    var schemaCache: URL? {
        guard transport == nil, let host = url.host else { return nil }
        let name = url.port.map { "\(host)-\($0)" } ?? host
        return NowflowDirectory.url.appendingPathComponent("schema").appendingPathComponent(name + ".json")
    }

    /// Closes the embedded instance, if one was opened.
    func close() {
        instance?.close()
    }

    /// `local`, an `http(s)://` URL, or a profile name; a URL, or a profile without `auth:`, takes the
    /// environment's credentials (``EnvironmentCredentials``), the password asked on the terminal when only a user
    /// is set.
    static func resolve(_ name: String, environment: [String: String], verbose: Bool) throws(Failure) -> InstanceTarget
    {
        if name == "local" { return try local(environment: environment, verbose: verbose) }
        if name.contains("://") {
            guard let url = InstanceProfile.instanceURL(name) else {
                throw Failure(description: "instance '\(name)' is not an http(s) URL", isUsage: true)
            }
            try checkUsable(url)
            var target = InstanceTarget(url: url, transport: nil, authentication: .none)
            if let given = EnvironmentCredentials.authentication(in: environment, password: PasswordPrompt.ask) {
                target.authentication = given.authentication
                target.secrets = given.secrets
            }
            return target
        }
        return try profile(name, environment: environment)
    }

    /// Refuses a URL the service would refuse (plain `http://` to a host that is not loopback), before anything runs.
    private static func checkUsable(_ url: URL) throws(Failure) {
        guard let problem = NowServiceConfiguration(instanceURL: url).instanceURLProblem else { return }
        guard url.scheme != "http" else {
            throw Failure(
                description: "instance '\(reportName(of: url.absoluteString))': plain http:// is only for this machine (loopback); "
                    + "use https:// for another host, so that credentials do not travel unencrypted",
                isUsage: true)
        }
        throw Failure(description: "instance '\(reportName(of: url.absoluteString))': \(problem)", isUsage: true)
    }

    /// The embedded instance on `~/.nowflow/local.db` (seeded with the demo data on first use), reached in
    /// process as its administrator without credentials (``LocalInstance/transport(actingAs:)``), so that opening
    /// it derives no password hash. An administrator with a password is left as it is; one without (a new
    /// database's) gets `NOWFLOW_ADMIN_PASSWORD` (`admin` by default), for logins over HTTP (`nowflow serve`).
    private static func local(environment: [String: String], verbose: Bool) throws(Failure) -> InstanceTarget {
        let directory = NowflowDirectory.url
        let instance: LocalInstance
        var options = LocalInstance.Options()
        options.adminPassword = environment["NOWFLOW_ADMIN_PASSWORD"] ?? "admin"
        options.keepsExistingAdmin = true
        do {
            if let iterations = try ServeCommand.passwordIterations(environment: environment) {
                options.passwordIterations = iterations
            }
        } catch {
            throw Failure(description: error.description, isUsage: true)
        }
        if !verbose { options.log = { _ in } }
        do {
            try NowflowDirectory.create()
            options.databasePath = directory.appendingPathComponent("local.db").path
            instance = try LocalInstance(options: options)
        } catch {
            throw Failure(description: "cannot open the local instance in \(directory.path): \(error)", isUsage: false)
        }
        var target = InstanceTarget(
            url: Self.localURL, transport: instance.transport(actingAs: options.adminUser), authentication: .none)
        target.instance = instance
        return target
    }

    /// The URL the embedded instance answers to (nothing listens there: the transport is in process).
    private static let localURL: URL = {
        var components = URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        return components.url ?? URL(fileURLWithPath: "/")
    }()

    private static func profile(_ name: String, environment: [String: String]) throws(Failure) -> InstanceTarget {
        let path = NowflowDirectory.url.appendingPathComponent("config.yaml").path
        guard FileManager.default.fileExists(atPath: path) else {
            throw Failure(
                description: "instance '\(name)' is not local, a URL, or a profile: \(path) does not exist",
                isUsage: true)
        }
        let profiles: [String: InstanceProfile]
        do {
            profiles = try InstanceProfile.load(path: path)
        } catch {
            throw Failure(description: "\(error)", isUsage: true)
        }
        guard let profile = profiles[name] else {
            let known = profiles.keys.sorted().joined(separator: ", ")
            throw Failure(
                description: "no profile '\(name)' in \(path) (profiles: \(known.isEmpty ? "none" : known))",
                isUsage: true)
        }
        try checkUsable(profile.url)
        var target = InstanceTarget(url: profile.url, transport: nil, authentication: .none)
        target.tls = profile.tls
        target.rate = profile.rate
        if profile.tls.insecure {
            printError(
                "nowflow: WARNING: profile \(name) has insecure: true: the certificate of "
                    + "\(profile.url.absoluteString) is not checked, so anyone on the way can read and change every "
                    + "request, credentials included")
        }
        do {
            if let resolved = try profile.authentication(environment: environment)
                ?? EnvironmentCredentials.authentication(in: environment, password: PasswordPrompt.ask)
            {
                target.authentication = resolved.authentication
                target.secrets = resolved.secrets
            }
        } catch {
            // A profile's auth that reads an unset variable: the configuration, not the job, is at fault.
            throw Failure(description: "\(error)", isUsage: true)
        }
        return target
    }
}
