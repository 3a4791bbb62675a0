import Foundation

extension RecordPredicate {
    /// Compiles the conditions of one query into ``Term``s, collecting the keys they read.
    struct TermCompiler {
        let table: String
        let clock: Clock
        /// The keys read, `sys_id` first, each once.
        private(set) var keys: [String] = ["sys_id"]

        init(table: String, clock: Clock) {
            self.table = table
            self.clock = clock
        }

        mutating func compile(_ term: EncodedQuery.Term, types: FieldTypes) throws(Refusal) -> Term {
            switch term {
            case .invalid(let text, let reason):
                throw Refusal(condition: text, reason: reason)
            case .join(let join):
                throw Refusal(
                    condition: join.text, reason: "a JOIN matches records of another table, which are not read")
            case .relatedList(let related):
                throw Refusal(condition: related.text, reason: "an RLQUERY counts related records, which are not read")
            case .condition(let condition):
                return try compile(condition, types: types)
            }
        }

        private mutating func compile(_ condition: EncodedQuery.Condition, types: FieldTypes) throws(Refusal) -> Term {
            let path = FieldPath(condition.field)
            if path.first == "123TEXTQUERY321" || path.first.hasPrefix("IR_") {
                throw Refusal(condition: condition.text, reason: "a keyword search runs on the instance's text index")
            }
            let walk = path.walk(from: table, field: types) { type in
                if case .reference(let target) = type { target } else { nil }
            }
            guard let leaf = walk.leaf else { return Self.unknown(condition, walk.reason ?? "no field") }
            let key = condition.field
            let hops = walk.hops.indices.map(path.prefix(through:))
            let type = leaf.field
            if case .other(let typeName) = type {
                throw Refusal(
                    condition: condition.text,
                    reason: "\(key) is a field of type \(typeName), whose comparisons are not known here")
            }
            var term = Term(
                text: condition.text, ignoredBecause: nil, hops: hops, leafKey: key, leafType: type,
                matchesEmpty: condition.matchesEmptyValue, test: .constant(false))
            do throws(Mismatch) {
                term.test = try test(
                    condition, field: path.last, type: type, table: leaf.table,
                    dotWalked: !hops.isEmpty, types: types)
            } catch {
                if error.refused { throw Refusal(condition: condition.text, reason: error.reason) }
                term.ignoredBecause = error.reason
                term.test = error.partial ?? .constant(condition.matchesEmptyValue || condition.op == .notSameAs)
            }
            for hop in hops { add(hop, hop + ".sys_id") }
            add(key)
            if case .field(_, let other, _) = term.test { add(other) }
            return term
        }

        private mutating func add(_ names: String...) {
            for name in names where !keys.contains(name) { keys.append(name) }
        }

        /// A condition on a field the table does not have: an instance ignores it; its value is empty.
        private static func unknown(_ condition: EncodedQuery.Condition, _ reason: String) -> Term {
            Term(
                text: condition.text, ignoredBecause: reason, hops: [], leafKey: "", leafType: .string,
                matchesEmpty: condition.matchesEmptyValue,
                test: .constant(condition.matchesEmptyValue || condition.op == .notSameAs))
        }

        /// Why a condition does not fit its field, as the local instance's translator says it; `partial`: what
        /// the condition still asks of the values it can compare (the items of an `IN` list that fit).
        struct Mismatch: Error {
            var reason: String
            var partial: Test? = nil
            /// Whether the condition is refused rather than ignored.
            var refused = false
        }

        private func test(
            _ condition: EncodedQuery.Condition, field name: String, type: FieldType,
            table: String, dotWalked: Bool, types: FieldTypes
        ) throws(Mismatch) -> Test {
            let value = condition.value
            let caseless = (type == .string || type == .choice) && name != "sys_id"
            func typed(_ text: String) throws(Mismatch) -> Stored {
                if text.hasPrefix("javascript:") { return try dateHelper(text, type: type, field: name) }
                return try type.stored(text, field: name)
            }
            switch condition.op {
            case .equals where value.isEmpty, .isEmpty, .emptyString:
                return .empty(true)
            case .notEquals where value.isEmpty, .isNotEmpty:
                return .empty(false)
            case .anything:
                return .constant(true)
            case .equals, .notEquals:
                return .equal(try typed(value), caseless: caseless, negated: condition.op == .notEquals)
            case .lessThan, .lessThanOrEquals, .greaterThan, .greaterThanOrEquals:
                return .order(condition.op, try typed(value))
            case .like, .contains, .startsWith, .endsWith, .endsWithAlias, .notLike, .notLikeAlias, .doesNotContain:
                if type == .boolean || type == .decimal {
                    throw Mismatch(
                        reason: "\(condition.op.rawValue) on a \(type.name) field compares its stored text, which "
                            + "differs between instances", refused: true)
                }
                let placement: Placement =
                    switch condition.op {
                    case .startsWith: .start
                    case .endsWith, .endsWithAlias: .end
                    default: .anywhere
                    }
                let negated = [.notLike, .notLikeAlias, .doesNotContain].contains(condition.op)
                return .pattern(placement, value.utf8.map(RecordPredicate.folded), negated: negated)
            case .isIn, .notIn:
                let negated = condition.op == .notIn
                let items = value.split(separator: ",").map(String.init)
                if items.isEmpty { throw Mismatch(reason: "\(condition.op.rawValue) needs at least one value") }
                var stored: [Stored] = []
                var problem: Mismatch?
                for item in items {
                    do throws(Mismatch) { stored.append(try typed(item)) } catch { problem = problem ?? error }
                }
                let test = Test.list(stored, caseless: caseless, negated: negated)
                guard var problem else { return test }
                if !stored.isEmpty { problem.partial = test }
                throw problem
            case .between:
                let bounds = value.split(separator: "@", omittingEmptySubsequences: false)
                guard bounds.count == 2 else { throw Mismatch(reason: "BETWEEN needs two values separated by '@'") }
                return .between(try typed(String(bounds[0])), try typed(String(bounds[1])), negated: false)
            case .sameAs, .notSameAs, .greaterThanField, .lessThanField, .greaterThanOrEqualsField,
                .lessThanOrEqualsField:
                if dotWalked {
                    throw Mismatch(
                        reason: "\(condition.op.rawValue) compares fields of \(self.table) only, not dot-walked ones")
                }
                guard let other = types(value, table) else {
                    throw Mismatch(reason: "\(table) has no field '\(value)'")
                }
                guard type.storesNumbers == other.storesNumbers, !type.isOther, !other.isOther else {
                    throw Mismatch(
                        reason: "it compares the \(type.name) field \(name) with the \(other.name) field \(value), "
                            + "which instances convert differently",
                        refused: true)
                }
                return .field(condition.op, key: value, type: other)
            case .on, .notOn:
                return try dateMatch(condition, type: type)
            }
        }

        private func dateMatch(_ condition: EncodedQuery.Condition, type: FieldType) throws(Mismatch) -> Test {
            let op = condition.op.rawValue
            let negated = condition.op == .notOn
            guard type == .date || type == .dateTime else {
                throw Mismatch(reason: "\(op) needs a date or date-time field")
            }
            let parts = condition.value.split(separator: "@", omittingEmptySubsequences: false).map(String.init)
            if parts.count == 3, parts[1].hasPrefix("javascript:"), parts[2].hasPrefix("javascript:") {
                let low = try dateHelper(parts[1], type: type, field: condition.field)
                let high = try dateHelper(parts[2], type: type, field: condition.field)
                return .between(low, high, negated: negated)
            }
            let relative = ["Today": 0, "Yesterday": -1, "Tomorrow": 1][condition.value]
            if relative != nil, clock.timeZone == nil {
                throw Mismatch(
                    reason: "'\(condition.value)' is a day in the session user's time zone, which is not known here",
                    refused: true)
            }
            let day: String
            if let relative {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = .gmt
                guard let date = calendar.date(byAdding: .day, value: relative, to: clock.now) else {
                    throw Mismatch(reason: "\(op) cannot compute \(condition.value)")
                }
                day = String(Self.timestamp(date).prefix(10))
            } else {
                guard condition.value.isCalendarDate else {
                    throw Mismatch(
                        reason: "\(op) needs a date yyyy-MM-dd, Today, Yesterday or Tomorrow, not '\(condition.value)'")
                }
                day = condition.value
            }
            if type == .date { return .equal(.text(day), caseless: false, negated: negated) }
            return .between(.text(day + " 00:00:00"), .text(day + " 23:59:59"), negated: negated)
        }

        /// The stored value a date helper gives at the clock's now: a UTC date-time, or its day for a date field.
        private func dateHelper(_ text: String, type: FieldType, field: String) throws(Mismatch) -> Stored {
            guard type == .dateTime || type == .date else {
                throw Mismatch(
                    reason: "\(field) is not a date or date-time field, a date helper cannot be compared with it")
            }
            guard let helper = QueryDateHelper(text) else {
                throw Mismatch(reason: "'\(text)' is not a date helper the local instance computes")
            }
            // Minutes and hours ago are the same instant in every zone; the other helpers depend on the zone.
            let zoneFree = helper.edge == .exact && (helper.unit == .minute || helper.unit == .hour)
            guard let zone = clock.timeZone ?? (zoneFree ? .gmt : nil) else {
                throw Mismatch(
                    reason: "'\(text)' is computed in the session user's time zone, which is not known here",
                    refused: true)
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            guard let date = helper.date(now: clock.now, calendar: calendar) else {
                throw Mismatch(reason: "'\(text)' is not a date helper the local instance computes")
            }
            let stamp = Self.timestamp(date)
            return .text(type == .date ? String(stamp.prefix(10)) : stamp)
        }

        /// `date` as UTC `yyyy-MM-dd HH:mm:ss`, to the second below.
        static func timestamp(_ date: Date) -> String {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .gmt
            let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
            func pad(_ value: Int?, _ width: Int) -> String {
                let digits = String(value ?? 0)
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
            return pad(parts.year, 4) + "-" + pad(parts.month, 2) + "-" + pad(parts.day, 2) + " " + pad(parts.hour, 2)
                + ":" + pad(parts.minute, 2) + ":" + pad(parts.second, 2)
        }
    }

    /// The type of a field of a table, nil when the table has no such field.
    typealias FieldTypes = (_ field: String, _ table: String) -> FieldType?
}

extension EncodedQuery.Condition {
    /// Whether an empty value matches, which decides whether a dot-walk through an empty reference matches (the
    /// platform joins references with an outer join), as the local instance's translator decides it.
    fileprivate var matchesEmptyValue: Bool {
        switch op {
        case .notEquals, .notLike, .notLikeAlias, .doesNotContain, .notIn, .isEmpty, .emptyString, .anything,
            .notOn:
            true
        case .equals: value.isEmpty
        default: false
        }
    }
}

extension FieldType {
    /// Whether the local instance stores the values as numbers (integers, booleans, decimals) rather than text.
    fileprivate var storesNumbers: Bool {
        switch self {
        case .integer, .boolean, .decimal: true
        default: false
        }
    }

    fileprivate var isOther: Bool {
        if case .other = self { true } else { false }
    }

    /// `text` as the value compared with a field of this type, as the local instance's translator reads it.
    fileprivate func stored(_ text: String, field: String) throws(RecordPredicate.TermCompiler.Mismatch)
        -> RecordPredicate.Stored
    {
        do {
            switch try ComparedValue(text, type: self, field: field) {
            case .integer(let number): return .integer(number)
            case .real(let number): return .real(number)
            case .text(let text): return .text(text)
            }
        } catch {
            throw .init(reason: error.reason)
        }
    }
}
