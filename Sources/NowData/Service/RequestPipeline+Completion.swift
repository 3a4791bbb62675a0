extension RequestPipeline {
    /// Runs `operation` in a new task and hands its outcome to `completion`, any error as a ``NowDataError``: the
    /// completion-handler forms of every service.
    static func complete<T>(
        _ completion: @escaping @Sendable (Result<T, NowDataError>) -> Void,
        _ operation: @escaping @Sendable () async throws -> T
    ) {
        Task {
            do {
                completion(.success(try await operation()))
            } catch {
                completion(.failure(networkError(error)))
            }
        }
    }
}
