import NowData

/// A transport whose requests a ``RunInterruption`` cancels: the request in flight is abandoned and no new one
/// starts while the run is stopping.
struct InterruptibleTransport: NowTransport {
    let base: any NowTransport
    let interruption: RunInterruption

    func send(_ request: NowHTTPRequest) async throws -> NowHTTPResponse {
        let base = base
        return try await interruption.cancellable { try await base.send(request) }
    }
}
