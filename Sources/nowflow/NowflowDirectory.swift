import Foundation

/// The folder of nowflow's own files (the local instance's database, config.yaml, the REPL's history):
/// `$NOWFLOW_HOME` when set, else `.nowflow` in `$HOME`, else in the user's home folder.
enum NowflowDirectory {
    static func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["NOWFLOW_HOME"], !path.isEmpty { return URL(fileURLWithPath: path) }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".nowflow")
    }
}
