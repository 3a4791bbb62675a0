import Foundation
import NowData

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// NowData's transport on a local instance, in process: a request goes straight to ``LocalInstance/reply(to:)``;
/// injected latency is awaited and a dropped connection is thrown as the network would. With an acting user
/// (``LocalInstance/transport(actingAs:)``), a request without credentials of its own is that user's.
struct LocalInstanceTransport: NowTransport {
    let instance: LocalInstance
    /// The user of the requests that carry no credentials of their own; nil to authenticate each by its own.
    let actingUser: String?

    /// True: an attachment upload's ``NowHTTPRequest/bodyFile`` (raw, or a multipart form) is read into the
    /// instance a chunk at a time, and a download is copied to ``NowHTTPRequest/responseBodyFile`` from the instance's file.
    var streamsFiles: Bool { true }

    func send(_ request: NowHTTPRequest) async throws -> NowHTTPResponse {
        guard !Task.isCancelled else { throw NetworkServiceError.operationCancelled }
        var request = request
        // Only a TLS listener says which client certificate it verified.
        request.headers.removeAll(named: HTTPListener.clientCertificateHeader)
        request.headers.removeAll(named: HTTPListener.schemeHeader)
        if let file = request.bodyFile, !AttachmentAPIHandler.isRawUpload(method: request.method, path: request.path),
            !AttachmentAPIHandler.isMultipartUpload(method: request.method, path: request.path)
        {
            // Only an upload reads its body from a file; the other handlers read the body.
            request.body = try Self.contents(of: file)
            request.bodyFile = nil
        }
        switch instance.reply(to: request, as: request.carriesCredentials ? nil : actingUser) {
        case .respond(var response, let delay):
            try await wait(delay)
            if let file = response.bodyFile {
                if let destination = request.responseBodyFile, (200..<300).contains(response.statusCode) {
                    try Self.copy(file, to: destination)
                    response.bodyFile = destination
                } else {
                    response.body = try Self.contents(of: file)
                    response.bodyFile = nil
                }
            }
            return response
        case .dropConnection(let delay):
            try await wait(delay)
            throw NetworkServiceError.systemError(URLError(.networkConnectionLost))
        }
    }

    /// The bytes of `file`; a failure to read it is the network's (no answer could be made of it).
    private static func contents(of file: URL) throws -> Data {
        do {
            return try Data(contentsOf: file)
        } catch {
            throw NetworkServiceError.genericError("cannot read \(file.path): \(error.localizedDescription)")
        }
    }

    /// Copies `file` to `destination` (replacing it), a chunk at a time.
    private static func copy(_ file: URL, to destination: URL) throws {
        do {
            try? FileManager.default.removeItem(at: destination)
            try FileManager.default.copyItem(at: file, to: destination)
        } catch {
            throw NetworkServiceError.genericError("cannot write \(destination.path): \(error.localizedDescription)")
        }
    }

    private func wait(_ delay: Duration) async throws {
        do {
            if delay > .zero { try await Task.sleep(for: delay) }
        } catch {
            throw NetworkServiceError.operationCancelled
        }
        guard !Task.isCancelled else { throw NetworkServiceError.operationCancelled }
    }
}
