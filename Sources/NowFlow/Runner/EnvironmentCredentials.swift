import NowData

/// The instance and credentials given by the environment, as CI systems and Ansible's ServiceNow collection give
/// them: `NOW_INSTANCE` (or Ansible's `SN_HOST`), `NOW_TOKEN`, `NOW_USER` and `NOW_PASSWORD` (or `SN_USERNAME`
/// and `SN_PASSWORD`). `nowflow run`, `validate` and `repl` read them; a job's `auth:` and a profile's take
/// precedence over the credentials, `--instance` and a job's `instance:` over the instance.
///
/// ```swift
/// let instance = options.instance ?? job.instance ?? EnvironmentCredentials.instance(in: environment) ?? "local"
/// ```
public enum EnvironmentCredentials {
    /// `NOW_INSTANCE`, else `SN_HOST`; a bare host name (`dev1234.service-now.com`) stands for `https://` it.
    public static func instance(in environment: [String: String]) -> String? {
        guard let given = [environment["NOW_INSTANCE"], environment["SN_HOST"]].compactMap({ $0 }).first(where: {
            !$0.isEmpty
        })
        else { return nil }
        return given.contains(".") && !given.contains("://") ? "https://\(given)" : given
    }

    /// A bearer token from `NOW_TOKEN`, else Basic credentials from `NOW_USER`/`NOW_PASSWORD` or
    /// `SN_USERNAME`/`SN_PASSWORD`, with the values to mask; nil when the environment gives none. When a user is
    /// set without a password, `password` is asked for it (on a terminal, without echo); nil from it: no
    /// credentials.
    ///
    /// The one resolver of environment credentials: `nowflow run`, `validate` and `repl` all take theirs from it,
    /// for a URL and for a profile without `auth:`.
    public static func authentication(
        in environment: [String: String], password ask: (_ user: String) -> String? = { _ in nil }
    ) -> (authentication: NowAuthentication, secrets: [String])? {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let token = value("NOW_TOKEN") {
            return (.bearer(StaticAccessToken(token: token)), [token])
        }
        func basic(_ user: String, _ password: String) -> (authentication: NowAuthentication, secrets: [String]) {
            (.basic(user: user, password: password), [password, SecretMasker.basicCredentials(user: user, password: password)])
        }
        let pairs = [("NOW_USER", "NOW_PASSWORD"), ("SN_USERNAME", "SN_PASSWORD")]
        for (userName, passwordName) in pairs {
            if let user = value(userName), let password = value(passwordName) { return basic(user, password) }
        }
        guard let user = pairs.lazy.compactMap({ value($0.0) }).first, let password = ask(user), !password.isEmpty
        else { return nil }
        return basic(user, password)
    }

    /// What to do after a 401 from a run that sent no credentials.
    public static let missingCredentialsHint =
        "the instance asks for credentials and none were given: set NOW_USER and NOW_PASSWORD (or NOW_TOKEN, or "
        + "SN_USERNAME and SN_PASSWORD), give the job an auth:, or use a profile of ~/.nowflow/config.yaml with an auth:"

    /// What to do after a 401 from a run that sent credentials (from the environment, a job's or a profile's
    /// `auth:`).
    public static let refusedCredentialsHint =
        "the instance refused the credentials given: check NOW_USER and NOW_PASSWORD (or NOW_TOKEN, or SN_USERNAME "
        + "and SN_PASSWORD), the job's auth: or the profile's auth:"

    /// The hint after a 401: ``missingCredentialsHint`` when no credentials were sent, else
    /// ``refusedCredentialsHint``.
    public static func unauthorizedHint(credentialsGiven: Bool) -> String {
        credentialsGiven ? refusedCredentialsHint : missingCredentialsHint
    }
}
