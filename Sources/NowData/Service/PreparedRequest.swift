/// A request ready to send, with how it may be retried.
struct PreparedRequest: Sendable {
    var request: NowHTTPRequest
    var mode: RequestPipeline.Mode
}
