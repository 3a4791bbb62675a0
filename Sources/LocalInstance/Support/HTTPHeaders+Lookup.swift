import Foundation
import NowData

extension HTTPHeaders {
    /// The value of the first field called `name` in any letter case: what the subscript finds, but comparing the
    /// ASCII names HTTP uses byte by byte rather than through Foundation's Unicode comparison, which costs more than
    /// the rest of a request's routing. `name` must be ASCII.
    func value(named name: String) -> String? {
        for field in self where Self.sameName(field.name, name) { return field.value }
        return nil
    }

    /// Removes every field called `name` in any letter case, as setting the subscript to nil does, comparing as
    /// ``value(named:)`` does. `name` must be ASCII.
    mutating func removeAll(named name: String) {
        guard value(named: name) != nil else { return }
        self = HTTPHeaders(filter { !Self.sameName($0.name, name) }.map { ($0.name, $0.value) })
    }

    private static func sameName(_ given: String, _ ascii: String) -> Bool {
        if given.utf8.count == ascii.utf8.count,
            zip(given.utf8, ascii.utf8).allSatisfy({ lowercase($0) == lowercase($1) })
        {
            return true
        }
        // Only a name with other characters can still match under Unicode case folding.
        return !given.utf8.allSatisfy { $0 < 128 } && given.caseInsensitiveCompare(ascii) == .orderedSame
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (65...90).contains(byte) ? byte + 32 : byte
    }
}
