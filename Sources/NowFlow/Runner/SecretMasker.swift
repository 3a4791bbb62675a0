import Foundation
import NowData

/// Replaces every secret in a text or value with `***`.
///
/// The secrets are the values of the job's `auth` (and the Basic header they make) and of the `env` and `vars`
/// names listed under `secrets`, whatever their type: a number by its text, a list or map by each of its items.
/// Each is masked in every form it can take in an output: as it is, JSON-escaped (a `"` or `\` in a password),
/// percent-encoded (in a query or path) and, for Basic credentials, base64-encoded.
struct SecretMasker: Sendable {
    static let mask = "***"

    /// Every form of every secret, longest first, so that a secret containing another is masked whole.
    private let forms: [String]
    /// The secrets as given, to add more (an included job's).
    private let secrets: [String]

    /// A masker of `secrets`, given as texts.
    init(_ secrets: some Sequence<String>) {
        self.secrets = Array(secrets)
        var forms: Set<String> = []
        for secret in secrets where !secret.isEmpty {
            forms.insert(secret)
            forms.insert(String(JSONValue.string(secret).jsonText().dropFirst().dropLast()))
            for allowed in [CharacterSet.alphanumerics, .urlQueryAllowed, .urlPathAllowed] {
                if let encoded = secret.addingPercentEncoding(withAllowedCharacters: allowed) {
                    forms.insert(encoded)
                    // A form body's or a query's space.
                    forms.insert(encoded.replacingOccurrences(of: "%20", with: "+"))
                }
            }
        }
        self.forms = forms.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// The texts of `value` that are secrets when it is one: a string, a number's text, each item of a list or map.
    static func texts(of value: JSONValue) -> [String] {
        switch value {
        case .string(let text): [text]
        case .number(let number): [number.text]
        case .array(let items): items.flatMap(texts(of:))
        case .object(let members): members.flatMap { texts(of: $0.value) }
        case .null, .bool: []
        }
    }

    /// The base64 `user:password` of a Basic `Authorization` header, to mask as a whole.
    static func basicCredentials(user: String, password: String) -> String {
        Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// A masker of these secrets and `more`.
    func adding(_ more: some Sequence<String>) -> SecretMasker {
        SecretMasker(secrets + Array(more))
    }

    /// A masker of these secrets and those of `other` that are not among them (what the items of a parallel
    /// foreach added, each to its own copy).
    func adding(_ other: SecretMasker) -> SecretMasker {
        let known = Set(secrets)
        let more = other.secrets.filter { !known.contains($0) }
        return more.isEmpty ? self : adding(more)
    }

    func callAsFunction(_ text: String) -> String {
        forms.reduce(text) { $0.replacingOccurrences(of: $1, with: Self.mask) }
    }

    /// The value with the secrets masked in every string it holds, and a number that is a secret replaced by `***`.
    func callAsFunction(_ value: JSONValue) -> JSONValue {
        guard !forms.isEmpty else { return value }
        switch value {
        case .string(let text): return .string(self(text))
        case .number(let number): return forms.contains(number.text) ? .string(Self.mask) : value
        case .array(let items): return .array(items.map { self($0) })
        case .object(let members): return .object(JSONObject(members.map { ($0.key, self($0.value)) }))
        case .null, .bool: return value
        }
    }
}
