extension NowDataError {
    /// The outcome of `operation` as a `Result`, any error as the ``NowDataError`` it maps to: what the services'
    /// completion handlers are called with.
    static func result<Value>(_ operation: () async throws -> Value) async -> Result<Value, NowDataError> {
        do {
            return .success(try await operation())
        } catch {
            return .failure(RequestPipeline.networkError(error))
        }
    }
}
