// ServiceNow date and date-time text everywhere it is parsed: NowData's fast parser (differential against
// DateFormatter, and printing back to the same text), Coder's date seam, a model decoded by custom coders (a
// formatter's pattern, ISO 8601), a job's dates (its own pattern and ISO 8601, in a zone), the `javascript:gs.*`
// date helpers of encoded queries, a Retry-After date, the local instance's display of a stored date in a user's
// format and zone, and the instance's own reading of a date written to a date-time field and compared in a query
// (a well-formed answer, never a crash).
import Foundation
import FuzzInstance
import FuzzSupport
@testable import LocalInstance
@testable import NowData
@testable import NowFlow

@main
enum FuzzDates {
    nonisolated(unsafe) static var instance: FuzzInstance?

    static let paris = TimeZone(identifier: "Europe/Paris") ?? .gmt
    static let jobDates = [
        JobDates(CoderSettings(dates: .pattern("dd/MM/yyyy HH:mm"), timezone: "Europe/Paris"), zoneName: "Europe/Paris"),
        JobDates(CoderSettings(dates: .iso8601, timezone: "UTC"), zoneName: "America/New_York"),
        JobDates(CoderSettings(), zoneName: "UTC"),
    ]
    static let display = UserDateDisplay(timeZone: "Europe/Paris", dateFormat: "dd.MM.yyyy", systemTimeZone: .gmt)
    static let webValues = WebValues(dictionary: .builtIn, timeZone: paris)
    /// Custom coders as the SDK's documentation shows them: a formatter's pattern, and ISO 8601.
    static let customCoders: [Coder] = [JSONDecoder.DateDecodingStrategy.formatted(.nonISO8601UTC), .iso8601].map {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = $0
        return Coder.custom(JSONEncoder(), decoder)
    }

    /// A record with one date, as a model reads it.
    struct Stamp: Decodable {
        let at: Date
    }

    static func main() {
        instance = FuzzInstance()
        Fuzzer.run { start, count in
            let text = Fuzzer.text(start, count)
            FuzzDates.checkServiceNowDate(text)
            _ = Coder.default.date(fromText: text)
            _ = ServiceNowDateKind(text: text)
            if let body = try? JSONEncoder().encode(["at": text]) {
                for coder in FuzzDates.customCoders { _ = try? coder.decode(Stamp.self, from: body) }
            }
            for dates in FuzzDates.jobDates {
                _ = dates.date(fromText: text)
                _ = dates.outgoing(text)
                _ = dates.incoming(.string(text))
                _ = dates.shown(.string(text))
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = FuzzDates.paris
            _ = QueryDateHelper(text)?.date(now: Date(), calendar: calendar)
            _ = RequestPipeline.requestedDelay(in: NowHTTPResponse(statusCode: 429, headers: ["Retry-After": text]))
            _ = FuzzDates.display.display(text, type: .dateTime)
            _ = FuzzDates.display.display(text, type: .date)
            _ = FuzzDates.webValues.time(text)
            FuzzDates.sendToInstance(text)
            return 0
        }
    }

    /// Traps when NowData's parser and DateFormatter disagree on a text DateFormatter prints back as itself, or
    /// when a date the parser reads does not print back as its text.
    static func checkServiceNowDate(_ text: String) {
        let fast = ServiceNowDate.date(from: text)
        let hasTime = text.utf8.count == 19
        let formatter = hasTime ? DateFormatter.nonISO8601UTC : DateFormatter.nonISO8601DateOnlyUTC
        if let fast {
            guard formatter.string(from: fast) == text else {
                fatalError("'\(text)' reads as \(fast), which prints as '\(formatter.string(from: fast))'")
            }
        } else if text.utf8.count == 19 || text.utf8.count == 10, let slow = formatter.date(from: text),
            formatter.string(from: slow) == text
        {
            fatalError("'\(text)' is refused, but DateFormatter reads it as \(slow)")
        }
    }

    /// The text written to the incident's `opened_at` and compared with it in a query, as JSON strings and query
    /// values.
    static func sendToInstance(_ text: String) {
        let json = JSONValue(dictionaryLiteral: ("opened_at", .string(text))).jsonData()
        instance?.answer(
            NowHTTPRequest(
                method: "PATCH", path: "/api/now/table/incident/\(FuzzInstance.incidentID)",
                headers: ["Authorization": FuzzInstance.adminAuthorization, "Content-Type": "application/json"],
                body: json))
        instance?.answer(
            NowHTTPRequest(
                method: "GET", path: "/api/now/table/incident",
                queryItems: [
                    URLQueryItem(name: "sysparm_query", value: "opened_at<=\(text)^ORopened_atON\(text)"),
                    URLQueryItem(name: "sysparm_display_value", value: "true"),
                ],
                headers: ["Authorization": "Basic YmV0aDpiZXRo"]))
    }
}
