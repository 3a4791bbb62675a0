extension RecordPredicate {
    /// A value as the local instance's SQLite compares it: integers and booleans (0/1) as integers, decimals as
    /// reals, every other type as text; an empty value is null.
    enum Stored: Sendable, Hashable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)

        /// The value of a field of `type` given as the Table API's `text`.
        init(_ text: String, type: FieldType) {
            if text.isEmpty {
                self = .null
                return
            }
            switch type {
            case .integer, .decimal:
                if type == .integer, let number = Int64(text) {
                    self = .integer(number)
                } else if let number = Double(text) {
                    self = .real(number)
                } else {
                    self = .text(text)
                }
            case .boolean:
                switch text {
                case "true", "1": self = .integer(1)
                case "false", "0": self = .integer(0)
                default: self = .text(text)
                }
            default:
                self = .text(text)
            }
        }

        /// SQLite's order of two values that are not null: numbers by value, before any text; text byte by byte.
        static func order(_ left: Stored, _ right: Stored) -> Int {
            switch (left, right) {
            case (.integer(let a), .integer(let b)): return a < b ? -1 : a == b ? 0 : 1
            case (.integer(let a), .real(let b)): return Double(a) < b ? -1 : Double(a) == b ? 0 : 1
            case (.real(let a), .integer(let b)): return a < Double(b) ? -1 : a == Double(b) ? 0 : 1
            case (.real(let a), .real(let b)): return a < b ? -1 : a == b ? 0 : 1
            case (.text(let a), .text(let b)):
                return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : a.utf8.elementsEqual(b.utf8) ? 0 : 1
            case (.text, _): return 1
            default: return -1
            }
        }

        /// Whether two values that are not null are equal; `caseless`: text without regard to ASCII case, as
        /// SQLite's `NOCASE`.
        static func equal(_ left: Stored, _ right: Stored, caseless: Bool) -> Bool {
            if caseless, case .text(let a) = left, case .text(let b) = right {
                return a.utf8.count == b.utf8.count
                    && a.utf8.lazy.map(RecordPredicate.folded).elementsEqual(b.utf8.lazy.map(RecordPredicate.folded))
            }
            return order(left, right) == 0
        }
    }

    /// How a `LIKE` pattern of the translator (`%value%`, `value%`, `%value`) places its value.
    enum Placement: Sendable {
        case anywhere, start, end
    }

    /// What a condition asks of the value it compares.
    enum Test: Sendable {
        /// The same answer for every record: the condition's value cannot be compared, or it is `ANYTHING`.
        case constant(Bool)
        /// Empty (`true`) or not empty (`false`).
        case empty(Bool)
        case equal(Stored, caseless: Bool, negated: Bool)
        /// `<`, `<=`, `>` or `>=`, with no regard to case.
        case order(QueryOperator, Stored)
        /// Between two values, both included; negated, empty values match too.
        case between(Stored, Stored, negated: Bool)
        case list([Stored], caseless: Bool, negated: Bool)
        /// The value's text holds `bytes` (folded to lower case) where `placement` says.
        case pattern(Placement, [UInt8], negated: Bool)
        /// A comparison with another field of the same record.
        case field(QueryOperator, key: String, type: FieldType)
    }

    /// One compiled condition.
    struct Term: Sendable {
        /// The condition as written.
        var text: String
        /// Why an instance ignores the condition, when it does.
        var ignoredBecause: String?
        /// The keys of the references walked through, in order (`caller_id`, `caller_id.manager`).
        var hops: [String]
        /// The key of the value compared (`caller_id.manager.name`); empty for a field the table does not have.
        var leafKey: String
        var leafType: FieldType
        /// Whether an empty reference on the way matches.
        var matchesEmpty: Bool
        var test: Test

        func holds(for record: JSONObject) throws(Refusal) -> Bool {
            if case .constant(let answer) = test { return answer }
            for hop in hops {
                if try value(hop, record).isEmpty { return matchesEmpty }
                // A reference to no record: the platform's join finds nothing, even for a negated condition.
                if try value(hop + ".sys_id", record).isEmpty { return false }
            }
            let text = try value(leafKey, record)
            let stored = Stored(text, type: leafType)
            switch test {
            case .constant(let answer):
                return answer
            case .empty(let empty):
                return (stored == .null) == empty
            case .equal(let wanted, let caseless, let negated):
                guard stored != .null else { return negated }
                return Stored.equal(stored, wanted, caseless: caseless) != negated
            case .order(let op, let bound):
                guard stored != .null else { return false }
                let order = Stored.order(stored, bound)
                switch op {
                case .lessThan: return order < 0
                case .lessThanOrEquals: return order <= 0
                case .greaterThan: return order > 0
                default: return order >= 0
                }
            case .between(let low, let high, let negated):
                guard stored != .null else { return negated }
                return (Stored.order(stored, low) >= 0 && Stored.order(stored, high) <= 0) != negated
            case .list(let items, let caseless, let negated):
                guard stored != .null else { return negated }
                return items.contains { Stored.equal(stored, $0, caseless: caseless) } != negated
            case .pattern(let placement, let bytes, let negated):
                guard stored != .null else { return negated }
                let folded = text.utf8.map(RecordPredicate.folded)
                let found =
                    switch placement {
                    case .start: folded.starts(with: bytes)
                    case .end: folded.reversed().starts(with: bytes.reversed())
                    case .anywhere: bytes.isEmpty || folded.firstRange(of: bytes) != nil
                    }
                return found != negated
            case .field(let op, let key, let type):
                let other = Stored(try value(key, record), type: type)
                switch op {
                case .sameAs, .notSameAs:
                    let same = stored == .null || other == .null ? stored == other : Stored.order(stored, other) == 0
                    return same == (op == .sameAs)
                default:
                    guard stored != .null, other != .null else { return false }
                    let order = Stored.order(stored, other)
                    switch op {
                    case .greaterThanField: return order > 0
                    case .lessThanField: return order < 0
                    case .greaterThanOrEqualsField: return order >= 0
                    default: return order <= 0
                    }
                }
            }
        }

        private func value(_ key: String, _ record: JSONObject) throws(Refusal) -> String {
            guard let text = RecordPredicate.text(of: key, in: record) else {
                throw Refusal(condition: self.text, reason: "the record read has no '\(key)'")
            }
            return text
        }
    }

    /// `byte` with an ASCII capital letter lowered.
    static func folded(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }
}
