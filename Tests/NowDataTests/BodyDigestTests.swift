import Foundation
import Testing

@testable import NowData

/// The digest of a downloaded body, hashed in batches beside the transfer: the same as hashing it whole, whatever
/// the chunks (smaller than a batch, straddling batches, several batches at once, none at all).
@Suite struct BodyDigestTests {
    @Test func batchesHashToTheDigestOfTheWholeBody() {
        let body = (0..<(3 * BodyDigest.batchSize + 12_345)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        var whole = SHA256()
        whole.update(body)
        let digest = BodyDigest()
        var offset = 0
        for size in [1, 7, BodyDigest.batchSize - 8, 2 * BodyDigest.batchSize + 5, 3, Int.max] {
            let end = min(body.count, offset + min(size, body.count))
            body[offset..<end].withUnsafeBytes { digest.update($0) }
            offset = end
        }
        #expect(offset == body.count)
        #expect(digest.finalizeHex() == whole.finalizeHex())
        #expect(BodyDigest().finalizeHex() == SHA256.hex(""))
    }
}
