// The encoded-query parser: what parses prints to a text that parses to the same query (parse → print → parse),
// and the local instance answers any query on a small fixed table (its SQL translation) with 200 or 400, never
// a 500 (an SQL error, or any other failure) nor a crash.
import Foundation
import FuzzInstance
import FuzzSupport
@testable import NowData

@main
enum FuzzQuery {
    nonisolated(unsafe) static var instance: FuzzInstance?

    static func main() {
        instance = FuzzInstance()
        Fuzzer.run { start, count in
            let text = Fuzzer.text(start, count)
            FuzzQuery.roundTrip(text)
            let query = [URLQueryItem(name: "sysparm_query", value: text)]
            for (path, extra) in [
                ("/api/now/table/incident", [URLQueryItem(name: "sysparm_display_value", value: "all")]),
                ("/api/now/stats/incident", [URLQueryItem(name: "sysparm_count", value: "true")]),
            ] {
                FuzzQuery.instance?.answer(
                    NowHTTPRequest(
                        method: "GET", path: path, queryItems: query + extra,
                        headers: ["Authorization": FuzzInstance.adminAuthorization]))
            }
            return 0
        }
    }

    /// Traps when `text` parses but its printed text does not parse to the same query.
    static func roundTrip(_ text: String) {
        guard let query = try? EncodedQuery.parse(text) else { return }
        let printed = query.text
        let again: EncodedQuery
        do {
            again = try EncodedQuery.parse(printed)
        } catch {
            fatalError("'\(text)' prints as '\(printed)', which does not parse: \(error)")
        }
        guard withoutReasons(again) == withoutReasons(query) || hasAmbiguousSpelling(query) else {
            fatalError("'\(text)' prints as '\(printed)', which parses to another query: \(query) then \(again)")
        }
    }

    /// `query` with the reasons of its invalid terms left out: an invalid term prints as its text, which may read
    /// back as invalid for another reason (a malformed `RLQUERY` header prints without the `ENDRLQUERY` that closed
    /// it, and reads back as unclosed); the conditions are the same. So are the headers of `RLQUERY` terms as
    /// written (kept for warnings): `>=01` prints as `>=1`, the same count.
    static func withoutReasons(_ query: EncodedQuery) -> EncodedQuery {
        var query = query
        for g in query.groups.indices {
            for c in query.groups[g].clauses.indices {
                query.groups[g].clauses[c].terms = query.groups[g].clauses[c].terms.map { term in
                    switch term {
                    case .invalid(let text, _): return .invalid(text: text, reason: "")
                    case .join(var join):
                        join.query = withoutReasons(join.query)
                        return .join(join)
                    case .relatedList(var related):
                        related.text = ""
                        related.query = withoutReasons(related.query)
                        return .relatedList(related)
                    case .condition: return term
                    }
                }
            }
        }
        return query
    }

    /// Whether `query` holds a spelling the syntax cannot write back: the two EncodedQuery.text documents (`<` or
    /// `>` before a value starting with `=`, `IN` before one starting with `STANCEOF` or `_HIERARCHY`), and a
    /// field or invalid term starting with a keyword of the syntax (`OR`, `NQ`, `RLQUERY`, `JOIN`, or the whole
    /// `EQ` or `ENDRLQUERY`), which reads back as that keyword (the platform has no escape for it).
    static func hasAmbiguousSpelling(_ query: EncodedQuery) -> Bool {
        query.groups.contains { group in
            group.clauses.contains { clause in
                clause.terms.contains { term in
                    switch term {
                    case .condition(let condition):
                        startsWithKeyword(condition.field)
                            || ((condition.op == .lessThan || condition.op == .greaterThan) && condition.value.hasPrefix("="))
                            || (condition.op == .isIn
                                && (condition.value.hasPrefix("STANCEOF") || condition.value.hasPrefix("_HIERARCHY")))
                    case .join(let join): hasAmbiguousSpelling(join.query)
                    case .relatedList(let related): hasAmbiguousSpelling(related.query)
                    case .invalid(let text, _): startsWithKeyword(text)
                    }
                }
            }
        }
    }

    /// Whether `text`, as a term, would read back as a keyword of the syntax.
    static func startsWithKeyword(_ text: String) -> Bool {
        ["OR", "NQ", "RLQUERY", "JOIN"].contains { text.hasPrefix($0) } || text == "EQ" || text == "ENDRLQUERY"
    }
}
