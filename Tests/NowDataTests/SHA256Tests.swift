import Foundation
import Testing

@testable import NowData

/// The package's SHA-256, fed whole and in pieces, against FIPS 180-4's test vectors.
@Suite struct SHA256Tests {
    @Test func knownDigests() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func piecesOfAnySizeGiveTheWholesDigest() {
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        var hasher = SHA256()
        var offset = 0
        var step = 1
        while offset < million.count {
            let end = min(million.count, offset + step)
            hasher.update(million[offset..<end])
            offset = end
            step = step * 3 + 7
        }
        #expect(hasher.finalizeHex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(hasher.finalizeHex() == SHA256().finalizeHex(after: million))
    }
}

extension SHA256 {
    /// The digest of `bytes` fed in one piece to a copy.
    fileprivate func finalizeHex(after bytes: [UInt8]) -> String {
        var copy = self
        copy.update(bytes)
        return copy.finalizeHex()
    }
}
