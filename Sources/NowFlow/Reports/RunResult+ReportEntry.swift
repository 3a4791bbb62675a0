import Foundation
import NowData

/// A job's entry of a JSON report read back, for ``RunReport/merging(_:)``: what ``RunResult/jsonValue`` wrote,
/// so that the merged report is written by the same code as a run's.
extension RunResult {
    /// The job of the report entry `entry`.
    ///
    /// A few things the JSON report does not hold are left out: the excerpt under a diagnostic, the order of the
    /// outputs (the report's keys are sorted), and the lines shown under the steps.
    init(reportEntry entry: ReportValue) throws(ReportMergeError) {
        let statusValue = try entry.member("status")
        guard let status = RunStatus(rawValue: try entry.text("status")) else {
            throw statusValue.problem("unknown status '\(try entry.text("status"))'")
        }
        var steps: [StepOutcome] = []
        for step in try entry.elements("steps") {
            let stepStatusValue = try step.member("status")
            guard let stepStatus = StepStatus(rawValue: try step.text("status")) else {
                throw stepStatusValue.problem("unknown status '\(try step.text("status"))'")
            }
            var outcome = StepOutcome(
                number: try step.text("number"), id: try step.optionalText("id"), kind: try step.text("kind"),
                status: stepStatus, continued: try step.boolean("continued"), milliseconds: try step.integer("duration_ms"),
                message: try step.text("message"))
            (outcome.file, outcome.line) = (try step.text("file"), try step.integer("line"))
            steps.append(outcome)
        }
        var records: [TouchedRecord] = []
        var numbers: [String: String] = [:]
        for record in try entry.elements("records") {
            let actionValue = try record.member("action")
            guard let action = TouchedRecord.Action(rawValue: try record.text("action")) else {
                throw actionValue.problem("unknown action '\(try record.text("action"))'")
            }
            let sysID = try record.text("sys_id")
            records.append(
                TouchedRecord(action: action, table: try record.text("table"), sysID: sysID, step: try record.text("step")))
            if case .object(let members) = record.json, case .string(let number)? = members["number"] {
                numbers[sysID] = number
            }
        }
        var planned: [PlannedWrite] = []
        for write in try entry.elements("planned_writes") { planned.append(try PlannedWrite(reportEntry: write)) }
        var ensured: [String: Int] = [:]
        for (state, value) in try entry.object("ensured") {
            guard case .number(let number) = value, let count = Int(number.text) else {
                throw try entry.member("ensured").problem("\(state): expected a whole number")
            }
            ensured[state] = count
        }
        var diagnostics: [Diagnostic] = []
        for diagnostic in try entry.elements("diagnostics") {
            diagnostics.append(
                Diagnostic(
                    file: try diagnostic.text("file"), line: try diagnostic.integer("line"),
                    column: try diagnostic.integer("column"), message: try diagnostic.text("message"),
                    isWarning: try diagnostic.text("severity") == "warning"))
        }
        self.init(
            job: try entry.text("job"), file: try entry.text("file"), status: status, dryRun: try entry.boolean("dry_run"),
            milliseconds: try entry.integer("duration_ms"), steps: steps,
            results: try entry.object("results").dictionary, vars: try entry.object("vars").dictionary, records: records,
            recordNumbers: numbers, unlisted: try Self.unlisted(of: entry), plannedWrites: planned, error: try entry.optionalText("error"),
            errorLocation: try entry.optionalText("error_location"), ensured: ensured, outputs: try entry.object("outputs"),
            warnings: try entry.texts("warnings"), instance: try entry.text("instance"),
            shard: try Self.shard(of: entry), diagnostics: diagnostics)
    }

    /// The entry's `unlisted` (``UnlistedOutcomes/jsonValue``), when it has one.
    private static func unlisted(of entry: ReportValue) throws(ReportMergeError) -> UnlistedOutcomes {
        var unlisted = UnlistedOutcomes()
        guard case .object(let members) = entry.json, members["unlisted"] != nil else { return unlisted }
        let value = try entry.member("unlisted")
        unlisted.items = try value.integer("items")
        for (name, count) in try value.object("steps") {
            guard let status = StepStatus(rawValue: name), case .number(let number) = count, let whole = Int(number.text)
            else { throw try value.member("steps").problem("\(name): expected a step status and a whole number") }
            unlisted.steps[status] = whole
        }
        for (name, count) in try value.object("records") {
            guard let action = TouchedRecord.Action(rawValue: name), case .number(let number) = count,
                let whole = Int(number.text)
            else { throw try value.member("records").problem("\(name): expected an action and a whole number") }
            unlisted.records[action] = whole
        }
        return unlisted
    }

    /// The entry's `shard`: null, or `{"index", "count"}` of a shard that can be.
    private static func shard(of entry: ReportValue) throws(ReportMergeError) -> Shard? {
        let value = try entry.member("shard")
        if value.json == .null { return nil }
        guard let shard = Shard(index: try value.integer("index"), count: try value.integer("count")) else {
            throw value.problem("index must be from 1 to count")
        }
        return shard
    }
}
