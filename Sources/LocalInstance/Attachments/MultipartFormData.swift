import Foundation

/// A `multipart/form-data` body (RFC 7578) taken apart: its text fields and its file parts, in order.
struct MultipartFormData {
    /// One part of the body.
    struct Part {
        /// The `name` of its `Content-Disposition`.
        var name: String
        /// The `filename` of its `Content-Disposition`, for a file part.
        var fileName: String?
        /// Its `Content-Type`, if given.
        var contentType: String?
        /// Its bytes.
        var body: Data
    }

    /// The parts in the order they came.
    var parts: [Part]

    /// The body of a request whose `Content-Type` is `contentType`; nil when it is not multipart/form-data with a
    /// boundary, or the body does not hold one well-formed part.
    init?(_ body: Data, contentType: String) {
        guard contentType.lowercased().hasPrefix("multipart/form-data"),
            let boundary = Self.parameter("boundary", in: contentType)
        else { return nil }
        let delimiter = Data(("--" + boundary).utf8)
        let headerEnd = Data("\r\n\r\n".utf8)
        var parts: [Part] = []
        guard var cursor = body.range(of: delimiter)?.upperBound else { return nil }
        while let next = body.range(of: delimiter, in: cursor..<body.endIndex) {
            var section = body[cursor..<next.lowerBound]
            if section.starts(with: Data("\r\n".utf8)) { section = section.dropFirst(2) }
            if section.count >= 2, section.suffix(2) == Data("\r\n".utf8) { section = section.dropLast(2) }
            guard let split = section.range(of: headerEnd) else { return nil }
            let headerText = String(decoding: section[section.startIndex..<split.lowerBound], as: UTF8.self)
            var name: String?
            var fileName: String?
            var partType: String?
            for line in headerText.components(separatedBy: "\r\n") {
                let pieces = line.split(separator: ":", maxSplits: 1).map(String.init)
                guard pieces.count == 2 else { continue }
                let value = pieces[1].trimmingCharacters(in: .whitespaces)
                switch pieces[0].lowercased() {
                case "content-disposition":
                    name = Self.parameter("name", in: value)
                    fileName = Self.parameter("filename", in: value)
                case "content-type":
                    partType = value
                default:
                    break
                }
            }
            guard let name else { return nil }
            parts.append(
                Part(name: name, fileName: fileName, contentType: partType, body: Data(section[split.upperBound...])))
            cursor = next.upperBound
            if body[cursor...].starts(with: Data("--".utf8)) { break }
        }
        guard !parts.isEmpty else { return nil }
        self.parts = parts
    }

    /// The value of `name=value` or `name="value"` among the `;`-separated parameters of a header value.
    private static func parameter(_ name: String, in value: String) -> String? {
        for piece in value.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == name else { continue }
            var text = pair[1]
            if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
            return text
        }
        return nil
    }
}
