import Foundation

/// The readable texts of errors that NowData wraps: decoding and encoding errors, URL errors, any other error.
enum ErrorText {
    /// A coding path as `result[3].caller_id.value`.
    static func codingPath(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }

    /// `failure`, where and what a decoding error is: `cannot decode model at result[3].priority: cannot decode
    /// Int from "high"`.
    static func decoding(_ error: DecodingError, failure: String) -> String {
        if let context = context(of: error), let pathError = context.underlyingError as? DotPathError {
            return "\(failure): \(pathError)"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return located(failure, context.codingPath, "key '\(key.stringValue)' not found")
        case .valueNotFound(let type, let context):
            return located(failure, context.codingPath, "expected \(type), found null")
        case .typeMismatch(_, let context):
            return located(failure, context.codingPath, context.debugDescription)
        case .dataCorrupted(let context):
            return located(failure, context.codingPath, withUnderlyingError(context))
        @unknown default:
            return "\(failure): \(describe(error))"
        }
    }

    /// `failure`, where and what an encoding error is.
    static func encoding(_ error: EncodingError, failure: String) -> String {
        switch error {
        case .invalidValue(_, let context):
            return located(failure, context.codingPath, withUnderlyingError(context))
        @unknown default:
            return "\(failure): \(describe(error))"
        }
    }

    /// The readable text of any error: a URL error by what failed, a Foundation error by its debug description,
    /// else its own description.
    static func describe(_ error: any Error) -> String {
        if let error = error as? URLError {
            return urlErrorText(error)
        }
        if let error = error as? any LocalizedError, let text = error.errorDescription {
            return text
        }
        if type(of: error) is NSError.Type {
            let error = error as NSError
            return error.userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
        }
        return String(describing: error)
    }

    private static func context(of error: DecodingError) -> DecodingError.Context? {
        switch error {
        case .keyNotFound(_, let context), .valueNotFound(_, let context), .typeMismatch(_, let context),
            .dataCorrupted(let context):
            context
        @unknown default:
            nil
        }
    }

    private static func located(_ failure: String, _ path: [any CodingKey], _ text: String) -> String {
        path.isEmpty ? "\(failure): \(text)" : "\(failure) at \(codingPath(path)): \(text)"
    }

    private static func withUnderlyingError(_ context: DecodingError.Context) -> String {
        guard let underlying = context.underlyingError else { return context.debugDescription }
        if underlying is NowDataError { return describe(underlying) }
        return "\(context.debugDescription) \(describe(underlying))"
    }

    private static func withUnderlyingError(_ context: EncodingError.Context) -> String {
        guard let underlying = context.underlyingError else { return context.debugDescription }
        return "\(context.debugDescription) \(describe(underlying))"
    }

    /// What failed, in words, and where when the error says it (`connection refused at 127.0.0.1:8443`,
    /// `host name not found: example.invalid`).
    private static func urlErrorText(_ error: URLError) -> String {
        let url = error.failingURL
        let host = url?.host
        let place = host.map { host in
            let port = url?.port ?? (url?.scheme?.lowercased() == "https" ? 443 : 80)
            return (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        }
        let at = place.map { " at \($0)" } ?? ""
        let to = place.map { " to \($0)" } ?? ""
        let reason = (error.userInfo[NSLocalizedFailureReasonErrorKey] as? String)
            .map { $0.prefix(1).lowercased() + $0.dropFirst() }
        switch error.code {
        case .cannotConnectToHost:
            guard let place else { return "could not connect to the server" }
            return reason.map { "\($0) at \(place)" } ?? "could not connect to \(place)"
        case .cannotFindHost, .dnsLookupFailed:
            return host.map { "host name not found: \($0)" } ?? "the server's host name could not be found"
        case .timedOut: return "timed out waiting for the server\(at)"
        case .networkConnectionLost: return "the connection\(to) was lost" + (reason.map { " (\($0))" } ?? "")
        case .notConnectedToInternet: return "there is no network connection"
        case .cancelled: return "the request was cancelled"
        case .secureConnectionFailed: return "the TLS handshake\(place.map { " with \($0)" } ?? "") failed"
        case .serverCertificateUntrusted:
            return "the TLS certificate\(place.map { " of \($0)" } ?? "") is not trusted (for an instance with its own "
                + "CA, give its CA file: NowTLSSettings.caFile, a profile's ca_file)"
        case .serverCertificateHasBadDate, .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return "the TLS certificate\(place.map { " of \($0)" } ?? "") is not trusted"
        // libcurl reports a connection closed before any response (an empty reply) as this code.
        case .badServerResponse: return "the connection\(to) closed without a valid HTTP response"
        case .userAuthenticationRequired: return "the server asked for authentication"
        case .badURL: return "the URL is not valid"
        default: return "the request failed\(at) (URL error \(error.code.rawValue))"
        }
    }
}
