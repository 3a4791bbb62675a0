import Foundation
import NowData

/// Replaces every secret value in a text or value with `***`.
///
/// The secrets are the values of the job's `auth` and of the `env` and `vars` names listed under `secrets`.
struct SecretMasker: Sendable {
    static let mask = "***"

    /// Longest first, so that a secret containing another is masked whole.
    private let secrets: [String]

    init(_ secrets: some Sequence<String>) {
        self.secrets = Set(secrets.filter { !$0.isEmpty }).sorted { $0.count > $1.count }
    }

    func callAsFunction(_ text: String) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: Self.mask) }
    }

    /// The value with the secrets masked in every string it holds.
    func callAsFunction(_ value: JSONValue) -> JSONValue {
        guard !secrets.isEmpty else { return value }
        return value.mappingStrings { self($0) }
    }
}
