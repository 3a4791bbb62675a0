import Synchronization

/// Stops a run cleanly when the user asks (Ctrl-C, a service manager's SIGTERM), the terminal goes away (SIGHUP) or
/// the reader of its output does (a closed pipe): the first ``signal(_:)`` cancels
/// the request in flight and skips the remaining steps, `finally` still runs, and a second signal stops `finally`
/// too. The run's result then says what was interrupted and which steps did not run.
///
/// ```swift
/// let interruption = RunInterruption()
/// options.interruption = interruption
/// // from a signal handler's thread:
/// interruption.signal(.interrupt)
/// ```
public final class RunInterruption: Sendable {
    /// A signal that interrupts a run.
    public enum Signal: String, Sendable, Hashable {
        /// SIGINT (Ctrl-C): exit status 130.
        case interrupt = "SIGINT"
        /// SIGTERM: exit status 143.
        case terminate = "SIGTERM"
        /// SIGHUP (the terminal or the session closed): exit status 129.
        case hangup = "SIGHUP"
        /// A closed stdout or stderr (a write failed with EPIPE; the SIGPIPE that would end the process is ignored),
        /// as under `nowflow run job.yaml | head -1`: exit status 141.
        case closedOutput = "SIGPIPE"

        /// 128 plus the signal's number, as shells report a process a signal ended.
        public var exitCode: Int32 {
            switch self {
            case .interrupt: 130
            case .terminate: 143
            case .hangup: 129
            case .closedOutput: 141
            }
        }
    }

    private struct State {
        /// The signals received, in order.
        var signals: [Signal] = []
        /// Whether the run has reached `finally`, where only a second signal stops it.
        var inFinally = false
        /// What cancels each piece of work in flight (a request, a retry's delay).
        var inFlight: [Int: @Sendable () -> Void] = [:]
        var nextID = 0

        /// Whether work must stop: after the first signal in the steps, after the second in `finally`.
        var stopping: Bool { signals.count >= (inFinally ? 2 : 1) }
    }

    private let state = Mutex(State())

    /// An interruption that has received no signal.
    public init() {}

    /// Records `signal` and cancels the work in flight; safe to call from any thread.
    public func signal(_ signal: Signal) {
        let cancels = state.withLock { state in
            state.signals.append(signal)
            return state.stopping ? Array(state.inFlight.values) : []
        }
        for cancel in cancels { cancel() }
    }

    /// The first signal received, if any: the one the run reports and exits by.
    public var firstSignal: Signal? { state.withLock { $0.signals.first } }

    /// The signal that stopped `finally`, if one did.
    var finallySignal: Signal? {
        state.withLock { $0.inFinally && $0.signals.count >= 2 ? $0.signals[1] : nil }
    }

    /// Whether the current phase must stop: no further step or request starts.
    var isStopping: Bool { state.withLock { $0.stopping } }

    /// A run (of the next job of `nowflow run a.yaml b.yaml`) starts its steps: until `finally`, the first signal
    /// stops them. Nothing changes once a signal came (no further job starts then).
    func enterSteps() {
        state.withLock { state in
            if state.signals.isEmpty { state.inFinally = false }
        }
    }

    /// The run has reached `finally`: the first signal no longer stops work, a second one does.
    func enterFinally() {
        state.withLock { $0.inFinally = true }
    }

    /// Runs `work` so that a signal cancels it; throws `CancellationError` without starting it when the phase is
    /// already stopping.
    func cancellable<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await work() }
        let id: Int? = state.withLock { state in
            guard !state.stopping else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.inFlight[id] = { task.cancel() }
            return id
        }
        guard let id else {
            task.cancel()
            throw CancellationError()
        }
        defer { _ = state.withLock { $0.inFlight.removeValue(forKey: id) } }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }
}
