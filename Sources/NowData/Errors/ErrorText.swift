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
            return "\(urlErrorText(error.code)) (URL error \(error.code.rawValue))"
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

    private static func urlErrorText(_ code: URLError.Code) -> String {
        switch code {
        case .networkConnectionLost: "the network connection was lost"
        case .timedOut: "the request timed out"
        case .cannotConnectToHost: "could not connect to the server"
        case .cannotFindHost, .dnsLookupFailed: "the server's host name could not be found"
        case .notConnectedToInternet: "there is no network connection"
        case .cancelled: "the request was cancelled"
        case .serverCertificateUntrusted:
            "the secure connection failed: the server's certificate is not trusted (for an instance with its own CA, "
                + "give its CA file: NowTLSSettings.caFile, a profile's ca_file)"
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot:
            "the secure connection failed"
        // libcurl reports a connection closed before any response (an empty reply) as this code.
        case .badServerResponse: "the connection closed without a valid HTTP response"
        case .userAuthenticationRequired: "the server asked for authentication"
        default: "the request failed"
        }
    }
}
