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

    /// `~/.nowflow`, created when missing, readable by its owner alone (0700 whatever the umask; an existing one
    /// is made so too: it holds the embedded instance's database, and its users' password hashes).
    ///
    /// - Throws: when the directory cannot be created or its mode set.
    @discardableResult
    static func create(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        let directory = url(environment: environment)
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        return directory
    }
}
