import Foundation

extension Job {
    /// The directory of the job file, from which the relative paths of `attach` and `download` start: the
    /// current directory for a job without a file (the REPL's).
    var directory: URL {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        guard !file.isEmpty else { return current }
        return URL(fileURLWithPath: file, relativeTo: current).deletingLastPathComponent().standardizedFileURL
    }
}
