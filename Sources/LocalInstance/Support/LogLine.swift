/// What the local instance writes to its log: one line per notice, whatever a request put in it.
enum LogLine {
    /// The most UTF-8 bytes of one line; the rest is cut and counted.
    static let maximumLength = 2048
    /// The most notices one request logs; the rest are counted in one last line.
    static let maximumPerRequest = 10

    /// `text` fit for one log line: control characters (a newline, a carriage return, an escape) written as
    /// `\n`, `\r`, `\t` or `\u{1B}`, so that a value cannot start a forged line, and cut at
    /// ``maximumLength`` bytes.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        var length = 0
        for scalar in text.unicodeScalars {
            let piece: String
            switch scalar {
            case "\n": piece = "\\n"
            case "\r": piece = "\\r"
            case "\t": piece = "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}"
                || scalar == "\u{2029}":
                piece = "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: piece = String(scalar)
            }
            guard length + piece.utf8.count <= maximumLength else {
                return escaped + "... (\(text.utf8.count - length) more bytes)"
            }
            escaped += piece
            length += piece.utf8.count
        }
        return escaped
    }

    /// The lines to log for one request's `notices`: at most ``maximumPerRequest``, the last of them counting the
    /// ones left out.
    static func bounded(_ notices: [String], prefix: String) -> [String] {
        guard notices.count > maximumPerRequest else { return notices }
        return Array(notices.prefix(maximumPerRequest - 1))
            + ["\(prefix)\(notices.count - maximumPerRequest + 1) more notices for this request not logged"]
    }
}
