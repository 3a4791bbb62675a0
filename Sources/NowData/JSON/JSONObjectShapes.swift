import Synchronization
internal import SimdJSON

/// The object shapes a parse knows: those the process has learned (``JSONObjectShape``), read once when the parse
/// starts, and those it learns, kept for the next parses when it ends.
///
/// A shape is learned the second time an object with its keys is seen (across parses), so that objects seen once
/// cost no more than their members; the process keeps the last ``maximumShapes``.
struct JSONObjectShapes {
    private struct Learned {
        var shapes: [JSONObjectShape] = []
        /// The fingerprints of the objects seen once, the last ``maximumSeen``.
        var seen: [UInt64] = []
    }

    private static let learned = Mutex(Learned())

    /// The most shapes the process keeps.
    static let maximumShapes = 64
    /// The most fingerprints of objects seen once the process keeps.
    static let maximumSeen = 256
    /// The fewest and most members of an object whose shape is learned.
    static let memberCounts = 2...4096

    private var known: Learned
    private var new = Learned()

    /// The shapes learned so far.
    init() {
        known = Self.learned.withLock { $0 }
    }

    /// The shape of the object at `start` on a tape, when it is known.
    func shape(_ entries: UnsafePointer<TapeEntry>, objectAt start: Int) -> JSONObjectShape? {
        guard Self.memberCounts.contains(Int(entries[start].count)) else { return nil }
        for shape in known.shapes where shape.matches(entries, objectAt: start) { return shape }
        for shape in new.shapes where shape.matches(entries, objectAt: start) { return shape }
        return nil
    }

    /// Notes `object`, just made from the object at `start` on a tape, whose shape is not known: its shape is
    /// learned when an object of its keys was seen before.
    mutating func saw(_ object: JSONObject, _ entries: UnsafePointer<TapeEntry>, objectAt start: Int) {
        // An object that repeats a key has fewer members than the tape; it gets no shape.
        guard Self.memberCounts.contains(object.count), object.count == Int(entries[start].count) else { return }
        let fingerprint = JSONObjectShape.fingerprint(entries, objectAt: start)
        if known.seen.contains(fingerprint) || new.seen.contains(fingerprint) {
            new.shapes.append(JSONObjectShape(object))
        } else {
            new.seen.append(fingerprint)
        }
    }

    /// Keeps what the parse learned for the next ones.
    func finish() {
        guard !new.shapes.isEmpty || !new.seen.isEmpty else { return }
        Self.learned.withLock { learned in
            for shape in new.shapes where !learned.shapes.contains(where: { $0.keys == shape.keys }) {
                learned.shapes.append(shape)
            }
            learned.shapes.removeFirst(max(0, learned.shapes.count - Self.maximumShapes))
            learned.seen.append(contentsOf: new.seen)
            learned.seen.removeFirst(max(0, learned.seen.count - Self.maximumSeen))
        }
    }
}
