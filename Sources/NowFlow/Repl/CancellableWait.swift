import Synchronization

/// Waits for a task that other callers share (a catalog load) without holding up a cancelled caller: the wait ends
/// when the task ends or when the waiting task is cancelled, whichever comes first, and a cancelled wait cancels
/// the task (which then leaves its work to be asked for again).
final class CancellableWait: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Void, Never>?, done: Bool)>((nil, false))

    /// Waits for `task`, or until the current task is cancelled, which cancels `task` too.
    static func value(of task: Task<Void, Never>) async {
        let wait = CancellableWait()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                wait.start(continuation)
                Task {
                    await task.value
                    wait.finish()
                }
            }
        } onCancel: {
            task.cancel()
            wait.finish()
        }
    }

    private func start(_ continuation: CheckedContinuation<Void, Never>) {
        let resumeNow = state.withLock { state in
            if state.done { return true }
            state.continuation = continuation
            return false
        }
        if resumeNow { continuation.resume() }
    }

    private func finish() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.done else { return nil }
            state.done = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}
