// The multipart/form-data parser of attachment uploads. The input is a Content-Type line and the body. The body
// taken apart in one chunk and one byte at a time gives the same parts and bytes (or the same refusal); and
// uploaded to /api/now/attachment/upload as the listener receives it (in chunks of sizes the input's first byte
// picks), it gives a well-formed answer.
import Foundation
import FuzzInstance
import FuzzSupport
@testable import LocalInstance
import NowData

@main
enum FuzzMultipart {
    nonisolated(unsafe) static var instance: FuzzInstance?

    /// What a parse reported: each part's headers and bytes, and whether it ended, then how the body ended.
    struct Parse: Equatable, CustomStringConvertible {
        var parts: [(MultipartFormData.Part, [UInt8], Bool)] = []
        var outcome = ""

        static func == (left: Parse, right: Parse) -> Bool {
            left.outcome == right.outcome && left.parts.count == right.parts.count
                && zip(left.parts, right.parts).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 && $0.2 == $1.2 }
        }

        var description: String { "\(parts.map { ($0.0, $0.1.count, $0.2) }) \(outcome)" }
    }

    static func parse(_ contentType: String, _ body: UnsafeRawBufferPointer, chunk: Int) -> Parse? {
        guard var form = MultipartFormData(contentType: contentType) else { return nil }
        var parse = Parse()
        do {
            var offset = 0
            while offset < body.count {
                let end = min(body.count, offset + chunk)
                try form.feed(UnsafeRawBufferPointer(rebasing: body[offset..<end])) { event in
                    switch event {
                    case .begin(let part): parse.parts.append((part, [], false))
                    case .bytes(let bytes): parse.parts[parse.parts.count - 1].1.append(contentsOf: bytes)
                    case .end: parse.parts[parse.parts.count - 1].2 = true
                    }
                }
                offset = end
            }
            try form.finish()
            parse.outcome = "complete"
        } catch {
            parse.outcome = "\(error)"
        }
        return parse
    }

    static func main() {
        instance = FuzzInstance()
        Fuzzer.run { start, count in
            let input = Fuzzer.bytes(start, count)
            let newline = input.firstIndex(of: 0x0A) ?? input.count
            let contentType = String(decoding: input[..<newline], as: UTF8.self)
            let body = UnsafeRawBufferPointer(rebasing: input[min(input.count, newline + 1)...])
            let whole = FuzzMultipart.parse(contentType, body, chunk: max(1, body.count))
            let bytewise = FuzzMultipart.parse(contentType, body, chunk: 1)
            guard whole == bytewise else {
                fatalError("one chunk: \(whole.map(String.init(describing:)) ?? "nil"), bytewise: \(bytewise.map(String.init(describing:)) ?? "nil")")
            }
            let pick = Int(input.first ?? 0)
            FuzzMultipart.instance?.upload(
                NowHTTPRequest(
                    method: "POST", path: "/api/now/attachment/upload",
                    headers: ["Authorization": FuzzInstance.adminAuthorization, "Content-Type": contentType]),
                body: body, chunkSizes: [pick % 16 + 1, 4096, pick / 16 + 1, 100])
            return 0
        }
    }
}
