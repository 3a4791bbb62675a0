/// How a run ended, with the exit status `nowflow run` gives it.
public enum RunStatus: String, Sendable, Hashable, CaseIterable {
    /// Every step passed, was skipped or failed under `continue_on_error`.
    case passed
    /// A step failed at run time (a request, an expression, an unreachable instance, refused credentials).
    case failed
    /// An `assert` did not hold.
    case assertionFailed = "assertion_failed"
    /// SIGINT (Ctrl-C) stopped it: the remaining steps did not run, `finally` did (unless a second signal came).
    case interrupted
    /// SIGTERM stopped it, as SIGINT does.
    case terminated
    /// SIGHUP (the terminal closed) stopped it, as SIGINT does.
    case hungUp = "hung_up"
    /// Its stdout or stderr closed (SIGPIPE, EPIPE), as under `| head -1`: it stopped as after SIGINT.
    case outputClosed = "output_closed"
    /// The job file (or a vars file) did not validate, or its table and field names did not check: nothing ran.
    case invalid
    /// The job did not start because of another: a file that did not validate, `--fail-fast`, or a signal.
    case notRun = "not_run"

    /// The status of a run `signal` stopped.
    init(stoppedBy signal: RunInterruption.Signal) {
        switch signal {
        case .interrupt: self = .interrupted
        case .terminate: self = .terminated
        case .hangup: self = .hungUp
        case .closedOutput: self = .outputClosed
        }
    }

    /// The signal that stopped the run, if one did.
    public var signal: RunInterruption.Signal? {
        switch self {
        case .passed, .failed, .assertionFailed, .invalid, .notRun: nil
        case .interrupted: .interrupt
        case .terminated: .terminate
        case .hungUp: .hangup
        case .outputClosed: .closedOutput
        }
    }

    /// 0, 2 (an invalid file), 3 or 4 (Hurl's convention; 1 is for usage errors), and after a signal 128 plus its
    /// number, as shells report it: 130 SIGINT, 143 SIGTERM, 129 SIGHUP, 141 a closed output (SIGPIPE).
    public var exitCode: Int32 {
        if let signal { return signal.exitCode }
        switch self {
        case .failed: return 3
        case .assertionFailed: return 4
        case .invalid: return 2
        default: return 0
        }
    }
}
