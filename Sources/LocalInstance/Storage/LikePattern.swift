// memmem, declared by the shim.
internal import CSQLite

/// A pattern of SQLite's `LIKE` with an escape character, parsed once per statement: ASCII letters match without
/// regard to case (as the built-in `LIKE` does, and the platform's default collation), `%` any run of characters,
/// `_` one character, and the escape character makes the next character literal.
///
/// A pattern without `_` (every one the query translator writes: `%text%`, `text%`, `%text`) is matched in time
/// linear in the text and the pattern: its literal runs are found with `memmem` (glibc's two-way search) in the
/// case-folded text. A pattern with `_` is matched by backtracking, which may take the text's length times the
/// pattern's, and asks whether to go on as it goes.
final class LikePattern {
    /// One element of the pattern.
    enum Element: Equatable {
        /// A byte to match, folded to lower case when it is an ASCII letter.
        case byte(UInt8)
        /// `%`: any run of characters, none included.
        case anyRun
        /// `_`: one character.
        case oneCharacter
    }

    /// The escape character's bytes, to tell whether a parse cached for the statement still applies.
    let escape: [UInt8]
    /// The pattern's elements, with consecutive `%` as one.
    private let elements: [Element]
    /// When the pattern has no `_`: its literal runs between `%`s (folded), the first and the last anchored to the
    /// text's start and end (empty when the pattern starts or ends with `%`); nil when it has a `_`.
    private let runs: [[UInt8]]?
    /// Whether the pattern ends with an escape character that escapes nothing: then it matches nothing.
    private let isDangling: Bool

    /// Parses `pattern` with the escape character `escape` (its UTF-8 bytes; empty for none).
    init(_ pattern: [UInt8], escape: [UInt8]) {
        self.escape = escape
        var elements: [Element] = []
        var index = 0
        var dangling = false
        while index < pattern.count {
            if !escape.isEmpty, pattern[index...].starts(with: escape) {
                index += escape.count
                guard index < pattern.count else {
                    dangling = true
                    break
                }
                // The whole character after the escape is literal.
                let end = Self.nextCharacter(after: index, in: pattern)
                for byte in pattern[index..<end] { elements.append(.byte(Self.folded(byte))) }
                index = end
                continue
            }
            switch pattern[index] {
            case UInt8(ascii: "%"):
                if elements.last != .anyRun { elements.append(.anyRun) }
            case UInt8(ascii: "_"):
                elements.append(.oneCharacter)
            case let byte:
                elements.append(.byte(Self.folded(byte)))
            }
            index += 1
        }
        self.elements = elements
        isDangling = dangling
        if elements.contains(.oneCharacter) {
            runs = nil
        } else {
            var runs: [[UInt8]] = [[]]
            for element in elements {
                if case .byte(let byte) = element {
                    runs[runs.count - 1].append(byte)
                } else {
                    runs.append([])
                }
            }
            self.runs = runs
        }
    }

    /// Whether `text` matches; nil when `shouldStop` said to stop first.
    func matches(_ text: UnsafeBufferPointer<UInt8>, shouldStop: () -> Bool) -> Bool? {
        guard !isDangling else { return false }
        guard let runs else { return backtrackingMatch(text, shouldStop: shouldStop) }
        guard runs.count > 1, let first = runs.first, let last = runs.last else {
            // No `%`: the whole text.
            return Self.equalFolded(text[...], runs.first ?? [])
        }
        guard text.count >= first.count + last.count, Self.equalFolded(text[..<first.count], first),
            Self.equalFolded(text[(text.count - last.count)...], last)
        else { return false }
        let middle = runs.dropFirst().dropLast().filter { !$0.isEmpty }
        if middle.isEmpty { return true }
        guard let start = text.baseAddress.map({ $0 + first.count }) else { return false }
        let count = text.count - first.count - last.count
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { folded -> Bool in
            guard let base = folded.baseAddress else { return false }
            Self.fold(count, from: start, to: base)
            var position = 0
            for run in middle {
                let found = run.withUnsafeBytes { needle in
                    memmem(base + position, count - position, needle.baseAddress, needle.count)
                }
                guard let found else { return false }
                position = UnsafeRawPointer(found) - UnsafeRawPointer(base) + run.count
            }
            return true
        }
    }

    /// The general match, `%` backtracking to the last one seen; every 65,536 steps it asks `shouldStop`.
    private func backtrackingMatch(_ text: UnsafeBufferPointer<UInt8>, shouldStop: () -> Bool) -> Bool? {
        var position = 0
        var element = 0
        // Where to resume after the last `%`: its element and the text it has consumed so far.
        var resume: (element: Int, position: Int)?
        var steps = 0
        while position < text.count {
            steps &+= 1
            if steps & 0xFFFF == 0, shouldStop() { return nil }
            if element < elements.count {
                switch elements[element] {
                case .anyRun:
                    resume = (element + 1, position)
                    element += 1
                    continue
                case .oneCharacter:
                    position = Self.nextCharacter(after: position, in: text)
                    element += 1
                    continue
                case .byte(let byte) where Self.folded(text[position]) == byte:
                    position += 1
                    element += 1
                    continue
                case .byte:
                    break
                }
            }
            guard let last = resume else { return false }
            // The last `%` takes one more character.
            let next = Self.nextCharacter(after: last.position, in: text)
            resume = (last.element, next)
            element = last.element
            position = next
        }
        while element < elements.count, elements[element] == .anyRun { element += 1 }
        return element == elements.count
    }

    /// `byte` with an ASCII capital letter lowered.
    private static func folded(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }

    /// Copies `count` bytes from `source` to `destination` with their ASCII capital letters lowered, eight at a time.
    private static func fold(_ count: Int, from source: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        var index = 0
        while index + 8 <= count {
            let word = UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self)
            let low = word & (0x7F &* ones)
            // The top bit of each byte: set where the byte is at least `A`, and where it is past `Z`.
            let atLeastA = low &+ (0x80 &- 0x41) &* ones
            let pastZ = low &+ (0x80 &- 0x5B) &* ones
            let capitals = atLeastA & ~pastZ & ~word & (0x80 &* ones)
            UnsafeMutableRawPointer(destination + index).storeBytes(of: word | capitals >> 2, as: UInt64.self)
            index += 8
        }
        while index < count {
            destination[index] = folded(source[index])
            index += 1
        }
    }

    /// Whether `text` is `folded` (already folded) once its ASCII letters are folded.
    private static func equalFolded(_ text: Slice<UnsafeBufferPointer<UInt8>>, _ folded: [UInt8]) -> Bool {
        guard text.count == folded.count else { return false }
        var index = 0
        var offset = text.startIndex
        while index < folded.count {
            if Self.folded(text[offset]) != folded[index] { return false }
            index += 1
            offset += 1
        }
        return true
    }

    /// The index after the UTF-8 character that starts at `index`.
    private static func nextCharacter<Bytes: Collection<UInt8>>(after index: Int, in bytes: Bytes) -> Int
    where Bytes.Index == Int {
        var next = index + 1
        while next < bytes.endIndex, bytes[next] & 0xC0 == 0x80 { next += 1 }
        return next
    }
}
