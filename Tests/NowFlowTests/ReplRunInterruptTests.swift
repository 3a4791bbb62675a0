import Foundation
import LocalInstance
import NowData
import Testing

@testable import NowFlow

/// Ctrl-C while `:run` walks a job, and while its `finally` runs.
@Suite struct ReplRunInterruptTests {
    static let job = """
        name: Walk
        steps:
          - id: made
            create: { table: incident, fields: { short_description: walked } }
          - id: wait
            query: { table: incident, where: { short_description: walked }, fields: [number] }
          - assert: "steps.wait.count == 1"
        finally:
          - delete: { table: incident, sys_id: "${steps.made.sys_id}" }
          - query: { table: incident, where: { short_description: walked }, fields: [number] }
        """

    /// The step in flight is cancelled and stays current, the steps after it are listed as not run, and the job's
    /// `finally` runs when the session ends.
    // A guard against a hang, not a measure: a loaded machine may hold the task for a minute.
    @Test(.timeLimit(.minutes(10))) func ctrlCDuringRunStopsTheWalkCleanly() async throws {
        let harness = try ReplHarness(job: Self.job)
        let session = harness.session
        _ = await harness.transcript([":next"])
        let before = harness.requests.count
        harness.instance.setFaults(FaultInjection(latency: .seconds(60)))
        let running = Task { await session.handle(":run") }
        // Ctrl-C once step 2's query is at the instance, whose answer is a minute away.
        await harness.requests.waitForArrivals(before + 1)
        running.cancel()
        let stopped = await running.value.text
        harness.instance.setFaults(.none)
        #expect(harness.normalized(stopped) == """
            cancelled: step 2/3 'wait' (query) was interrupted (Ctrl-C); results and variables are as before it
            (the step stays current: fix what is needed, then :next runs it again)
            :run stopped by Ctrl-C at step 2; not run: step 3 (assert); the job's finally runs when the session ends
            """)
        let transcript = await harness.transcript([":list"])
        #expect(harness.normalized(transcript) == """
            nowflow [2/3]> :list
            Walk (job.yaml)
               1. 'made' (create) incident short_description=walked  passed
            => 2. 'wait' (query) incident short_description=walked fields=number  failed
               3. (assert) steps.wait.count == 1
              finally:
               1. (delete) incident ${steps.made.sys_id}
               2. (query) incident short_description=walked fields=number

            """)
        let finished = await session.finish()
        #expect(harness.normalized(finished) == """
            finally:
            finally 1 (delete): deleted incident <sys_id>
            finally 2 (query): 0 records from incident
            """)
    }

    /// Ctrl-C during the job's `finally` (at the end of the session) cancels the clean-up step in flight and lists
    /// the clean-up that did not run.
    // A guard against a hang, not a measure: a loaded machine may hold the task for a minute.
    @Test(.timeLimit(.minutes(10))) func ctrlCDuringFinallyListsTheCleanUpNotRun() async throws {
        let harness = try ReplHarness(job: Self.job)
        let session = harness.session
        _ = await harness.transcript([":next"])
        let before = harness.requests.count
        harness.instance.setFaults(FaultInjection(latency: .seconds(60)))
        let finishing = Task { await session.finish() }
        // Ctrl-C once finally 1's delete is at the instance, whose answer is a minute away.
        await harness.requests.waitForArrivals(before + 1)
        finishing.cancel()
        let stopped = await finishing.value
        harness.instance.setFaults(.none)
        #expect(harness.normalized(stopped) == """
            finally:
            cancelled: finally 1 (delete) was interrupted (Ctrl-C); its request may have reached the instance: look before running it again
            finally stopped by Ctrl-C; not run: finally 2 (query) (what they clean up is left)
            """)
    }
}
