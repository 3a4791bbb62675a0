import Foundation
import NowData
import Testing

@Suite struct NowValueTests {
    enum IncidentState: Int, NowValueConvertible, Equatable {
        case new = 1, inProgress = 2, onHold = 3, resolved = 6
    }

    enum Category: String, NowValueConvertible, Equatable {
        case inquiry, software, hardware
    }

    struct Incident: SysIdentifiableModel, Equatable {
        var sysId: String = ""
        var number: String
        @NowValue var priority: Int
        @NowValue var active: Bool
        @NowValue var reassignmentCount: Double
        @NowValue var cost: Decimal
        @NowValue var openedAt: Date
        @NowValue var resolvedAt: Date?
        @NowValue var state: IncidentState
        @NowValue var category: Category?
        @NowValue var documentation: URL?
        @NowValue var callerId: NowReference?
        @NowValue var closeCode: String?
    }

    let incidentJSON = """
        {"sys_id": "9d385017c611228701d22104cc95c371", "number": "INC0010001", "priority": "1", "active": "true",
         "reassignment_count": "2.5", "cost": "1234.50", "opened_at": "2024-08-01 12:00:00", "resolved_at": "",
         "state": "2", "category": "software", "documentation": "https://example.com/kb/1",
         "caller_id": {"link": "https://dev.service-now.com/api/now/table/sys_user/681ccaf9c0a8016400b98a06818d57c7",
                       "value": "681ccaf9c0a8016400b98a06818d57c7"},
         "close_code": ""}
        """

    var incident: Incident {
        Incident(
            sysId: "9d385017c611228701d22104cc95c371", number: "INC0010001", priority: 1, active: true,
            reassignmentCount: 2.5, cost: Decimal(string: "1234.5")!, openedAt: Date(timeIntervalSince1970: 1_722_513_600),
            resolvedAt: nil, state: .inProgress, category: .software, documentation: URL(string: "https://example.com/kb/1"),
            callerId: NowReference(
                value: "681ccaf9c0a8016400b98a06818d57c7",
                link: URL(string: "https://dev.service-now.com/api/now/table/sys_user/681ccaf9c0a8016400b98a06818d57c7")),
            closeCode: nil)
    }

    @Test func decodesTypedPropertiesFromTheTableAPIsStrings() throws {
        let decoded = try Coder.default.jsonDecoder.decode(Incident.self, from: Data(incidentJSON.utf8))
        #expect(decoded == incident)
    }

    @Test func encodesTypedPropertiesBackToStrings() throws {
        let encoded = try Coder.default.jsonEncoder.encode(incident)
        #expect(
            String(decoding: encoded, as: UTF8.self)
                == #"{"active":"true","caller_id":"681ccaf9c0a8016400b98a06818d57c7","category":"software","close_code":"","cost":"1234.5","documentation":"https:\/\/example.com\/kb\/1","number":"INC0010001","opened_at":"2024-08-01 12:00:00","priority":"1","reassignment_count":"2.5","resolved_at":"","state":"2","sys_id":"9d385017c611228701d22104cc95c371"}"#
        )
        #expect(try Coder.default.jsonDecoder.decode(Incident.self, from: encoded).priority == 1)
    }

    @Test func missingKeysAndNullOfOptionalValuesAreNil() throws {
        struct Task: Decodable {
            @NowValue var dueDate: Date?
            @NowValue var priority: Int?
            @NowValue var active: Bool?
        }
        let task = try Coder.default.jsonDecoder.decode(Task.self, from: Data(#"{"priority": null}"#.utf8))
        #expect(task.dueDate == nil)
        #expect(task.priority == nil)
        #expect(task.active == nil)
    }

    @Test func missingKeyOfANonOptionalValueIsAnError() throws {
        struct Task: Decodable { @NowValue var priority: Int }
        let error = try #require(throws: DecodingError.self) {
            try Coder.default.jsonDecoder.decode([Task].self, from: Data("[{}]".utf8))
        }
        #expect(NowDataError.cannotDecodeModel(error).description == "cannot decode model at [0]: key 'priority' not found")
    }

    @Test func aValueThatDoesNotConvertIsCannotDecodeProperty() throws {
        struct Task: Decodable { @NowValue var priority: Int }
        let data = Data(#"{"result": [{"priority": "1"}, {"priority": "high"}]}"#.utf8)
        let error = try #require(throws: DecodingError.self) {
            try Coder.default.jsonDecoder.decode([Task].self, from: data, at: "result")
        }
        #expect(
            NowDataError.cannotDecodeModel(error).description
                == #"cannot decode model at result[1].priority: cannot decode Int from "high""#)
        guard case .dataCorrupted(let context) = error,
            case .cannotDecodeProperty(let type, let string)? = context.underlyingError as? NowDataError
        else {
            Issue.record("expected cannotDecodeProperty under dataCorrupted, got \(error)")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
        #expect(string == "high")
    }

    @Test(arguments: [
        (#"{"active": "yes"}"#, #"cannot decode model at active: cannot decode Bool from "yes""#),
        (#"{"active": ""}"#, #"cannot decode model at active: cannot decode Bool from """#),
        (#"{"active": null}"#, "cannot decode model at active: expected Bool, found null"),
        (#"{"active": ["true"]}"#, "cannot decode model at active: expected a string, a number, a boolean or an object with a 'value'"),
    ])
    func badBooleans(json: String, message: String) throws {
        struct Flag: Decodable { @NowValue var active: Bool }
        let error = try #require(throws: DecodingError.self) {
            try Coder.default.jsonDecoder.decode(Flag.self, from: Data(json.utf8))
        }
        #expect(NowDataError.cannotDecodeModel(error).description == message)
    }

    @Test func badDatesEnumsDecimalsAndURLs() throws {
        struct Row: Decodable {
            @NowValue var openedAt: Date?
            @NowValue var state: IncidentState?
            @NowValue var cost: Decimal?
            @NowValue var documentation: URL?
        }
        let cases = [
            (#"{"opened_at": "01/08/2024"}"#, #"cannot decode model at openedAt: cannot decode Date from "01/08/2024""#),
            (#"{"state": "5"}"#, #"cannot decode model at state: cannot decode IncidentState from "5""#),
            (#"{"cost": "12abc"}"#, #"cannot decode model at cost: cannot decode Decimal from "12abc""#),
        ]
        for (json, message) in cases {
            let error = try #require(throws: DecodingError.self) {
                try Coder.default.jsonDecoder.decode(Row.self, from: Data(json.utf8))
            }
            #expect(NowDataError.cannotDecodeModel(error).description == message)
        }
    }

    @Test func displayValueAllShapeDecodesTheValue() throws {
        struct Row: Decodable, Equatable {
            @NowValue var priority: Int
            @NowValue var openedAt: Date
            @NowValue var closedAt: Date?
            @NowValue var callerId: NowReference?
        }
        let json = """
            {"priority": {"display_value": "1 - Critical", "value": "1"},
             "opened_at": {"display_value": "2024-08-01 05:00:00 PDT", "value": "2024-08-01 12:00:00"},
             "closed_at": {"display_value": "", "value": ""},
             "caller_id": {"display_value": "Abel Tuter", "value": "681ccaf9", "link": "https://x/api/now/table/sys_user/681ccaf9"}}
            """
        let row = try Coder.default.jsonDecoder.decode(Row.self, from: Data(json.utf8))
        #expect(row.priority == 1)
        #expect(row.openedAt == Date(timeIntervalSince1970: 1_722_513_600))
        #expect(row.closedAt == nil)
        #expect(row.callerId?.displayValue == "Abel Tuter")
        let bad = try #require(throws: DecodingError.self) {
            try Coder.default.jsonDecoder.decode(
                Row.self, from: Data(#"{"priority": {"display_value": "High", "value": "x"}, "opened_at": ""}"#.utf8))
        }
        #expect(NowDataError.cannotDecodeModel(bad).description == #"cannot decode model at priority.value: cannot decode Int from "x""#)
    }

    @Test func nativeJSONNumbersAndBooleansAreAcceptedToo() throws {
        struct Row: Decodable {
            @NowValue var priority: Int
            @NowValue var active: Bool
            @NowValue var score: Double
        }
        let row = try JSONDecoder().decode(Row.self, from: Data(#"{"priority": 4, "active": true, "score": 0.5}"#.utf8))
        #expect(row.priority == 4)
        #expect(row.active)
        #expect(row.score == 0.5)
    }

    @Test func datesGoThroughTheDecodersOwnStrategy() throws {
        struct Event: Codable { @NowValue var startsAt: Date }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let event = try decoder.decode(Event.self, from: Data(#"{"startsAt": "2026-06-28T14:30:00Z"}"#.utf8))
        #expect(event.startsAt == Date(timeIntervalSince1970: 1_782_657_000))
        let error = try #require(throws: DecodingError.self) {
            try decoder.decode(Event.self, from: Data(#"{"startsAt": "2026-06-28 14:30:00"}"#.utf8))
        }
        #expect(
            NowDataError.cannotDecodeModel(error).description
                == #"cannot decode model at startsAt: cannot decode Date from "2026-06-28 14:30:00""#)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        #expect(String(decoding: try encoder.encode(event), as: UTF8.self) == #"{"startsAt":"2026-06-28T14:30:00Z"}"#)
    }

    @Test func aPlainDecoderReadsServiceNowDates() throws {
        struct Event: Decodable { @NowValue var startsAt: Date }
        let event = try JSONDecoder().decode(Event.self, from: Data(#"{"startsAt": "2026-06-28 14:30:00"}"#.utf8))
        #expect(event.startsAt == Date(timeIntervalSince1970: 1_782_657_000))
    }

    @Test func wrappedPropertiesKeepTheMemberwiseInitializerAndDefaults() {
        struct Draft: Encodable {
            var shortDescription: String
            @NowValue var urgency: Int = 3
            @NowValue var active: Bool = true
        }
        let draft = Draft(shortDescription: "Printer on fire")
        #expect(draft.urgency == 3)
        #expect(draft.active)
    }

    @Test func conversionsOfTheStandardTypes() {
        #expect(Bool(nowValue: "1") == true)
        #expect(Bool(nowValue: "0") == false)
        #expect(Int(nowValue: "4.0") == nil)
        #expect(Int?(nowValue: "") == .some(nil))
        #expect(Int?(nowValue: "x") == nil)
        #expect(Double(nowValue: "-1.25") == -1.25)
        #expect(Date(nowValue: "1970-01-01 00:01:00") == Date(timeIntervalSince1970: 60))
        #expect(Date(timeIntervalSince1970: 60).nowValue == "1970-01-01 00:01:00")
        #expect(IncidentState(nowValue: "6") == .resolved)
        #expect(IncidentState.onHold.nowValue == "3")
        #expect(Category(nowValue: "hardware") == .hardware)
        #expect(URL(nowValue: "") == nil)
        #expect(Decimal(nowValue: "0.10")?.nowValue == "0.1")
    }
}
