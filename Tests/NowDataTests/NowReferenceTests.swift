import Foundation
import NowData
import Testing

@Suite struct NowReferenceTests {
    struct Incident: Codable, Equatable {
        var callerId: NowReference
    }

    let sysID = "681ccaf9c0a8016400b98a06818d57c7"
    let link = "https://dev.service-now.com/api/now/table/sys_user/681ccaf9c0a8016400b98a06818d57c7"

    func decode(_ field: String) throws -> NowReference {
        try Coder.default.jsonDecoder.decode(Incident.self, from: Data(#"{"caller_id": \#(field)}"#.utf8)).callerId
    }

    @Test func linkAndValue() throws {
        #expect(try decode(#"{"link": "\#(link)", "value": "\#(sysID)"}"#) == NowReference(value: sysID, link: URL(string: link)))
    }

    @Test func plainSysIDWithExcludeReferenceLink() throws {
        #expect(try decode(#""\#(sysID)""#) == NowReference(value: sysID))
    }

    @Test func displayValueAll() throws {
        let reference = try decode(#"{"display_value": "Abel Tuter", "value": "\#(sysID)", "link": "\#(link)"}"#)
        #expect(reference == NowReference(value: sysID, displayValue: "Abel Tuter", link: URL(string: link)))
        #expect(reference.description == "\(sysID) (Abel Tuter)")
    }

    @Test func displayValueTrueReadsTheSysIDFromTheLink() throws {
        let reference = try decode(#"{"display_value": "Abel Tuter", "link": "\#(link)"}"#)
        #expect(reference == NowReference(value: sysID, displayValue: "Abel Tuter", link: URL(string: link)))
    }

    @Test func encodesAsTheSysIDString() throws {
        let incident = Incident(callerId: NowReference(value: sysID, displayValue: "Abel Tuter", link: URL(string: link)))
        #expect(String(decoding: try Coder.default.jsonEncoder.encode(incident), as: UTF8.self) == #"{"caller_id":"\#(sysID)"}"#)
    }

    @Test func emptyReferenceIsNilThroughNowValue() throws {
        struct Task: Decodable {
            @NowValue var assignedTo: NowReference?
            @NowValue var assignmentGroup: NowReference?
        }
        let task = try Coder.default.jsonDecoder.decode(Task.self, from: Data(#"{"assigned_to": ""}"#.utf8))
        #expect(task.assignedTo == nil)
        #expect(task.assignmentGroup == nil)
    }

    /// The reference shapes, and what both `NowReference` and `NowRecord.Field` read from each.
    static let shapes: [(json: String, reference: NowReference)] = {
        let sysID = "681ccaf9c0a8016400b98a06818d57c7"
        let link = "https://dev.service-now.com/api/now/table/sys_user/\(sysID)"
        return [
            (#"{"link": "\#(link)", "value": "\#(sysID)"}"#, NowReference(value: sysID, link: URL(string: link))),
            (#""\#(sysID)""#, NowReference(value: sysID)),
            (
                #"{"display_value": "Abel Tuter", "link": "\#(link)"}"#,
                NowReference(value: sysID, displayValue: "Abel Tuter", link: URL(string: link))
            ),
            (
                #"{"display_value": "Abel Tuter", "value": "\#(sysID)", "link": "\#(link)"}"#,
                NowReference(value: sysID, displayValue: "Abel Tuter", link: URL(string: link))
            ),
            (#"{"display_value": "Abel Tuter", "value": "\#(sysID)"}"#, NowReference(value: sysID, displayValue: "Abel Tuter")),
            // Links Foundation does not parse (a bracketed host left open, a port that is not a number): the sys_id
            // is the last segment of the path, read as text.
            (
                #"{"display_value": "Abel Tuter", "link": "https://[dev.service-now.com/api/now/table/sys_user/\#(sysID)"}"#,
                NowReference(value: sysID, displayValue: "Abel Tuter")
            ),
            (
                #"{"display_value": "Abel Tuter", "link": "https://dev.service-now.com:port/api/now/table/sys_user/\#(sysID)/?x=1#top"}"#,
                NowReference(value: sysID, displayValue: "Abel Tuter")
            ),
            (#"{"display_value": "", "link": ""}"#, NowReference(value: "", displayValue: "")),
            (#""""#, NowReference(value: "")),
        ]
    }()

    @Test(arguments: 0..<shapes.count)
    func referencesReadTheSameWayInModelsAndRecords(shape: Int) throws {
        let (json, expected) = Self.shapes[shape]
        let data = Data(#"{"caller_id": \#(json)}"#.utf8)
        #expect(try Coder.default.decode(Incident.self, from: data).callerId == expected)
        let custom = Coder.custom(JSONEncoder(), JSONDecoder())
        struct Row: Decodable { var caller_id: NowReference }
        #expect(try custom.decode(Row.self, from: data).caller_id == expected)
        let field = try #require(try NowRecord(data: data).fields["caller_id"])
        #expect(NowRecord.Field(value: expected.value, displayValue: expected.displayValue, link: expected.link) == field)
    }

    @Test func aNumberIsNotAReference() throws {
        let error = try #require(throws: DecodingError.self) { try decode("4") }
        #expect(
            NowDataError.cannotDecodeModel(error).description
                == "cannot decode model at callerId: Expected to decode Dictionary<String, Any> but found number instead.")
    }
}
