import Synchronization

/// The transfer of one send, so that a cancellation arriving before it starts still ends it.
final class CurlSubmission: Sendable {
    private let state = Mutex<(transfer: CurlTransfer?, isCancelled: Bool)>((nil, false))

    func start(_ transfer: CurlTransfer, on engine: CurlEngine) {
        let isCancelled = state.withLock { state in
            state.transfer = transfer
            return state.isCancelled
        }
        if isCancelled { transfer.isCancelled.store(true, ordering: .relaxed) }
        engine.submit(transfer)
    }

    func cancel(on engine: CurlEngine) {
        let transfer = state.withLock { state in
            state.isCancelled = true
            return state.transfer
        }
        guard let transfer else { return }
        transfer.isCancelled.store(true, ordering: .relaxed)
        engine.cancelTransfers()
    }
}
