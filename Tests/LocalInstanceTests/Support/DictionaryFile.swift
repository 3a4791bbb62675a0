import Foundation

/// Writes `text` as a dictionary file (what `nowflow serve --schema` reads) in the temporary directory and returns
/// its path; the caller removes it.
func temporaryDictionaryFile(_ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString).json").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}
