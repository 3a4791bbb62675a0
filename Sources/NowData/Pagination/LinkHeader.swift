import Foundation

/// The targets of an HTTP `Link` header (`<url>;rel="next",<url>;rel="last"`), by relation.
struct LinkHeader: Sendable, Hashable {
    /// The URL of each relation, such as `next`.
    var links: [String: URL]

    /// Parses a header value; entries without a URL or a `rel` are skipped.
    init(_ value: String) {
        var links: [String: URL] = [:]
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let target = rest[rest.index(after: open)..<close]
            let afterTarget = rest[rest.index(after: close)...]
            let parameters = afterTarget.prefix { $0 != "<" }
            rest = afterTarget.dropFirst(parameters.count)
            guard let url = URL(string: String(target.trimmingCharacters(in: .whitespaces))) else { continue }
            for parameter in parameters.split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel" else {
                    continue
                }
                let relations = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: " \t\",")).lowercased()
                for relation in relations.split(separator: " ") { links[String(relation)] = url }
            }
        }
        self.links = links
    }

    subscript(relation: String) -> URL? { links[relation] }
}
