import Foundation

/// `~/.nowflow`, where the embedded instance's database and `config.yaml` live; `HOME` decides where `~` is
/// (Foundation's home directory on Linux reads the password database and ignores `HOME`).
enum NowflowDirectory {
    static var url: URL {
        let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        return (home ?? FileManager.default.homeDirectoryForCurrentUser).appendingPathComponent(".nowflow")
    }
}
