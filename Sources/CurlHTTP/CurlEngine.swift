internal import CCurl
internal import CLazyLibraries
import Foundation
import Synchronization

/// libcurl's multi interface, driven by a thread of its own: the transfers of one ``CurlClient`` run side by
/// side there, and share its kept-alive connections.
///
/// Other threads only hand transfers over, ask for cancellations and for the end, each followed by a wake-up of
/// the loop; libcurl's handles are touched by the engine's thread alone.
final class CurlEngine: @unchecked Sendable {
    /// What other threads hand the engine.
    private struct Inbox {
        var submitted: [CurlTransfer] = []
        var cancellationRequested = false
        var isShuttingDown = false
        var isRunning = false
    }

    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex(Inbox())
    /// The transfers in libcurl's hands, by easy handle (engine thread only).
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    init() throws(CurlError) {
        // A release build opens libcurl here, on first use, rather than at every start.
        if let problem = clazy_curl_problem() {
            throw .failed(String(cString: problem))
        }
        guard Self.globalInitialization == CURLE_OK, let multi = curl_multi_init() else {
            throw .failed("libcurl could not start.")
        }
        self.multi = multi
    }

    deinit {
        curl_multi_cleanup(multi)
    }

    /// libcurl's one-time global set-up, done before the first engine starts.
    private static let globalInitialization = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// Hands `transfer` to the engine, starting its thread if it is not running.
    func submit(_ transfer: CurlTransfer) {
        let start = inbox.withLock { inbox in
            inbox.submitted.append(transfer)
            defer { inbox.isRunning = true }
            return !inbox.isRunning
        }
        if start {
            let thread = Thread { self.run() }
            thread.name = "nowdata.curl"
            thread.start()
        } else {
            curl_multi_wakeup(multi)
        }
    }

    /// Whether the engine's thread runs (from the first transfer until the end after ``shutDown()``).
    var isRunning: Bool {
        inbox.withLock { $0.isRunning }
    }

    /// Has the engine end the transfers whose caller cancelled them.
    func cancelTransfers() {
        inbox.withLock { $0.cancellationRequested = true }
        curl_multi_wakeup(multi)
    }

    /// Ends the thread once the transfers in progress have finished.
    func shutDown() {
        inbox.withLock { $0.isShuttingDown = true }
        curl_multi_wakeup(multi)
    }

    private func run() {
        while true {
            let (submitted, cancelling, shuttingDown) = inbox.withLock { inbox in
                defer {
                    inbox.submitted = []
                    inbox.cancellationRequested = false
                }
                return (inbox.submitted, inbox.cancellationRequested, inbox.isShuttingDown)
            }
            for transfer in submitted {
                if transfer.isCancelled.load(ordering: .relaxed) {
                    transfer.finishCancelled()
                } else {
                    active[transfer.handle] = transfer
                    curl_multi_add_handle(multi, transfer.handle)
                }
            }
            if cancelling {
                for transfer in active.values where transfer.isCancelled.load(ordering: .relaxed) {
                    end(transfer)
                    transfer.finishCancelled()
                }
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            finishCompleted()
            if active.isEmpty, shuttingDown, inbox.withLock({ $0.submitted.isEmpty }) {
                inbox.withLock { $0.isRunning = false }
                return
            }
            curl_multi_poll(multi, nil, 0, 1_000, nil)
        }
    }

    /// Finishes every transfer libcurl reports as done.
    private func finishCompleted() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                let transfer = active[handle]
            else { continue }
            let code = message.pointee.data.result
            end(transfer)
            transfer.finish(code)
        }
    }

    /// Takes `transfer` out of libcurl's hands.
    private func end(_ transfer: CurlTransfer) {
        curl_multi_remove_handle(multi, transfer.handle)
        active[transfer.handle] = nil
    }
}
