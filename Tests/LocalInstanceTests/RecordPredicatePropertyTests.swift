import Foundation
import NowData
import TestSupport
import Testing

@testable import LocalInstance

/// NowData's ``RecordPredicate`` (the runner's second opinion on a write by query) and the local instance's SQL
/// translation select the same records of the demo data for random encoded queries: every operator, every field
/// type the demo tables have (string, choice, integer, integer choice, boolean, decimal, reference, date-time),
/// dot-walks, OR clauses and NQ groups. Where the predicate refuses, it says why, for a documented reason; where
/// the instance ignores a condition, the predicate names the same condition for the same reason.
@Suite struct RecordPredicatePropertyTests {
    /// The reasons for which the predicate refuses a condition of these queries (docs/job-files.md lists them).
    static let documentedRefusals = [
        "on a boolean field compares its stored text, which differs between instances",
        "on a decimal field compares its stored text, which differs between instances",
        ", which instances convert differently",
    ]

    @Test func predicateAndSQLSelectTheSameRecords() async throws {
        let harness = try Harness()
        let zone = try await Self.sessionZone(harness)
        var random = SplitMix(seed: 0x5EC0_4D0B)
        var generators: [String: QueryGenerator] = [:]
        for table in ["incident", "sys_user", "sc_req_item"] {
            generators[table] = try await QueryGenerator(table: table, harness: harness)
        }
        var compared = 0
        var refused = 0
        var ignored = 0
        for index in 0..<400 {
            let table = ["incident", "sys_user", "sc_req_item"][index % 3]
            let generator = try #require(generators[table])
            let query = generator.query(using: &random)
            let parsed = try EncodedQuery.parse(query)
            let clock = RecordPredicate.Clock(now: harness.clock.now, timeZone: zone)
            let predicate: RecordPredicate
            do {
                predicate = try RecordPredicate(parsed, table: table, clock: clock) { field, table in
                    harness.instance.dictionary.fieldType(field, in: table)
                }
            } catch {
                refused += 1
                #expect(
                    Self.documentedRefusals.contains { error.reason.hasSuffix($0) },
                    "refused \(table) '\(query)' for an undocumented reason: \(error)")
                continue
            }
            let before = harness.log.all.count
            let selected = try await Self.sysIDs(harness, table, query: query)
            let warnings = harness.log.all.dropFirst(before).compactMap { line in
                line.range(of: "ignored invalid condition ").map { String(line[$0.upperBound...]) }
            }
            #expect(
                warnings == predicate.ignoredConditions,
                "\(table) '\(query)': the instance ignored \(warnings), the predicate \(predicate.ignoredConditions)")
            if !warnings.isEmpty {
                // The instance dropped conditions: the predicate over what is left selects what it did.
                ignored += 1
                let kept = Self.withoutIgnored(parsed, predicate)
                let instanceReading = try RecordPredicate(
                    try EncodedQuery.parse(kept), table: table, clock: clock
                ) { field, table in harness.instance.dictionary.fieldType(field, in: table) }
                try await Self.compare(instanceReading, kept, table, selected, harness, written: query)
            } else {
                compared += 1
                try await Self.compare(predicate, query, table, selected, harness, written: query)
            }
        }
        #expect(compared > 200 && ignored > 20 && refused > 10, "compared \(compared), ignored \(ignored), refused \(refused)")
    }

    /// Records an issue when `predicate` does not select exactly `selected` among every record of `table`.
    static func compare(
        _ predicate: RecordPredicate, _ query: String, _ table: String, _ selected: Set<String>, _ harness: Harness,
        written: String
    ) async throws {
        let records = try await Self.records(harness, table, fields: predicate.fields)
        var evaluated: Set<String> = []
        for record in records where try predicate.matches(record) {
            evaluated.insert(RecordPredicate.text(of: "sys_id", in: record) ?? "")
        }
        guard evaluated != selected else { return }
        let differing = records.filter {
            let id = RecordPredicate.text(of: "sys_id", in: $0) ?? ""
            return evaluated.contains(id) != selected.contains(id)
        }
        Issue.record(
            """
            \(table) '\(written)' (evaluated as '\(query)'): the predicate selects \(evaluated.count) records, \
            the instance \(selected.count); differing: \(differing.prefix(3).map { "\($0)" })
            """)
    }

    /// `query` without the conditions `predicate` says an instance ignores, as the local instance runs it: a
    /// clause left with no condition goes, and a group left with no clause matches every record.
    static func withoutIgnored(_ query: EncodedQuery, _ predicate: RecordPredicate) -> String {
        let ignored = Set(predicate.ignoredConditions)
        var groups: [String] = []
        for group in query.groups {
            let clauses = group.clauses.compactMap { clause -> String? in
                let terms = clause.terms.compactMap { term -> String? in
                    guard case .condition(let condition) = term else { return nil }
                    return ignored.contains { $0.hasPrefix("'\(condition.text)': ") } ? nil : condition.text
                }
                return terms.isEmpty ? nil : terms.joined(separator: "^OR")
            }
            if clauses.isEmpty { return "" }
            groups.append(clauses.joined(separator: "^"))
        }
        return groups.joined(separator: "^NQ")
    }

    /// The session user's time zone, in which the instance computes the date helpers.
    static func sessionZone(_ harness: Harness) async throws -> TimeZone {
        let users = try await records(
            harness, "sys_user", fields: ["time_zone"], query: "user_name=admin")
        let name = users.first.flatMap { RecordPredicate.text(of: "time_zone", in: $0) } ?? ""
        return name.isEmpty ? .gmt : TimeZone(identifier: name) ?? .gmt
    }

    /// The records of `table` (every one when `query` is nil) with `fields` (every field when empty), values as
    /// stored.
    static func records(_ harness: Harness, _ table: String, fields: [String], query: String? = nil) async throws
        -> [JSONObject]
    {
        var items = [("sysparm_limit", "10000"), ("sysparm_exclude_reference_link", "true")]
        if !fields.isEmpty { items.append(("sysparm_fields", fields.joined(separator: ","))) }
        if let query { items.append(("sysparm_query", query)) }
        let response = try await harness.send("GET", "/api/now/table/\(table)", query: items)
        try #require(response.statusCode == 200, "\(table) '\(query ?? "")': \(Harness.text(response))")
        let list = try #require(try JSONValue(json: response.body)["result"]?.array)
        return list.compactMap(\.object)
    }

    static func sysIDs(_ harness: Harness, _ table: String, query: String) async throws -> Set<String> {
        Set(try await records(harness, table, fields: ["sys_id"], query: query).map {
            RecordPredicate.text(of: "sys_id", in: $0) ?? ""
        })
    }
}

/// Draws random encoded queries over one table of the demo data, from the values its records hold.
struct QueryGenerator {
    /// A field a condition may name: a field of the table or a dot-walk, with its type.
    struct Field {
        var path: String
        var type: FieldType
        var dotWalked: Bool { path.contains(".") }
    }

    let table: String
    let fields: [Field]
    /// The values each field holds in the table's records (empty values left out).
    let values: [String: [String]]

    init(table: String, harness: Harness) async throws {
        self.table = table
        let dictionary = harness.instance.dictionary
        let definition = try #require(dictionary.table(table))
        var fields: [Field] = []
        func plain(_ table: TableDefinition) -> [FieldDefinition] { table.fields.filter { !$0.isPassword } }
        for field in plain(definition) {
            fields.append(Field(path: field.name, type: field.type))
            guard case .reference(let target) = field.type, let walked = dictionary.table(target) else { continue }
            for inner in plain(walked) {
                fields.append(Field(path: "\(field.name).\(inner.name)", type: inner.type))
                if case .reference(let next) = inner.type, let deeper = dictionary.table(next) {
                    for name in ["name", "active", "sys_id"] {
                        if let last = deeper.field(name) {
                            fields.append(Field(path: "\(field.name).\(inner.name).\(name)", type: last.type))
                        }
                    }
                }
            }
        }
        self.fields = fields
        let records = try await RecordPredicatePropertyTests.records(harness, table, fields: fields.map(\.path))
        var values: [String: [String]] = [:]
        for field in fields {
            let found = records.compactMap { RecordPredicate.text(of: field.path, in: $0) }.filter {
                !$0.isEmpty && !$0.contains("^")
            }
            values[field.path] = Array(Set(found)).sorted()
        }
        self.values = values
    }

    func query(using random: inout SplitMix) -> String {
        let groups = (0..<Int.random(in: 1...3, using: &random)).map { _ in
            (0..<Int.random(in: 1...3, using: &random)).map { _ in
                (0..<Int.random(in: 1...2, using: &random)).map { _ in condition(using: &random) }
                    .joined(separator: "^OR")
            }.joined(separator: "^")
        }
        return groups.joined(separator: "^NQ")
    }

    /// One condition; about one in twenty has a value the instance cannot compare, and is ignored.
    func condition(using random: inout SplitMix) -> String {
        let field = fields.randomElement(using: &random) ?? fields[0]
        if Int.random(in: 0..<20, using: &random) == 0 { return invalid(field, using: &random) }
        let known = values[field.path] ?? []
        var operators = QueryOperator.allCases.filter { !$0.comparesFields && $0 != .on && $0 != .notOn }
        if field.type == .dateTime || field.type == .date { operators += [.on, .notOn, .on, .notOn] }
        if !field.dotWalked { operators += QueryOperator.allCases.filter(\.comparesFields) }
        let op = operators.randomElement(using: &random) ?? .equals
        if op.isUnary { return field.path + op.rawValue }
        func value(helpers: Bool = true) -> String { self.value(of: field, known, helpers: helpers, using: &random) }
        let text: String
        switch op {
        case .isIn, .notIn:
            text = (0..<Int.random(in: 1...3, using: &random)).map { _ in value(helpers: false) }
                .filter { !$0.contains(",") && !$0.isEmpty }.joined(separator: ",")
            if text.isEmpty { return field.path + "ISEMPTY" }
        case .between:
            text = value() + "@" + value()
        case .like, .notLike, .notLikeAlias, .startsWith, .endsWith, .endsWithAlias, .contains, .doesNotContain:
            let whole = value()
            let start = Int.random(in: 0...whole.count, using: &random)
            let end = Int.random(in: start...whole.count, using: &random)
            text = Self.recased(String(whole.dropFirst(start).prefix(end - start)), using: &random)
        case .sameAs, .notSameAs, .greaterThanField, .lessThanField, .greaterThanOrEqualsField,
            .lessThanOrEqualsField:
            let same = fields.filter { !$0.dotWalked && Self.storesNumbers($0.type) == Self.storesNumbers(field.type) }
            text = (Int.random(in: 0..<10, using: &random) == 0 ? fields : same).filter { !$0.dotWalked }
                .randomElement(using: &random)?.path ?? field.path
        case .on, .notOn:
            text = dayValue(known, using: &random)
        default:
            text = value()
        }
        return field.path + op.rawValue + text
    }

    /// A value valid for the field's type: one its records hold (text in another letter case), a nearby number,
    /// a date helper.
    private func value(of field: Field, _ known: [String], helpers: Bool, using random: inout SplitMix) -> String {
        let existing = known.randomElement(using: &random)
        switch field.type {
        case .integer:
            return Bool.random(using: &random) ? existing ?? "0" : String(Int.random(in: -2...12, using: &random))
        case .decimal:
            return Bool.random(using: &random)
                ? existing ?? "0" : String(Double(Int.random(in: -20...400, using: &random)) / 4)
        case .boolean:
            return ["true", "false", "1", "0", "TRUE", "False"].randomElement(using: &random) ?? "true"
        case .dateTime, .date:
            switch Int.random(in: helpers ? 0..<6 : 1..<6, using: &random) {
            case 0:
                return [
                    "javascript:gs.beginningOfToday()", "javascript:gs.daysAgoStart(3)", "javascript:gs.hoursAgo(5)",
                    "javascript:gs.endOfThisMonth()", "javascript:gs.minutesAgo(30)", "javascript:gs.yearsAgo(1)",
                ].randomElement(using: &random) ?? "javascript:gs.beginningOfToday()"
            case 1: return String((existing ?? "2026-11-30").prefix(10))
            default: return existing ?? "2026-11-30 09:00:00"
            }
        case .string, .choice, .other:
            guard let existing else { return "none" }
            return Bool.random(using: &random) ? Self.recased(existing, using: &random) : existing
        case .reference:
            return existing ?? "0123456789abcdef0123456789abcdef"
        }
    }

    private func dayValue(_ known: [String], using random: inout SplitMix) -> String {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return ["Today", "Yesterday", "Tomorrow"].randomElement(using: &random) ?? "Today"
        case 1: return "Today@javascript:gs.beginningOfToday()@javascript:gs.endOfToday()"
        default: return String((known.randomElement(using: &random) ?? "2026-11-30").prefix(10))
        }
    }

    /// A condition the instance ignores: a value not of the field's type, or a field the table does not have.
    private func invalid(_ field: Field, using random: inout SplitMix) -> String {
        switch field.type {
        case .integer: return field.path + (["=", "!=", ">", "IN"].randomElement(using: &random) ?? "=") + "Resolved"
        case .boolean: return field.path + (["=", "!="].randomElement(using: &random) ?? "=") + "yes"
        case .decimal: return field.path + "<" + "cheap"
        default: return "no_such_field" + (["=x", "!=x", "ISEMPTY"].randomElement(using: &random) ?? "=x")
        }
    }

    private static func storesNumbers(_ type: FieldType) -> Bool {
        type == .integer || type == .decimal || type == .boolean
    }

    /// `text` in upper, lower or its own case.
    private static func recased(_ text: String, using random: inout SplitMix) -> String {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: text.uppercased()
        case 1: text.lowercased()
        default: text
        }
    }
}
