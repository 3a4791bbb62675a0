import NowData

extension NowHTTPRequest {
    /// `https://<Host>` for a request a TLS listener took in (``HTTPListener/schemeHeader``), else `http://<Host>`
    /// (`localhost` without a Host): the base of the absolute links of an answer (references, `Link`, `Location`,
    /// download links), so that a client following them stays on the scheme it came by.
    var baseURL: String {
        let scheme = headers.value(named: HTTPListener.schemeHeader) == "https" ? "https" : "http"
        return scheme + "://" + (headers.value(named: "Host").flatMap { $0.isEmpty ? nil : $0 } ?? "localhost")
    }
}
