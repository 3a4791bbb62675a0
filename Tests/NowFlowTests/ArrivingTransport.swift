import Foundation
import NowData
import Synchronization

/// A transport that counts the requests reaching `base` and lets a test wait for them, so that it acts (cancels a
/// step) once a request is at the instance, however long the machine takes to send it; files stream as `base`'s.
final class ArrivingTransport: NowTransport {
    private struct State {
        var count = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let base: any NowTransport
    private let state = Mutex(State())

    init(_ base: any NowTransport) {
        self.base = base
    }

    var streamsFiles: Bool { base.streamsFiles }

    /// How many requests have arrived.
    var count: Int { state.withLock { $0.count } }

    /// Returns once `count` requests have arrived in all.
    func waitForArrivals(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    func send(_ request: NowHTTPRequest) async throws -> NowHTTPResponse {
        let ready = state.withLock { state in
            state.count += 1
            let ready = state.waiters.filter { $0.count <= state.count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= state.count }
            return ready
        }
        for continuation in ready { continuation.resume() }
        return try await base.send(request)
    }
}
