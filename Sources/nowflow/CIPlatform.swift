import Foundation
import NowFlow

/// The CI service a run reports to in its own terms (`--annotations`, else the environment): GitHub Actions gets
/// workflow commands on the job file's lines and a Markdown summary in `$GITHUB_STEP_SUMMARY`, GitLab collapsible
/// sections around each job's steps.
enum CIPlatform: String {
    case github
    case gitlab

    /// The platform `--annotations` names (`none` for none), else the one the environment says the run is on
    /// (`GITHUB_ACTIONS=true`, `GITLAB_CI=true`), else none.
    static func chosen(_ option: String?, environment: [String: String]) throws(UsageError) -> CIPlatform? {
        switch option {
        case nil:
            if environment["GITHUB_ACTIONS"] == "true" { return .github }
            if environment["GITLAB_CI"] == "true" { return .gitlab }
            return nil
        case "none": return nil
        case let name?:
            guard let platform = CIPlatform(rawValue: name) else {
                throw UsageError("--annotations expects github, gitlab or none, got '\(name)'")
            }
            return platform
        }
    }

    /// A problem with a file (a job file, else `of`: a vars file) as the platform shows it on its line: for GitHub
    /// Actions `::error file=job.yaml,line=3,col=5,title=invalid job file::unknown key 'qurey'`, else the plain
    /// diagnostic.
    func annotation(_ diagnostic: Diagnostic, of kind: String = "job file") -> String {
        guard self == .github else { return diagnostic.description }
        var properties = [("file", diagnostic.file.isEmpty ? "''" : diagnostic.file)]
        if diagnostic.line > 0 {
            properties += [("line", "\(diagnostic.line)"), ("col", "\(diagnostic.column)")]
        }
        properties.append(("title", diagnostic.isWarning ? "\(kind) warning" : "invalid \(kind)"))
        let message = diagnostic.excerpt.map { diagnostic.message + "\n" + $0 } ?? diagnostic.message
        return WorkflowCommand(diagnostic.isWarning ? "warning" : "error", properties, message).description
    }

    /// Why a job did not pass, on the line of the step that failed (GitHub Actions): nil for a job that passed, or
    /// on another platform.
    func annotation(_ result: RunResult) -> String? {
        guard self == .github, result.status != .passed else { return nil }
        var properties = [("file", result.file)]
        // `job.yaml:12:5`, read from the end: the path may hold colons.
        if let location = result.errorLocation {
            let parts = location.split(separator: ":", omittingEmptySubsequences: false)
            if parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]) {
                properties = [
                    ("file", parts.dropLast(2).joined(separator: ":")), ("line", "\(line)"), ("col", "\(column)"),
                ]
            }
        }
        let title: String
        switch result.status {
        case .assertionFailed: title = "\(result.job): assertion failed"
        case .failed: title = "\(result.job): failed"
        default: title = "\(result.job): interrupted by \(result.status.signal?.rawValue ?? "a signal")"
        }
        properties.append(("title", title))
        return WorkflowCommand("error", properties, result.error ?? title).description
    }

    /// The line that opens a collapsible section of a GitLab job's log, named `name` (letters, digits, `_`, `.` and
    /// `-`), with its header, stamped with the time now; nil on another platform.
    func sectionStart(_ name: String, header: String) -> String? {
        guard self == .gitlab else { return nil }
        return "\u{1B}[0Ksection_start:\(Int(Date().timeIntervalSince1970)):\(name)\r\u{1B}[0K\(header)"
    }

    /// The line that closes the section ``sectionStart(_:header:)`` opened; nil on another platform.
    func sectionEnd(_ name: String) -> String? {
        guard self == .gitlab else { return nil }
        return "\u{1B}[0Ksection_end:\(Int(Date().timeIntervalSince1970)):\(name)\r\u{1B}[0K"
    }

    /// The section of the `index`th job file (from 0): `nowflow_1_checks.yaml`, the path's characters other than
    /// ASCII letters, digits, `.` and `-` as `_`.
    static func sectionName(of file: String, index: Int) -> String {
        let safe = String(file.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") ? $0 : "_" })
        return "nowflow_\(index + 1)_\(safe)"
    }
}
