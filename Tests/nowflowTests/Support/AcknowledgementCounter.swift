import Foundation

/// Counts acknowledged creates across clients and runs an action once when the count reaches a threshold.
final class AcknowledgementCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private let threshold: Int
    private let action: @Sendable () -> Void

    init(threshold: Int, action: @escaping @Sendable () -> Void) {
        self.threshold = threshold
        self.action = action
    }

    func increment() {
        let reached = lock.withLock {
            count += 1
            return count == threshold
        }
        if reached { action() }
    }
}
