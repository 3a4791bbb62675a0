import Foundation
import NowData

/// The local instance served over HTTP, HTTPS or both, as `nowflow serve` runs it: a ``LocalInstance`` and the
/// ``HTTPListener``s in front of it (one per port), which also serve the web views (list and form views, what
/// changed) to browsers. Every answer of its APIs names the page of what changed in `X-Nowflow-Changes`
/// (``NowData/NowHTTPResponse/changesPageHeader``), for `nowflow run`'s link to it.
///
/// On a loopback address it answers only requests whose `Host` names it: `localhost` (or a name under
/// `.localhost`), a loopback address, the address it listens on, or one of `allowedHosts` (for a server behind a
/// proxy); another name is a 400, so that a page of another site cannot reach it through DNS rebinding.
///
/// ```swift
/// TerminationSignals.block()
/// let server = try LocalInstanceServer(port: 8080, options: options)
/// print("listening on \(server.url)")
/// TerminationSignals.wait()
/// server.stop()
/// ```
public final class LocalInstanceServer: Sendable {
    /// The instance answering the requests.
    public let instance: LocalInstance
    /// The plain HTTP listener, if any.
    private let plain: HTTPListener?
    /// The HTTPS listener, if any.
    private let secure: HTTPListener?

    /// Opens the instance with `options` and listens on `host:port` (port 0: a free port): over plain HTTP, or
    /// over HTTPS when given `tls` alone, or both when given `tls` and `tlsPort` (HTTP on `port`, HTTPS on
    /// `tlsPort`).
    ///
    /// - parameter tls: the certificate and key to serve HTTPS with.
    /// - parameter clientCertificateAuthorities: the CAs whose client certificates HTTPS asks for; a certificate
    ///   they verify logs in as the user its `sys_user_certificate` record names (when no other credentials are
    ///   given).
    /// - parameter tlsPort: the port for HTTPS beside HTTP on `port` (0: a free port); nil: HTTPS, when `tls` is
    ///   given, on `port` alone.
    /// - parameter headerTimeout: how long a request's headers may take to arrive, however slowly they trickle in
    ///   (see ``HTTPListener/defaultHeaderTimeout``).
    /// - parameter allowedHosts: more host names a request's `Host` may give on a loopback address (with or
    ///   without a port), such as the name of a proxy in front of the server, or a name of the TLS certificate.
    /// - throws: the instance's error when the database or schema cannot be opened, ``HTTPListenerError`` when
    ///   the address cannot be bound.
    public init(
        host: String = "127.0.0.1", port: UInt16 = 0, tls: TLSIdentity? = nil, tlsPort: UInt16? = nil,
        clientCertificateAuthorities: TLSClientAuthorities? = nil,
        headerTimeout: Duration = HTTPListener.defaultHeaderTimeout, allowedHosts: [String] = [],
        options: LocalInstance.Options
    ) throws {
        let instance = try LocalInstance(options: options)
        do {
            // Raw attachment uploads stream to their files, up to com.glide.attachment.max_size; multipart uploads
            // are parsed as they arrive, each file part streamed to its file under the same limit.
            let spooling = BodySpooling(
                limit: options.attachmentMaxSize,
                tooLarge: TableAPIError.attachmentTooLarge(limit: options.attachmentMaxSize).response,
                destination: { method, path in instance.attachments.spoolFile(method: method, path: path) },
                receiver: { method, path, contentType in
                    instance.attachments.receiver(method: method, path: path, contentType: contentType)
                })
            let web = WebInterface(instance: instance)
            let names = Self.isLoopback(host) ? Set(([host, "localhost"] + allowedHosts).map(Self.name)) : nil
            let handler: @Sendable (NowHTTPRequest) -> LocalInstanceReply = { request in
                if let names, let refusal = Self.foreignHostRefusal(request, names: names) {
                    return .respond(refusal.response, after: .zero)
                }
                if let page = web.response(to: request) { return .respond(page, after: .zero) }
                return Self.namingChangesPage(instance.limitedReply(to: request))
            }
            let listen = { (port: UInt16, tls: TLSIdentity?) in
                try HTTPListener(
                    host: host, port: port, headerTimeout: headerTimeout, spooling: spooling, tls: tls,
                    clientCertificateAuthorities: tls == nil ? nil : clientCertificateAuthorities, handler: handler)
            }
            plain = tls == nil || tlsPort != nil ? try listen(port, nil) : nil
            do {
                secure = try tls.map { try listen(tlsPort ?? port, $0) }
            } catch {
                plain?.stop()
                throw error
            }
        } catch {
            instance.close()
            throw error
        }
        self.instance = instance
    }

    /// `reply` naming the page of what changed in ``NowData/NowHTTPResponse/changesPageHeader``, so that a client
    /// (`nowflow run`) can link to it over whatever scheme and address it reached the server by.
    private static func namingChangesPage(_ reply: LocalInstanceReply) -> LocalInstanceReply {
        guard case .respond(var response, let delay) = reply else { return reply }
        response.headers[NowHTTPResponse.changesPageHeader] = WebRoute.changesPath
        return .respond(response, after: delay)
    }

    /// Whether `host` is a loopback address or name.
    private static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased()
        return name == "localhost" || name.hasSuffix(".localhost") || name == "::1" || name == "[::1]"
            || (name.hasPrefix("127.") && name.split(separator: ".").count == 4
                && name.split(separator: ".").allSatisfy { UInt8($0) != nil })
    }

    /// The 400 for a request whose `Host` names none of `names` nor a loopback address; nil otherwise (a request
    /// without a `Host`, HTTP/1.0, is answered).
    private static func foreignHostRefusal(_ request: NowHTTPRequest, names: Set<String>) -> TableAPIError? {
        guard let host = request.headers.value(named: "Host") else { return nil }
        let name = Self.name(host)
        if names.contains(name) || isLoopback(name) { return nil }
        return TableAPIError(
            status: 400, message: "Invalid Host header",
            detail: "The Host header '\(host)' does not name this server: on a loopback address it answers "
                + "localhost, loopback addresses and the names given with nowflow serve --allowed-host")
    }

    /// The host name of a `Host` header, lowercased, without its port (`[::1]:8080` → `[::1]`).
    private static func name(_ host: String) -> String {
        let name = Substring(host.lowercased())
        if name.hasPrefix("["), let close = name.firstIndex(of: "]") { return String(name[...close]) }
        if name.filter({ $0 == ":" }).count == 1, let colon = name.firstIndex(of: ":") { return String(name[..<colon]) }
        return String(name)
    }

    /// The address the server listens on.
    public var host: String { (plain ?? secure)?.host ?? "" }

    /// The port of ``url``.
    public var port: UInt16 { (plain ?? secure)?.port ?? 0 }

    /// The base URL of the instance, such as `http://127.0.0.1:8080`: its plain HTTP one, or its HTTPS one when
    /// it serves HTTPS alone.
    public var url: String { plain == nil ? tlsURL ?? "" : "http://\(host):\(port)" }

    /// The port HTTPS is served on; nil: none.
    public var tlsPort: UInt16? { secure?.port }

    /// The base URL of HTTPS, such as `https://127.0.0.1:8443`; nil when HTTPS is not served.
    public var tlsURL: String? { secure.map { "https://\($0.host):\($0.port)" } }

    /// Stops listening once the requests in progress are answered, then closes the database.
    public func stop() {
        plain?.stop()
        secure?.stop()
        instance.close()
    }
}
