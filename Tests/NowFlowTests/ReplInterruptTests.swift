import Foundation
import LocalInstance
import NowData
import Synchronization
import Testing

@testable import NowFlow

/// Ctrl-C during a create: the session says the record may exist, with the sys_id chosen for it, keeps a possibly
/// written result, and settles it with a get before the next line.
@Suite struct ReplInterruptTests {
    /// A session whose creates are stored by the instance, then answered only after 30 s while `slow` holds.
    final class SlowCreates: Sendable {
        /// Whether creates are slow, and whether a slow one was stored.
        final class Flags: Sendable {
            let slow = Mutex(false)
            let stored = Mutex(false)
        }

        let instance: LocalInstance
        let session: ReplSession
        let flags = Flags()

        init() throws {
            let instance = try LocalInstance(options: LocalInstance.Options(log: { _ in }))
            self.instance = instance
            let flags = self.flags
            let transport = ClosureTransport { request in
                let response = try await instance.transport.send(request)
                if request.method == "POST", flags.slow.withLock({ $0 }) {
                    flags.stored.withLock { $0 = true }
                    try await Task.sleep(for: .seconds(30))
                }
                return response
            }
            let options = RunOptions(
                instanceURL: URL(string: "http://127.0.0.1")!, transport: transport,
                authentication: .basic(user: "admin", password: "admin"), environment: [:], retryPolicy: .none)
            session = try ReplSession(options: options)
        }

        deinit { instance.close() }

        func transcript(_ lines: [String]) async -> String {
            var text = ""
            for line in lines {
                text += await session.prompt + line + "\n"
                let reply = await session.handle(line)
                if !reply.text.isEmpty { text += reply.text + "\n" }
            }
            return text.replacingOccurrences(of: #"[0-9a-f]{32}"#, with: "<sys_id>", options: .regularExpression)
        }
    }

    @Test func aCreateInterruptedAfterItsRequestIsSettledByAGet() async throws {
        let harness = try SlowCreates()
        _ = await harness.transcript(["query incident number=INC0010001 fields=number"])
        harness.flags.slow.withLock { $0 = true }
        let session = harness.session
        let running = Task { await session.handle(#"create incident short_description="ctrl-c test""#) }
        let deadline = ContinuousClock.now + .seconds(20)
        while !harness.flags.stored.withLock({ $0 }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        running.cancel()
        let cancelled = await running.value.text
        #expect(cancelled.replacingOccurrences(of: #"[0-9a-f]{32}"#, with: "<sys_id>", options: .regularExpression) == """
            cancelled: _2 (create) was interrupted (Ctrl-C); the create may have gone through: incident sys_id <sys_id>; \
            steps._2 keeps it as possibly written, and the next line looks it up
            """)
        #expect(await session.scope.steps["_2"]?["possibly_written"] == true)
        harness.flags.slow.withLock { $0 = false }
        let transcript = await harness.transcript([
            ":show steps._2.record.short_description", ":show steps._.sys_id == steps._2.sys_id", ":vars", ":history", ":undo",
        ])
        #expect(transcript == """
            nowflow> :show steps._2.record.short_description
            the interrupted create _2 went through: incident <sys_id> exists (steps._2 is its record)
            ctrl-c test
            nowflow> :show steps._.sys_id == steps._2.sys_id
            true
            nowflow> :vars
            steps._1 = {"count":1,"records":[{"number":"INC0010001"}]}
            steps._2 = {"record":{"active":"true","approval":"not requested","as...
            steps._ is steps._2
            nowflow> :history
            1. _2 create incident <sys_id>  undo deletes it
            nowflow> :undo
            undid 1 (_2 create incident <sys_id>): deleted it

            """)
    }

    @Test func aCreateInterruptedBeforeItsRequestIsSettledAsNotWritten() async throws {
        let harness = try SlowCreates()
        _ = await harness.transcript(["query incident number=INC0010001 fields=number"])
        let session = harness.session
        let running = Task { await session.handle(#"create incident short_description="never sent""#) }
        running.cancel()
        _ = await running.value
        let transcript = await harness.transcript([":show steps._2", "query incident short_description=\"never sent\""])
        #expect(transcript == """
            nowflow> :show steps._2
            the interrupted create _2 did not go through: incident has no record <sys_id> (steps._2 is gone)
            error: steps._2: step '_2' has no result (it did not run, or failed)
            nowflow> query incident short_description="never sent"
            _3 (query): 0 records from incident
            no records

            """)
    }
}
