import Foundation

/// Finds executables built by `swift build` next to the running tests.
enum BuiltProducts {
    struct NotFound: Error, CustomStringConvertible {
        let description: String
    }

    /// The built executable `name`: in the test bundle's products directory, next to the test runner, or in the
    /// package's `.build/debug`.
    static func executable(named name: String) throws -> URL {
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directories = [
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent(),
            packageRoot.appendingPathComponent(".build/debug"),
        ]
        let candidates = directories.map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw NotFound(description: "no built \(name) in \(candidates.map(\.path).joined(separator: ", "))")
        }
        return found
    }
}
