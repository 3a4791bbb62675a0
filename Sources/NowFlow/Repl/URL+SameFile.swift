import Foundation

extension URL {
    /// Whether the two file URLs name the same file, once standardized and their symbolic links resolved.
    func namesSameFile(as other: URL) -> Bool {
        standardizedFileURL.resolvingSymlinksInPath() == other.standardizedFileURL.resolvingSymlinksInPath()
    }
}
