import Synchronization

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// stdout and stderr as the commands write them, so that a reader going away does not end the process: with
/// SIGPIPE ignored (``ignoreBrokenPipe()``), `nowflow run job.yaml | head -1` shows up as a write failing with
/// EPIPE. The first stream found closed is reported once to the action given to ``onClose(_:)`` (`nowflow run`
/// stops as on SIGTERM), and is written no more: what stdout would have shown goes to stderr from then on.
enum OutputStreams {
    /// One of the two streams.
    enum Stream: String, Sendable {
        case output = "stdout"
        case error = "stderr"
    }

    private struct State {
        var closed: Set<Stream> = []
        var onClose: (@Sendable (Stream) -> Void)?
        var reported = false
    }

    private static let state = Mutex(State())

    /// Ignores SIGPIPE, so that a write to a closed pipe or socket fails with EPIPE instead of ending the process.
    static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Calls `action` (once, from the thread that wrote) when a write first finds stdout or stderr closed.
    static func onClose(_ action: @escaping @Sendable (Stream) -> Void) {
        state.withLock { $0.onClose = action }
    }

    /// Whether a write found `stream` closed.
    static func isClosed(_ stream: Stream) -> Bool {
        state.withLock { $0.closed.contains(stream) }
    }

    /// Writes `text` to `stream` as it is (stdout is flushed), or to stderr when stdout was found closed; nothing
    /// when the stream to write to was found closed. A write failing with EPIPE marks its stream closed.
    static func write(_ text: String, to stream: Stream) {
        let target: Stream = stream == .output && isClosed(.output) ? .error : stream
        guard !isClosed(target) else { return }
        let file = target == .output ? stdout : stderr
        let failed = fputs(text, file) == EOF || fflush(file) == EOF
        guard failed, errno == EPIPE else { return }
        clearerr(file)
        let report = state.withLock { state -> (@Sendable (Stream) -> Void)? in
            state.closed.insert(target)
            defer { state.reported = true }
            return state.reported ? nil : state.onClose
        }
        report?(target)
    }
}
