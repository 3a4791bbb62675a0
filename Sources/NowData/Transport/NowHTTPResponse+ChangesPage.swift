extension NowHTTPResponse {
    /// The header in which a served local instance (`nowflow serve`, over HTTP or HTTPS) names, on every answer of
    /// its APIs, the path of its web page of what changed (`/changes.do`); a ServiceNow instance sends none.
    package static let changesPageHeader = "X-Nowflow-Changes"

    /// The path this answer names in ``changesPageHeader``: a path from the server's root (`/changes.do`) made of
    /// ASCII letters, digits and `/._~-` only, so that a link made of it is the server's own page; nil when there is
    /// none or it is anything else (another site's address, a query, spaces).
    package var changesPage: String? {
        guard let path = headers[Self.changesPageHeader], path.hasPrefix("/"), !path.hasPrefix("//"),
            path.utf8.count <= 200,
            path.utf8.allSatisfy({ byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || "/._~-".utf8.contains(byte)
            })
        else { return nil }
        return path
    }
}
