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
/// ```
public struct InstanceProfile: Sendable {
    /// The profile's name, as `--instance` gives it.
    public var name: String
    /// The instance's URL.
    public var url: URL
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
        var profiles: [String: InstanceProfile] = [:]
        if let root, let pairs = builder.mapping(root, "config.yaml") {
            builder.checkKeys(pairs, allowed: ["profiles"], in: "config.yaml")
            for profile in builder.value(pairs, "profiles").flatMap({ builder.mapping($0, "profiles") }) ?? [] {
                guard let fields = builder.mapping(profile.value, "profile \(profile.name)") else { continue }
                builder.checkKeys(fields, allowed: ["url", "auth"], in: "profile \(profile.name)")
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
                profiles[profile.name] = InstanceProfile(name: profile.name, url: url, auth: auth)
            }
        }
        guard builder.diagnostics.isEmpty else { throw JobFileError(diagnostics: builder.sortedDiagnostics) }
        return profiles
    }
}
