/// Why a TLS certificate or key could not be read, checked or made: a sentence naming the file or step and the
/// reason.
public struct TLSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sentence, such as `--tls-key server-key.pem does not match the certificate in server.pem`.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
