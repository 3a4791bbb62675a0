import Foundation

/// `~/.nowflow`, where the embedded instance's database and `config.yaml` live; `HOME` decides where `~` is
/// (Foundation's home directory on Linux reads the password database and ignores `HOME`).
enum NowflowDirectory {
    /// `~/.nowflow` for this process's environment.
    static var url: URL { url(environment: ProcessInfo.processInfo.environment) }

    /// `~/.nowflow` where `environment`'s `HOME` (when set and not empty) is `~`.
    static func url(environment: [String: String]) -> URL {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        return (home ?? FileManager.default.homeDirectoryForCurrentUser).appendingPathComponent(".nowflow")
    }
}
