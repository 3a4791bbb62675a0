import Foundation
import Testing

@testable import CurlHTTP

/// The file a download is written to in whole blocks: the bytes arrive as they were sent, whatever the chunks
/// (smaller than a block, straddling blocks, many blocks at once, none).
@Suite struct CurlFileSinkTests {
    @Test func chunksOfAnySizeArriveWhole() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sink-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let bytes = (0..<(40 * CurlFileSink.blockSize + 123)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        let sink = try CurlFileSink(creating: file)
        var offset = 0
        for size in [1, 0, CurlFileSink.blockSize - 1, 5, 3 * CurlFileSink.blockSize, 10_000, CurlFileSink.blockSize, .max] {
            let end = min(bytes.count, offset + min(size, bytes.count))
            bytes[offset..<end].withUnsafeBytes { chunk in #expect(throws: Never.self) { try sink.write(chunk) } }
            offset = end
        }
        try sink.close()
        #expect(offset == bytes.count)
        #expect(try Data(contentsOf: file) == Data(bytes))
    }
}
