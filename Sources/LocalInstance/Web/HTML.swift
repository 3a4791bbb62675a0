/// Text made fit for HTML: every value a page shows goes through ``escape(_:)``.
enum HTML {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references, fit for element content and for a
    /// quoted attribute value: `<img src=x>` shows as text.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// A link's `href` to a path of this server with query items, escaped for an attribute.
    static func href(_ path: String, _ items: [(String, String)] = []) -> String {
        escape(WebForm.url(path, items))
    }
}
