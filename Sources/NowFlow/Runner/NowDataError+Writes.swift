import NowData

extension NowDataError {
    /// Whether a write that failed with this error may still have been made: no answer came (the connection failed
    /// or the request was cancelled once sent) or the server failed (5xx), rather than a refusal before or at the
    /// instance.
    var mayHaveWritten: Bool {
        switch self {
        case .network: true
        case .badResponse(let status): status.code >= 500
        default: false
        }
    }
}
