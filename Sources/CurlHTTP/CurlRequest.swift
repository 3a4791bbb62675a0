import Foundation

/// One HTTP request for ``CurlClient``: what to send, where, and how long it may take.
package struct CurlRequest: Sendable {
    /// The HTTP method, such as `GET` or `PATCH`.
    package var method: String
    /// The full URL, already percent-encoded as it goes on the wire.
    package var url: URL
    /// The header fields, in order.
    package var headers: [(name: String, value: String)]
    /// The body, if any (an empty one is sent as a zero-length body).
    package var body: Data?
    /// A file whose bytes are the body, read a chunk at a time as libcurl sends them (instead of `body`).
    package var bodyFile: URL?
    /// Where the body of a 2xx answer is written as it arrives, instead of being held; another answer's body is
    /// held as usual.
    package var responseFile: URL?
    /// Called with each chunk of a 2xx answer's body as it is written to `responseFile`, on the engine's thread
    /// (to hash the bytes as they arrive, say).
    package var responseFileObserver: (@Sendable (UnsafeRawBufferPointer) -> Void)?
    /// The longest the whole transfer may take.
    package var timeout: Duration
    /// Whether it may use a kept-alive connection; otherwise it goes on a fresh connection that is closed after it.
    package var reusesConnection: Bool
    /// A PEM file of the certificate authorities trusted instead of the system's; nil: the system's.
    package var caFile: String?
    /// Whether the server's certificate and name are checked (libcurl's `CURLOPT_SSL_VERIFYPEER` and `...HOST`).
    package var verifiesPeer = true
    /// A PEM file with the client certificate to present; nil: none.
    package var clientCertificateFile: String?
    /// The PEM file of its private key; nil: in `clientCertificateFile`.
    package var clientKeyFile: String?

    /// A request.
    package init(
        method: String, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil,
        timeout: Duration, reusesConnection: Bool
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.reusesConnection = reusesConnection
    }
}
