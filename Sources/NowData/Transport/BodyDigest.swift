import Synchronization

/// The SHA-256 of a response body, fed chunk by chunk from the transport's thread as the body is written to its
/// file, and read once the transfer is over.
final class BodyDigest: Sendable {
    private let hasher = Mutex(SHA256())

    func update(_ bytes: UnsafeRawBufferPointer) {
        hasher.withLock { $0.update(bytes) }
    }

    func finalizeHex() -> String {
        hasher.withLock { $0.finalizeHex() }
    }
}
