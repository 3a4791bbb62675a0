import Foundation
import LocalInstance
import NowData
import Synchronization
import Testing

@testable import NowFlow

/// Ctrl-C during a create: the session says the record may exist, with the sys_id chosen for it, keeps a possibly
/// written result, and settles it with a get before the next line.
@Suite struct ReplInterruptTests {
    /// A session whose writes of one method (creates by default) are carried out by the instance, then answered
    /// only after 30 s while `slow` holds.
    final class SlowCreates: Sendable {
        /// Whether creates are slow, and whether a slow one was stored.
        final class Flags: Sendable {
            let slow = Mutex(false)
            let stored = Mutex(false)
        }

        let instance: LocalInstance
        let session: ReplSession
        let flags = Flags()

        init(method: String = "POST") throws {
            let instance = try LocalInstance(options: LocalInstance.Options(log: { _ in }))
            self.instance = instance
            let flags = self.flags
            let transport = ClosureTransport { request in
                let response = try await instance.transport.send(request)
                if request.method == method, flags.slow.withLock({ $0 }) {
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
        let deadline = ContinuousClock.now + .seconds(60)
        while !harness.flags.stored.withLock({ $0 }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        running.cancel()
        let cancelled = await running.value.text
        #expect(cancelled.replacingOccurrences(of: #"[0-9a-f]{32}"#, with: "<sys_id>", options: .regularExpression) == """
            cancelled: _2 (create) was interrupted (Ctrl-C); the create may have gone through: incident sys_id <sys_id>; \
            steps._2 keeps it as possibly written, and the next line looks it up
            """)
        #expect(await session.scope.steps["_2"]?.json["possibly_written"] == true)
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
            steps._1 = {"count":1,"records":[{"number":"INC0010001","sys_id":"77...
            steps._2 = {"record":{"active":"true","activity_due":"","additional_...
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
        // Cancelled before it starts: a task cancelled from here only after it was made could already have sent
        // the create on another thread (the instance answers in process within milliseconds), as it did under load.
        let running = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await session.handle(#"create incident short_description="never sent""#)
        }
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

    /// Runs `line` with the slow writes on and cancels it once a write was carried out; gives the answer.
    private func interrupt(_ line: String, in harness: SlowCreates) async throws -> String {
        harness.flags.slow.withLock { $0 = true }
        harness.flags.stored.withLock { $0 = false }
        let session = harness.session
        let running = Task { await session.handle(line) }
        let deadline = ContinuousClock.now + .seconds(60)
        while !harness.flags.stored.withLock({ $0 }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        running.cancel()
        let text = await running.value.text
        harness.flags.slow.withLock { $0 = false }
        return text.replacingOccurrences(of: #"[0-9a-f]{32}"#, with: "<sys_id>", options: .regularExpression)
    }

    /// Ctrl-C during an update and a delete by sys_id: the session says the write may have gone through, looks at the
    /// record before the next line (its version against the one read before the update; whether it is still there
    /// after the delete), says what happened, and keeps the write for `:undo`.
    @Test func anUpdateAndADeleteInterruptedAfterTheirRequestsAreSettledHonestly() async throws {
        let updates = try SlowCreates(method: "PATCH")
        _ = await updates.transcript([#"create incident short_description="slow update" urgency=2 id=made"#])
        let cancelled = try await interrupt("update incident ${steps.made.sys_id} urgency=1", in: updates)
        #expect(cancelled == """
            cancelled: _1 (update) was interrupted (Ctrl-C); the update may have gone through: incident sys_id <sys_id>; \
            steps._1 keeps it as possibly written, and the next line looks it up
            """)
        let updated = await updates.transcript([":show steps._1.record.urgency", ":history", ":undo", ":show steps.made.sys_id != ''"])
        #expect(updated == """
            nowflow> :show steps._1.record.urgency
            the interrupted update _1 went through: incident <sys_id> changed (steps._1 is its record; :undo restores urgency)
            1
            nowflow> :history
            1. made create incident <sys_id>  undo deletes it
            2. _1 update incident <sys_id> (urgency)  undo restores urgency
            nowflow> :undo
            undid 2 (_1 update incident <sys_id>): restored urgency
            nowflow> :show steps.made.sys_id != ''
            true

            """)

        let deletes = try SlowCreates(method: "DELETE")
        _ = await deletes.transcript([#"create incident short_description="slow delete" id=made"#])
        let dropped = try await interrupt("delete incident ${steps.made.sys_id}", in: deletes)
        #expect(dropped == """
            cancelled: _1 (delete) was interrupted (Ctrl-C); the delete may have gone through: incident sys_id <sys_id>; \
            steps._1 keeps it as possibly written, and the next line looks it up
            """)
        let deleted = await deletes.transcript([":history", ":undo 2", #"query incident short_description="slow delete" fields=short_description"#])
        #expect(deleted == """
            nowflow> :history
            the interrupted delete _1 went through: incident <sys_id> is gone (:undo re-creates it)
            1. made create incident <sys_id>  undo deletes it
            2. _1 delete incident <sys_id>  undo re-creates it
            nowflow> :undo 2
            undid 2 (_1 delete incident <sys_id>): re-created it with its sys_id and fields
            nowflow> query incident short_description="slow delete" fields=short_description
            _2 (query): 1 record from incident
            short_description
            -----------------
            slow delete
            1 record

            """)
    }

    /// Ctrl-C during an update by query, once one of its records was written: the records whose version moved are
    /// the ones that went through, and `:undo` takes those back.
    @Test func anUpdateByQueryInterruptedHalfwayKeepsWhatWentThrough() async throws {
        let harness = try SlowCreates(method: "PATCH")
        _ = await harness.transcript([
            #"create incident short_description="Half A" urgency=2 id=a"#,
            #"create incident short_description="Half B" urgency=2 id=b"#,
        ])
        let cancelled = try await interrupt(#"update incident query="short_descriptionSTARTSWITHHalf " max=5 urgency=1"#, in: harness)
        #expect(cancelled == """
            cancelled: _1 (update) was interrupted (Ctrl-C); the update may have gone through: for some of the 2 incident \
            records it matched; steps._1 keeps them as possibly written, and the next line looks them up
            """)
        let transcript = await harness.transcript([":show steps._1.count", ":undo", ":show steps._1.count"])
        #expect(transcript == """
            nowflow> :show steps._1.count
            the interrupted update _1 went through for 1 of the 2 incident records it matched: <sys_id> changed (steps._1 lists them; :undo takes them back)
            1
            nowflow> :undo
            undid 3 (_1 update incident 1 record by query): restored urgency of 1 record
            nowflow> :show steps._1.count
            1

            """)
    }

    /// Ctrl-C while an update reads the record it will write (the read is answered late): nothing is kept, the id is
    /// not used up, and the session says that the request may have gone out.
    @Test func anUpdateInterruptedBeforeItsRecordIsReadKeepsNothing() async throws {
        let harness = try SlowCreates(method: "GET")
        _ = await harness.transcript([#"create incident short_description="untouched" urgency=2 id=made"#])
        let cancelled = try await interrupt("update incident ${steps.made.sys_id} urgency=1", in: harness)
        #expect(cancelled == """
            cancelled: (update) was interrupted (Ctrl-C); its request may have reached the instance: look before running it again
            """)
        let transcript = await harness.transcript([":history", ":show steps._1"])
        #expect(transcript == """
            nowflow> :history
            1. made create incident <sys_id>  undo deletes it
            nowflow> :show steps._1
            error: steps._1: step '_1' has no result (it did not run, or failed)

            """)
    }
}
