import Foundation

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

    func callAsFunction(_ value: Value) -> Value {
        guard !secrets.isEmpty else { return value }
        switch value {
        case .string(let text): return .string(self(text))
        case .list(let items): return .list(items.map { self($0) })
        case .map(let fields): return .map(fields.mapValues { self($0) })
        default: return value
        }
    }
}
