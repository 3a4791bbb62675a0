import Foundation

/// The local instance served over HTTP, as `nowflow serve` runs it: a ``LocalInstance`` and the
/// ``HTTPListener`` in front of it, which also serves the web views (list and form views, what changed) to
/// browsers.
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
    /// - throws: the instance's error when the database or schema cannot be opened, ``HTTPListenerError`` when
    ///   the address cannot be bound.
    public init(
        host: String = "127.0.0.1", port: UInt16 = 0, headerTimeout: Duration = HTTPListener.defaultHeaderTimeout,
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
            listener = try HTTPListener(
                host: host, port: port, headerTimeout: headerTimeout, spooling: spooling
            ) { request in
                web.response(to: request).map { .respond($0, after: .zero) } ?? instance.reply(to: request)
            }
        } catch {
            instance.close()
            throw error
        }
        self.instance = instance
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
