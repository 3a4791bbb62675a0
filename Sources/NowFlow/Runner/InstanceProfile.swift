import Foundation
import NowData

/// A named instance from `~/.nowflow/config.yaml`, so that jobs and `--instance` can say `dev` instead of a URL.
///
/// ```yaml
/// profiles:
///   dev:
///     url: https://dev12345.service-now.com
///     auth:                       # optional; a job's own auth wins
///       basic: { user: "${env.DEV_USER}", password: "${env.DEV_PASSWORD}" }
///   staging:
///     url: https://staging.example.com
///     auth: { token: "${env.STAGING_TOKEN}" }
///   integration:                  # the JWT bearer grant; a relative key file is under ~/.nowflow
///     url: https://dev12345.service-now.com
///     auth:
///       oauth_jwt:
///         { client_id: jobs, client_secret: "${env.JWT_SECRET}", private_key_file: jobs.pem, kid: key-1, user: svc }
///   local-tls:                    # nowflow serve --tls --tls-client-ca clients.pem
///     url: https://localhost:8080
///     ca_file: ~/.nowflow/tls/ca.pem
///     client_cert: beth.pem       # and its key; a relative path is under ~/.nowflow
///     client_key: beth-key.pem
/// ```
public struct InstanceProfile: Sendable {
    /// The profile's name, as `--instance` gives it.
    public var name: String
    /// The instance's URL.
    public var url: URL
    /// How the instance's certificate is checked and which client certificate is presented (`ca_file`,
    /// `insecure`, `client_cert`, `client_key`).
    public var tls = NowTLSSettings()
    /// `rate:`: the most requests a run on the instance sends, whatever the job's `rate:` (the slower wins).
    public var rate: RequestRate?
    var auth: JobAuthentication?

    /// The profile's authentication with its values read from `environment`, and the values to mask; nil when
    /// the profile has no `auth`.
    public func authentication(environment: [String: String]) throws -> (
        authentication: NowAuthentication, secrets: [String]
    )? {
        guard let auth else { return nil }
        do {
            return try auth.resolve(in: Scope(env: environment))
        } catch {
            throw StepFailure("profile \(name): auth: \(error.message)")
        }
    }

    /// The URL an instance's address stands for (a profile's `url:`, `--instance`), when it is an `http(s)://`
    /// URL with a host; nil otherwise.
    public static func instanceURL(_ text: String) -> URL? {
        guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            return nil
        }
        return url
    }

    /// Reads every profile of a config file; problems are diagnostics, as in job files.
    public static func load(path: String) throws(JobFileError) -> [String: InstanceProfile] {
        let root = try JobFile.root(of: try JobFile.text(at: path), file: path)
        let builder = JobBuilder(file: path)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        var profiles: [String: InstanceProfile] = [:]
        if let root, let pairs = builder.mapping(root, "config.yaml") {
            builder.checkKeys(pairs, allowed: ["profiles"], in: "config.yaml")
            for profile in builder.value(pairs, "profiles").flatMap({ builder.mapping($0, "profiles") }) ?? [] {
                guard let fields = builder.mapping(profile.value, "profile \(profile.name)") else { continue }
                builder.checkKeys(
                    fields, allowed: ["url", "auth", "ca_file", "insecure", "client_cert", "client_key", "rate"],
                    in: "profile \(profile.name)")
                let auth = builder.value(fields, "auth").flatMap(builder.authentication)
                guard let urlNode = builder.value(fields, "url") else {
                    builder.error(at: profile.value.mark, "profile \(profile.name) needs url:")
                    continue
                }
                guard let text = builder.text(urlNode, "url") else { continue }
                guard let url = Self.instanceURL(text) else {
                    builder.error(at: urlNode.mark, "url '\(text)' is not an http(s) URL")
                    continue
                }
                var loaded = InstanceProfile(name: profile.name, url: url, auth: auth)
                loaded.tls = tls(fields, builder: builder, profile: profile.name, folder: folder)
                loaded.rate = builder.value(fields, "rate").flatMap(builder.requestRate)
                profiles[profile.name] = loaded
            }
        }
        guard builder.diagnostics.isEmpty else { throw JobFileError(diagnostics: builder.sortedDiagnostics) }
        return profiles
    }

    /// The TLS settings of a profile's `ca_file`, `insecure`, `client_cert` and `client_key`: each file must
    /// exist (`~/` is the home folder, a relative path is under `folder`, the config file's), and `client_key`
    /// goes with `client_cert`.
    private static func tls(
        _ fields: [YAMLNode.Pair], builder: JobBuilder, profile: String, folder: URL
    ) -> NowTLSSettings {
        var settings = NowTLSSettings()
        func file(_ key: String) -> String? {
            guard let node = builder.value(fields, key), let text = builder.text(node, key) else { return nil }
            let expanded = text.hasPrefix("~/") ? NSString(string: text).expandingTildeInPath : text
            let path = expanded.hasPrefix("/") ? expanded : folder.appendingPathComponent(expanded).path
            guard FileManager.default.fileExists(atPath: path) else {
                builder.error(at: node.mark, "profile \(profile): \(key) '\(text)' does not exist (\(path))")
                return nil
            }
            return path
        }
        settings.caFile = file("ca_file")
        settings.clientCertificateFile = file("client_cert")
        settings.clientKeyFile = file("client_key")
        if settings.clientKeyFile != nil, settings.clientCertificateFile == nil,
            let node = builder.value(fields, "client_key")
        {
            builder.error(at: node.mark, "profile \(profile): client_key goes with client_cert, the certificate")
        }
        if let node = builder.value(fields, "insecure") {
            settings.insecure = builder.boolean(node, "insecure") ?? false
        }
        return settings
    }
}
