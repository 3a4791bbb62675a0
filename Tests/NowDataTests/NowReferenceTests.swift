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

    @Test func aNumberIsNotAReference() throws {
        let error = try #require(throws: DecodingError.self) { try decode("4") }
        #expect(
            NowDataError.cannotDecodeModel(error).description
                == "cannot decode model at callerId: Expected to decode Dictionary<String, Any> but found number instead.")
    }
}
