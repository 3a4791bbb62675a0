import Foundation
import NowData

/// `nowflow report merge`: the JSON reports of a job's shards (`nowflow run --shard K/N`) joined into one report
/// of the same contract.
extension RunReport {
    /// The report of every shard of one sharded run: each shard's jobs, shard 1's first, so that its ``status`` is
    /// that of the first shard in shard order that did not pass.
    ///
    /// `reports` are the reports' texts with the files they were read from. Each must be a JSON report of this
    /// ``schemaVersion`` written by `nowflow run --shard K/N`; together they must be the shards 1 to N of the same
    /// N, each once, that ran the same job files, written by the same nowflow.
    ///
    /// ```swift
    /// let merged = try RunReport.merging([("shard-1.json", text1), ("shard-2.json", text2)])
    /// print(merged.jsonText())
    /// ```
    ///
    /// - Throws: ``ReportMergeError`` naming the file and what is wrong.
    public static func merging(_ reports: [(file: String, text: String)]) throws(ReportMergeError) -> RunReport {
        guard !reports.isEmpty else { throw ReportMergeError("no report given") }
        var shards: [(file: String, shard: Shard, jobs: [RunResult], version: String)] = []
        for (file, text) in reports {
            let json: JSONValue
            do {
                json = try JSONValue(json: Data(text.utf8))
            } catch {
                throw ReportMergeError("\(file): not JSON: \(error)")
            }
            let report = ReportValue(json: json, file: file, place: "")
            guard case .object = json else { throw report.problem("not a nowflow report: expected an object") }
            let versionValue = try report.member("schema_version")
            guard case .number(let version) = versionValue.json, version.text == "\(schemaVersion)" else {
                throw versionValue.problem(
                    "\(versionValue.json.jsonText()); this nowflow merges reports of schema_version \(schemaVersion)")
            }
            var jobs: [RunResult] = []
            for entry in try report.elements("jobs") { jobs.append(try RunResult(reportEntry: entry)) }
            guard let shard = jobs.first?.shard else {
                throw report.problem(
                    jobs.isEmpty ? "no jobs" : "not a shard's report (it was not written by nowflow run --shard K/N)")
            }
            if let other = jobs.first(where: { $0.shard != shard }) {
                throw report.problem("its jobs are of different shards: \(shard) and \(other.shard.map(\.description) ?? "none")")
            }
            shards.append((file, shard, jobs, try report.text("nowflow_version")))
        }
        let first = shards[0]
        for (position, other) in shards.enumerated().dropFirst() {
            guard other.shard.count == first.shard.count else {
                throw ReportMergeError(
                    "\(first.file) is shard \(first.shard) but \(other.file) is shard \(other.shard): the shards of one run share N")
            }
            if let earlier = shards[..<position].first(where: { $0.shard == other.shard }) {
                throw ReportMergeError("shard \(other.shard) is given twice: \(earlier.file) and \(other.file)")
            }
            let (files, otherFiles) = (first.jobs.map(\.file), other.jobs.map(\.file))
            guard files == otherFiles else {
                throw ReportMergeError(
                    "\(other.file) ran \(otherFiles.joined(separator: ", ")), not the job files of \(first.file) (\(files.joined(separator: ", ")))"
                )
            }
            guard other.version == first.version else {
                throw ReportMergeError(
                    "\(first.file) was written by nowflow \(first.version) but \(other.file) by \(other.version)")
            }
        }
        let missing = (1...first.shard.count).filter { index in !shards.contains { $0.shard.index == index } }
        guard missing.isEmpty else {
            let list = missing.map { "\($0)/\(first.shard.count)" }.joined(separator: ", ")
            throw ReportMergeError("shard\(missing.count == 1 ? "" : "s") \(list) missing: a merged report has every shard")
        }
        let ordered = shards.sorted { $0.shard.index < $1.shard.index }
        return RunReport(results: ordered.flatMap(\.jobs), nowflowVersion: first.version)
    }
}
