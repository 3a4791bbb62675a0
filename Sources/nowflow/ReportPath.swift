import Foundation

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `--report` destination, checked before the run sends anything: its directory must exist and the file must
/// be writable, so that a run never makes its changes and then fails to report them.
enum ReportPath {
    /// The format and path of a `--report junit:PATH` or `--report json:PATH`, its path checked (``check(_:option:)``).
    static func destination(_ report: String) throws(UsageError) -> (format: String, path: String) {
        guard let colon = report.firstIndex(of: ":"), ["junit", "json"].contains(report[..<colon]),
            report.index(after: colon) != report.endIndex
        else {
            throw UsageError("--report expects junit:PATH or json:PATH, got '\(report)'")
        }
        let path = String(report[report.index(after: colon)...])
        try check(path, option: report)
        return (String(report[..<colon]), path)
    }

    /// Throws a usage error naming the option when `path` cannot be written; leaves no file behind.
    static func check(_ path: String, option: String) throws(UsageError) {
        let url = URL(fileURLWithPath: path)
        // As written (Foundation's deletingLastPathComponent traps on "." on Linux).
        let directory =
            path.lastIndex(of: "/").map { slash in slash == path.startIndex ? "/" : String(path[..<slash]) } ?? "."
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw UsageError("--report \(option): the directory \(directory) does not exist; create it first")
        }
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw UsageError("--report \(option): \(path) is a directory")
        }
        let existed = FileManager.default.fileExists(atPath: url.path)
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard descriptor >= 0 else {
            throw UsageError("--report \(option): cannot write \(path): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        if !existed { unlink(url.path) }
    }
}
