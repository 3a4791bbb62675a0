import NowData

/// One of `count` runners that share a job's work (`nowflow run --shard K/N`): of each `foreach` over records, a
/// shard runs the items whose sys_id hashes to it, so that N runners given the same arguments, without talking to
/// each other, handle every record exactly once.
///
/// The hash is FNV-1a 64 of the sys_id's UTF-8 bytes; a record belongs to shard `hash % count + 1`. It is the same
/// on every machine and in every run (unlike Swift's seeded `Hasher`), so another tool can tell which shard had a
/// record (docs/scale.md).
///
/// ```swift
/// let shard = try Shard(parsing: "2/4")
/// shard.owns(sysID: "9d385017c611228701d22104cc95c371")   // true when the sys_id hashes to 2
/// ```
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// Which shard this is, from 1 to ``count``.
    public let index: Int
    /// How many shards share the job.
    public let count: Int

    /// Shard `index` of `count`; nil unless `1 <= index <= count`.
    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Reads `K/N`, such as `2/4`: whole numbers with `1 <= K <= N`.
    ///
    /// - Throws: ``Problem`` saying what is wrong, to follow the option's name (`--shard expects ...`).
    public init(parsing text: String) throws(Problem) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw Problem("expects K/N, shard K of N (such as 2/4), got '\(text)'")
        }
        guard count >= 1 else { throw Problem("\(text): the number of shards must be at least 1, not \(count)") }
        guard let shard = Shard(index: index, count: count) else {
            throw Problem("\(text): the shard must be from 1 to \(count), not \(index)")
        }
        self = shard
    }

    /// What is wrong with a shard's text.
    public struct Problem: Error, Sendable, Equatable {
        /// The sentence, to follow the option's name.
        public var message: String
        init(_ message: String) { self.message = message }
    }

    /// The shard (1 to `count`) a record of this sys_id belongs to: FNV-1a 64 of its UTF-8 bytes, modulo `count`,
    /// plus 1.
    public static func shard(ofSysID sysID: String, count: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in sysID.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return Int(hash % UInt64(max(1, count))) + 1
    }

    /// Whether the record of `sysID` is this shard's.
    public func owns(sysID: String) -> Bool {
        Self.shard(ofSysID: sysID, count: count) == index
    }

    /// Whether this shard runs a `foreach` item: a record (a query's, or an object with a `sys_id` field, read
    /// as ``NowRecord`` reads a field: a text, or a field object with its display value) when it owns its sys_id;
    /// any other item (a number, a name) on every shard.
    func owns(item: ExpressionValue) -> Bool {
        switch item {
        case .record(let record): record.sysId.map { owns(sysID: $0) } ?? true
        case .json(let json):
            json["sys_id"].flatMap(NowRecord.Field.init(member:)).map { owns(sysID: $0.value) } ?? true
        case .records, .result, .date, .duration: true
        }
    }

    /// `2/4`.
    public var description: String { "\(index)/\(count)" }
}
