import Dispatch

/// Runs async work from a synchronous command and waits for it.
func waitFor<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        box.value = await work()
        done.signal()
    }
    done.wait()
    guard let value = box.value else { preconditionFailure("the task signalled without a result") }
    return value
}

/// A value handed from the task to the waiting thread; written once before the semaphore is signalled.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
