import Foundation
import NowData
import Testing

@testable import NowFlow

@Suite struct RunReportTests {
    private let result = RunResult(
        job: "Clean <up> & check", file: "jobs/clean.yaml", status: .assertionFailed, dryRun: false, milliseconds: 1234,
        steps: [
            StepOutcome(
                number: "1", id: "old", kind: "query", status: .passed, continued: false, milliseconds: 12,
                message: "2 records from incident"),
            StepOutcome(
                number: "2", id: nil, kind: "delete", status: .skipped, continued: false, milliseconds: 0,
                message: "when was false"),
            StepOutcome(
                number: "3", id: nil, kind: "assert", status: .assertionFailed, continued: false, milliseconds: 1,
                message: "count is 'two' (2 == 0 is false)"),
            StepOutcome(
                number: "finally 1", id: "tidy", kind: "delete", status: .failed, continued: true, milliseconds: 5,
                message: "bad response 404"),
        ],
        results: ["old": .object(["count": .number(JSONNumber(2))])], vars: ["limit": .number(JSONNumber(5))],
        records: [TouchedRecord(action: .created, table: "incident", sysID: "abc", step: "step 1 'old' (query)")],
        plannedWrites: [], error: "step 3 (assert): count is 'two' (2 == 0 is false)")

    @Test func eachRecordIsListedOnceWithWhatHappenedToItAndAfterAFailureThoseLeftChangedFirst() {
        var failed = result
        let update = "step 3 (foreach)"
        failed.records = [
            TouchedRecord(action: .created, table: "change_request", sysID: "c1", step: "step 1 'change' (create)"),
            TouchedRecord(action: .created, table: "incident", sysID: "i1", step: "step 2 (create)"),
        ] + Array(repeating: TouchedRecord(action: .updated, table: "change_request", sysID: "c1", step: update), count: 7)
            + [TouchedRecord(action: .deleted, table: "incident", sysID: "i1", step: "finally 1 (delete)")]
        failed.recordNumbers = ["c1": "CHG0030001", "i1": "INC0010061"]
        #expect(
            failed.summaryText() == """
                Clean <up> & check: assertion failed (3 steps run, 1234 ms)
                  step 3 (assert): count is 'two' (2 == 0 is false)
                records left changed (finish or undo them by hand):
                  change_request CHG0030001 (c1): created by step 1 'change' (create), updated 7x by step 3 (foreach)
                records the run changed and deleted again:
                  incident INC0010061 (i1): created by step 2 (create), deleted by finally 1 (delete)
                """)
        #expect(failed.jsonText().contains(#""number": "CHG0030001""#))
    }

    @Test func junitHasOneCasePerStep() {
        #expect(
            result.junitXML() == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="nowflow" tests="4" failures="2" time="1.234">
                  <testsuite name="Clean &lt;up&gt; &amp; check" tests="4" failures="2" skipped="1" time="1.234" file="jobs/clean.yaml">
                    <testcase classname="Clean &lt;up&gt; &amp; check" name="step 1 &apos;old&apos; (query)" time="0.012"/>
                    <testcase classname="Clean &lt;up&gt; &amp; check" name="step 2 (delete)" time="0.000">
                      <skipped message="when was false"/>
                    </testcase>
                    <testcase classname="Clean &lt;up&gt; &amp; check" name="step 3 (assert)" time="0.001">
                      <failure type="assertion" message="count is &apos;two&apos; (2 == 0 is false)">count is &apos;two&apos; (2 == 0 is false)</failure>
                    </testcase>
                    <testcase classname="Clean &lt;up&gt; &amp; check" name="finally 1 &apos;tidy&apos; (delete)" time="0.005">
                      <failure type="error" message="bad response 404">bad response 404</failure>
                    </testcase>
                    <system-out>incident abc: created by step 1 &apos;old&apos; (query)</system-out>
                  </testsuite>
                </testsuites>

                """)
    }

    @Test func progressLinesMarkTheStatus() {
        #expect(
            result.steps.map { $0.progressLine(color: false) } == [
                "ok   step 1 'old' (query): 2 records from incident (12 ms)",
                "skip step 2 (delete): when was false (0 ms)",
                "ASSERT step 3 (assert): count is 'two' (2 == 0 is false) (1 ms)",
                "FAIL (continued) finally 1 'tidy' (delete): bad response 404 (5 ms)",
            ])
        #expect(
            result.steps[0].progressLine(color: true)
                == "\u{1B}[32mok  \u{1B}[0m step 1 'old' (query): 2 records from incident (12 ms)")
    }

    @Test func jsonHasTheDocumentedKeys() throws {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.jsonText().utf8)) as? [String: Any])
        #expect(
            json.keys.sorted() == [
                "dry_run", "duration_ms", "error", "file", "job", "outputs", "planned_writes", "records", "results", "status",
                "steps", "vars",
            ])
        #expect(json["status"] as? String == "assertion_failed")
        let records = try #require(json["records"] as? [[String: String]])
        #expect(
            records == [["action": "created", "table": "incident", "sys_id": "abc", "step": "step 1 'old' (query)"]])
    }

    @Test func summaryListsTheRecordsToFinishByHand() {
        #expect(
            result.summaryText() == """
                Clean <up> & check: assertion failed (3 steps run, 1234 ms)
                  step 3 (assert): count is 'two' (2 == 0 is false)
                records left changed (finish or undo them by hand):
                  incident abc: created by step 1 'old' (query)
                """)
    }
}
