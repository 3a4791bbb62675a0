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
}
