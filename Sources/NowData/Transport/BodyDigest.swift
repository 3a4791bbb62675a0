import Dispatch
import Synchronization

/// The SHA-256 of a response body, fed chunk by chunk from the transport's thread as the body is written to its
/// file, and read once the transfer is over.
///
/// The hashing (about 0.7 s a gigabyte) runs beside the transfer instead of after each chunk: the chunks are
/// copied into batches of ``batchSize`` bytes, and each full batch is hashed on a queue of the digest's own, in
/// order, while the transport goes on receiving and writing. At most ``batchesInFlight`` batches wait; a transport
/// that gets ahead waits for the hashing, so memory stays bounded (5 MB) whatever the body weighs.
final class BodyDigest: Sendable {
    /// The bytes hashed at a time.
    static let batchSize = 1 << 20
    /// The full batches that may wait to be hashed.
    static let batchesInFlight = 4

    /// The batch being filled (the transport's thread, then the reader's).
    private let filling = Mutex<[UInt8]>([])
    private let hasher = Mutex(SHA256())
    private let room = DispatchSemaphore(value: BodyDigest.batchesInFlight)
    private let queue = DispatchQueue(label: "nowdata.body-digest")

    func update(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let full = filling.withLock { batch -> [UInt8]? in
                if batch.capacity < Self.batchSize { batch.reserveCapacity(Self.batchSize) }
                let count = min(Self.batchSize - batch.count, bytes.count - offset)
                batch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))
                offset += count
                guard batch.count == Self.batchSize else { return nil }
                defer { batch = [] }
                return batch
            }
            if let full { hash(full) }
        }
    }

    /// The digest of every byte fed, once the batches waiting have been hashed.
    func finalizeHex() -> String {
        let rest = filling.withLock { batch in
            defer { batch = [] }
            return batch
        }
        if !rest.isEmpty { hash(rest) }
        return queue.sync { hasher.withLock { $0.finalizeHex() } }
    }

    /// Hands `batch` to the queue, once there is room for it.
    private func hash(_ batch: [UInt8]) {
        room.wait()
        queue.async { [self] in
            hasher.withLock { $0.update(batch) }
            room.signal()
        }
    }
}
