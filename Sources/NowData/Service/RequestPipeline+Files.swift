import Foundation

/// Request and response bodies in files, for the transports that do not stream them.
extension RequestPipeline {
    /// Sends `request` through `transport`; when the transport does not stream files, reads
    /// ``NowHTTPRequest/bodyFile`` into the body first and writes a successful answer's body to
    /// ``NowHTTPRequest/responseBodyFile`` after.
    static func send(_ request: NowHTTPRequest, through transport: any NowTransport) async throws -> NowHTTPResponse {
        guard !transport.streamsFiles, request.bodyFile != nil || request.responseBodyFile != nil else {
            return try await transport.send(request)
        }
        var request = request
        if let file = request.bodyFile {
            do {
                request.body = try Data(contentsOf: file)
            } catch {
                throw NetworkServiceError.genericError("cannot read \(file.path): \(error.localizedDescription)")
            }
            request.bodyFile = nil
        }
        let destination = request.responseBodyFile
        request.responseBodyFile = nil
        var response = try await transport.send(request)
        if let destination, (200..<300).contains(response.statusCode), response.bodyFile == nil {
            do {
                try response.body.write(to: destination)
            } catch {
                throw NetworkServiceError.genericError("cannot write \(destination.path): \(error.localizedDescription)")
            }
            response.body = Data()
            response.bodyFile = destination
        }
        return response
    }
}
