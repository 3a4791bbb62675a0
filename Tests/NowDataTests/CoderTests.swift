import Foundation
import NowData
import Testing

@Suite struct CoderTests {
    struct Stamp: Codable, Equatable {
        var at: Date
    }

    @Test func defaultCoderReadsServiceNowDateTimesInUTC() throws {
        let stamp = try Coder.default.jsonDecoder.decode(Stamp.self, from: Data(#"{"at": "2024-08-01 13:45:30"}"#.utf8))
        #expect(stamp.at == Date(timeIntervalSince1970: 1_722_519_930))
    }

    @Test func defaultCoderReadsDateOnlyFieldsAsMidnightUTC() throws {
        let stamp = try Coder.default.jsonDecoder.decode(Stamp.self, from: Data(#"{"at": "2024-08-01"}"#.utf8))
        #expect(stamp.at == Date(timeIntervalSince1970: 1_722_470_400))
    }

    @Test func defaultCoderWritesServiceNowDateTimes() throws {
        let data = try Coder.default.jsonEncoder.encode(Stamp(at: Date(timeIntervalSince1970: 1_722_519_930.75)))
        #expect(String(decoding: data, as: UTF8.self) == #"{"at":"2024-08-01 13:45:30"}"#)
    }

    @Test(arguments: ["2024-08-01T13:45:30Z", "2024-8-1 1:2:3", " 2024-08-01", "2024-02-30", "2024-13-01 00:00:00", ""])
    func defaultCoderRejectsOtherDateFormats(text: String) throws {
        let error = try #require(throws: DecodingError.self) {
            try Coder.default.jsonDecoder.decode(Stamp.self, from: Data(#"{"at": "\#(text)"}"#.utf8))
        }
        #expect(
            NowDataError.cannotDecodeModel(error).description
                == #"cannot decode model at at: expected a date as yyyy-MM-dd HH:mm:ss or yyyy-MM-dd (UTC), found "\#(text)""#)
    }

    /// The default coder reads dates by hand; it must read them exactly as the `nonISO8601UTC` formatter does:
    /// leap days of the century years, the first Gregorian year, the far future, the days around 1970, and
    /// a date every 97 days from 1583 to 2600.
    @Test func defaultCoderReadsDatesAsTheFormatterDoes() throws {
        let formatter = DateFormatter.nonISO8601UTC
        let edges = [
            "1583-01-01 00:00:00", "1600-02-29 12:00:00", "1700-02-28 23:59:59", "1700-03-01 00:00:00",
            "1900-02-28 06:07:08", "2000-02-29 23:59:59", "2100-03-01 00:00:01", "2400-02-29 00:00:00",
            "1969-12-31 23:59:59", "1970-01-01 00:00:00", "2038-01-19 03:14:08", "9999-12-31 23:59:59",
        ]
        let start = try #require(formatter.date(from: "1583-01-01 00:00:00"))
        let spread = (0..<3_900).map { formatter.string(from: start + Double($0) * (97 * 86_400 + 3_671)) }
        let texts = edges + spread
        let data = try JSONSerialization.data(withJSONObject: texts)
        let decoded = try Coder.default.jsonDecoder.decode([Date].self, from: data)
        #expect(decoded == texts.map { formatter.date(from: $0) })
    }

    /// What the hand reader does not take (years before the Gregorian reform, out-of-range fields) goes to the
    /// formatters, which decide as before.
    @Test(arguments: ["1582-10-20 10:00:00", "0001-01-01 00:00:00", "1200-06-15", "2024-02-29", "2023-02-29 00:00:00",
        "2024-04-31", "2024-06-01 24:00:00", "2024-06-01 23:60:00", "2024-06-01 23:59:60", "2024-00-10"])
    func defaultCoderLeavesOtherDatesToTheFormatter(text: String) throws {
        let formatter = text.count == 10 ? DateFormatter() : DateFormatter.nonISO8601UTC
        if text.count == 10 {
            formatter.calendar = Calendar(identifier: .gregorian)
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd"
        }
        let decoded = try? Coder.default.jsonDecoder.decode(Stamp.self, from: Data(#"{"at": "\#(text)"}"#.utf8))
        #expect(decoded?.at == formatter.date(from: text))
    }

    @Test func theSharedCoderDecodesConcurrently() async throws {
        let data = try Coder.default.jsonEncoder.encode(
            (0..<200).map { Stamp(at: Date(timeIntervalSince1970: Double($0) * 86_461)) })
        let expected = try Coder.default.jsonDecoder.decode([Stamp].self, from: data)
        try await withThrowingTaskGroup(of: [Stamp].self) { group in
            for _ in 0..<8 {
                group.addTask { try Coder.default.jsonDecoder.decode([Stamp].self, from: data) }
            }
            for try await stamps in group {
                #expect(stamps == expected)
            }
        }
    }

    @Test func defaultCoderIsSharedNotRebuilt() {
        #expect(Coder.default.jsonEncoder === Coder.default.jsonEncoder)
        #expect(Coder.default.jsonDecoder === Coder.default.jsonDecoder)
    }

    @Test func nonISO8601UTCFormatterIsFixedToUTCAndPOSIX() {
        let formatter = DateFormatter.nonISO8601UTC
        #expect(formatter.dateFormat == "yyyy-MM-dd HH:mm:ss")
        #expect(formatter.timeZone == TimeZone(identifier: "UTC"))
        #expect(formatter.locale.identifier == "en_US_POSIX")
        #expect(formatter.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01 00:00:00")
    }

    /// The seed's example, pasted: a custom coder with `.formatted(.nonISO8601UTC)`.
    @Test func seedCustomCoderRoundTripsDates() throws {
        let myEncoder = JSONEncoder()
        myEncoder.dateEncodingStrategy = .formatted(.nonISO8601UTC)
        let myDecoder = JSONDecoder()
        myDecoder.dateDecodingStrategy = .formatted(.nonISO8601UTC)

        let myCoder: Coder = .custom(myEncoder, myDecoder)

        #expect(myCoder.jsonEncoder === myEncoder)
        #expect(myCoder.jsonDecoder === myDecoder)
        let stamp = try myCoder.jsonDecoder.decode(Stamp.self, from: Data(#"{"at": "2024-08-01 13:45:30"}"#.utf8))
        #expect(stamp.at == Date(timeIntervalSince1970: 1_722_519_930))
        #expect(String(decoding: try myCoder.jsonEncoder.encode(stamp), as: UTF8.self) == #"{"at":"2024-08-01 13:45:30"}"#)
    }

    @Test func defaultCoderConvertsKeysBetweenSnakeCaseAndCamelCase() throws {
        struct Incident: Codable, Equatable {
            var sysId: String
            var shortDescription: String
        }
        let incident = try Coder.default.jsonDecoder.decode(
            Incident.self, from: Data(#"{"sys_id": "abc", "short_description": "Printer on fire"}"#.utf8))
        #expect(incident == Incident(sysId: "abc", shortDescription: "Printer on fire"))
        let encoder = Coder.default.jsonEncoder
        #expect(
            String(decoding: try encoder.encode(incident), as: UTF8.self)
                == #"{"short_description":"Printer on fire","sys_id":"abc"}"#)
    }

    /// Text with a character of several Unicode scalars (a digit and a combining mark) is no date to a custom
    /// coder's formatter, where Foundation on Linux would trap ("Incorrect range"; found by Fuzz/run.sh dates).
    @Test(arguments: ["12/03/2026 1\u{301}:00", "1\u{301}", "12\u{6DF}\u{FFFD} 23:+0100:"])
    func customCodersReadNoDateFromTextWithCombiningMarks(text: String) throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "dd/MM/yyyy HH:mm"
        let formatted = JSONDecoder()
        formatted.dateDecodingStrategy = .formatted(formatter)
        let iso8601 = JSONDecoder()
        iso8601.dateDecodingStrategy = .iso8601
        #expect(Coder.custom(JSONEncoder(), formatted).date(fromText: text) == nil)
        #expect(Coder.custom(JSONEncoder(), iso8601).date(fromText: text) == nil)
        #expect(Coder.custom(JSONEncoder(), formatted).date(fromText: "12/03/2026 10:00") != nil)
    }

    /// A custom coder decoding a model refuses such text as it refuses any text that is no date, with the same
    /// error and coding path, where Foundation's formatter would trap (found by Fuzz/run.sh decode).
    @Test(arguments: ["1\u{301}", "12/03/2026 1\u{301}:00"])
    func customCodersDecodeNoDateFromTextWithCombiningMarks(text: String) throws {
        struct Stamp: Decodable { let at: Date }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "dd/MM/yyyy HH:mm"
        let formatted = JSONDecoder()
        formatted.dateDecodingStrategy = .formatted(formatter)
        let iso8601 = JSONDecoder()
        iso8601.dateDecodingStrategy = .iso8601
        for decoder in [formatted, iso8601] {
            let coder = Coder.custom(JSONEncoder(), decoder)
            let body = { (value: String) in try JSONEncoder().encode(["result": ["at": value]]) }
            let expected = #expect(throws: DecodingError.self) {
                try coder.decode(Stamp.self, from: body("not a date"), at: "result")
            }
            let refused = #expect(throws: DecodingError.self) {
                try coder.decode(Stamp.self, from: body(text), at: "result")
            }
            guard case .dataCorrupted(let want)? = expected, case .dataCorrupted(let got)? = refused else {
                Issue.record("expected data-corrupted errors, got \(String(describing: expected)) and \(String(describing: refused))")
                continue
            }
            #expect(got.debugDescription == want.debugDescription)
            #expect(got.codingPath.map(\.stringValue) == want.codingPath.map(\.stringValue))
        }
    }
}
