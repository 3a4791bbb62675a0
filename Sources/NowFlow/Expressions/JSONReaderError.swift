/// JSON that cannot be read, with the byte offset of the problem.
struct JSONReaderError: Error, Sendable, Hashable, CustomStringConvertible {
    var message: String
    var offset: Int

    var description: String { "invalid JSON at byte \(offset): \(message)" }
}
