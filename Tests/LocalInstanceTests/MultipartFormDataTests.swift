import Foundation
import Testing

@testable import LocalInstance

/// The incremental multipart/form-data parser: the same parts whatever the chunks (down to one byte, a
/// delimiter split across them), a preamble and an epilogue skipped, quoted parameters, and a truncated or
/// malformed body refused.
@Suite struct MultipartFormDataTests {
    static let contentType = "multipart/form-data; boundary=XyZ123"

    static let body =
        "preamble to skip\r\n"
        + "--XyZ123\r\nContent-Disposition: form-data; name=\"table_name\"\r\n\r\nincident\r\n"
        + "--XyZ123  \r\ncontent-disposition: form-data; name=\"uploadFile\"; filename=\"a;b \\\"c\\\".txt\"\r\n"
        + "Content-Type: text/plain\r\n\r\nline one\r\n--XyZ12 is not the boundary\r\n\r\n--XyZ1\r\n"
        + "--XyZ123\r\nContent-Disposition: form-data; name=\"empty\"; filename=\"\"\r\n\r\n"
        + "\r\n--XyZ123--\r\nepilogue to skip"

    /// Each part as `name | file name | type | body`, from `body` fed `chunkSize` bytes at a time.
    static func parts(_ body: String, chunkSize: Int) throws -> [String] {
        var form = try #require(MultipartFormData(contentType: contentType))
        var rendered: [String] = []
        var current = ""
        var bytes: [UInt8] = []
        let all = Array(body.utf8)
        var offset = 0
        while offset < all.count {
            let end = min(offset + chunkSize, all.count)
            try all[offset..<end].withUnsafeBytes { chunk in
                try form.feed(chunk) { event in
                    switch event {
                    case .begin(let part):
                        current = "\(part.name) | \(part.fileName ?? "-") | \(part.contentType ?? "-")"
                        bytes = []
                    case .bytes(let chunk): bytes += chunk
                    case .end: rendered.append(current + " | " + String(decoding: bytes, as: UTF8.self))
                    }
                }
            }
            offset = end
        }
        try form.finish()
        return rendered
    }

    @Test(arguments: [1, 2, 3, 7, 10, 64, 100_000])
    func theSamePartsWhateverTheChunks(chunkSize: Int) throws {
        #expect(
            try Self.parts(Self.body, chunkSize: chunkSize) == [
                "table_name | - | - | incident",
                "uploadFile | a;b \"c\".txt | text/plain | line one\r\n--XyZ12 is not the boundary\r\n\r\n--XyZ1",
                "empty |  | - | ",
            ])
    }

    @Test func aBodyEndingBeforeItsClosingDelimiterIsTruncated() throws {
        let cut = String(Self.body.prefix(Self.body.count - 30))
        #expect(throws: MultipartFormData.Malformed.truncated) { try Self.parts(cut, chunkSize: 1) }
        #expect(throws: MultipartFormData.Malformed.truncated) { try Self.parts("", chunkSize: 1) }
    }

    @Test func aPartWithoutANameOrWithTextAfterTheBoundaryIsMalformed() throws {
        let nameless = "--XyZ123\r\nContent-Type: text/plain\r\n\r\nx\r\n--XyZ123--\r\n"
        #expect(throws: MultipartFormData.Malformed.badPart) { try Self.parts(nameless, chunkSize: 1) }
        let trailing = "--XyZ123x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--XyZ123--\r\n"
        #expect(throws: MultipartFormData.Malformed.badPart) { try Self.parts(trailing, chunkSize: 5) }
        let endless = "--XyZ123\r\nContent-Disposition: form-data; name=\"a\"; filename=\""
            + String(repeating: "n", count: MultipartFormData.maximumHeaderSize)
        #expect(throws: MultipartFormData.Malformed.badPart) { try Self.parts(endless, chunkSize: 4096) }
    }

    @Test func onlyAMultipartFormWithABoundaryIsParsed() {
        #expect(MultipartFormData(contentType: "application/json") == nil)
        #expect(MultipartFormData(contentType: "multipart/form-data") == nil)
        #expect(MultipartFormData(contentType: "multipart/form-data; boundary=\"\"") == nil)
        #expect(MultipartFormData(contentType: "Multipart/Form-Data; charset=utf-8; boundary=\"a b\"") != nil)
        #expect(MultipartFormData.parameter("boundary", in: "multipart/form-data; boundary=\"a;b\"") == "a;b")
    }
}
