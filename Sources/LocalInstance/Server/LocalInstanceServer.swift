import Foundation
import NowData

/// The local instance served over HTTP, as `nowflow serve` runs it: a ``LocalInstance`` and the
/// ``HTTPListener`` in front of it, which also serves the web views (list and form views, what changed) to
/// browsers.
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
    private let listener: HTTPListener

    /// Opens the instance with `options` and listens on `host:port` (port 0: a free port).
    ///
    /// - parameter headerTimeout: how long a request's headers may take to arrive, however slowly they trickle in
    ///   (see ``HTTPListener/defaultHeaderTimeout``).
    /// - parameter allowedHosts: more host names a request's `Host` may give on a loopback address (with or
    ///   without a port), such as the name of a proxy in front of the server.
    /// - throws: the instance's error when the database or schema cannot be opened, ``HTTPListenerError`` when
    ///   the address cannot be bound.
    public init(
        host: String = "127.0.0.1", port: UInt16 = 0, headerTimeout: Duration = HTTPListener.defaultHeaderTimeout,
        allowedHosts: [String] = [], options: LocalInstance.Options
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
            listener = try HTTPListener(
                host: host, port: port, headerTimeout: headerTimeout, spooling: spooling
            ) { request in
                if let names, let refusal = Self.foreignHostRefusal(request, names: names) {
                    return .respond(refusal.response, after: .zero)
                }
                return web.response(to: request).map { .respond($0, after: .zero) } ?? instance.reply(to: request)
            }
        } catch {
            instance.close()
            throw error
        }
        self.instance = instance
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
    public var host: String { listener.host }

    /// The port the server listens on.
    public var port: UInt16 { listener.port }

    /// The base URL of the instance, such as `http://127.0.0.1:8080`.
    public var url: String { "http://\(listener.host):\(listener.port)" }

    /// Stops listening once the requests in progress are answered, then closes the database.
    public func stop() {
        listener.stop()
        instance.close()
    }
}
