import Foundation
import NowData
import Testing

/// The seed's model, pasted.
struct User: SysIdentifiableModel { var sysId: String = ""; var name: String }

@Suite struct SysIdentifiableModelTests {
    let response = Data(#"{"result": {"sys_id": "5137153cc611227c000bbd1bd8cd2005", "name": "Ash Williams"}}"#.utf8)

    @Test func sysIdMapsToSysIDUnderTheDefaultCoder() throws {
        let user = try Coder.default.jsonDecoder.decode(User.self, from: response, at: Constants.resultPath)
        #expect(user.sysId == "5137153cc611227c000bbd1bd8cd2005")
        #expect(user.name == "Ash Williams")
        let created = User(name: "Ash Williams")
        #expect(String(decoding: try Coder.default.jsonEncoder.encode(created), as: UTF8.self) == #"{"name":"Ash Williams","sys_id":""}"#)
        let updated = User(sysId: "12345", name: "abel")
        #expect(String(decoding: try Coder.default.jsonEncoder.encode(updated), as: UTF8.self) == #"{"name":"abel","sys_id":"12345"}"#)
    }

    @Test func sysIdMapsUnderACustomSnakeCaseCoder() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let coder: Coder = .custom(encoder, decoder)
        let user = try coder.jsonDecoder.decode(User.self, from: response, at: "result")
        #expect(user.sysId == "5137153cc611227c000bbd1bd8cd2005")
        #expect(String(decoding: try coder.jsonEncoder.encode(user), as: UTF8.self).contains(#""sys_id":"5137153cc611227c000bbd1bd8cd2005""#))
    }

    @Test func aCustomCoderWithDefaultKeysNeedsCodingKeys() throws {
        let myDecoder = JSONDecoder()
        myDecoder.dateDecodingStrategy = .formatted(.nonISO8601UTC)
        let error = try #require(throws: DecodingError.self) {
            try myDecoder.decode(User.self, from: response, at: "result")
        }
        #expect(NowDataError.cannotDecodeModel(error).description == "cannot decode model at result: key 'sysId' not found")

        struct MappedUser: SysIdentifiableModel {
            var sysId: String = ""
            var name: String
            enum CodingKeys: String, CodingKey { case sysId = "sys_id", name }
        }
        #expect(try myDecoder.decode(MappedUser.self, from: response, at: "result").sysId == "5137153cc611227c000bbd1bd8cd2005")
    }

    @Test func camelCasePropertiesMatchSnakeCaseFields() throws {
        struct Incident: SysIdentifiableModel {
            var sysId: String = ""
            var shortDescription: String
            var sysUpdatedOn: Date
        }
        let data = Data(#"{"result": {"sys_id": "a1", "short_description": "Printer on fire", "sys_updated_on": "2024-08-01 12:00:00"}}"#.utf8)
        let incident = try Coder.default.jsonDecoder.decode(Incident.self, from: data, at: "result")
        #expect(incident.shortDescription == "Printer on fire")
        #expect(incident.sysUpdatedOn == Date(timeIntervalSince1970: 1_722_513_600))
    }

    @Test func aPropertySpelledInSnakeCaseDoesNotMatchUnderTheDefaultCoder() throws {
        struct Incident: Decodable { var short_description: String }
        let data = Data(#"{"result": {"short_description": "Printer on fire"}}"#.utf8)
        let error = try #require(throws: DecodingError.self) {
            try Coder.default.jsonDecoder.decode(Incident.self, from: data, at: "result")
        }
        #expect(NowDataError.cannotDecodeModel(error).description == "cannot decode model at result: key 'short_description' not found")

        struct Renamed: Decodable {
            var short_description: String
            enum CodingKeys: String, CodingKey { case short_description = "shortDescription" }
        }
        #expect(try Coder.default.jsonDecoder.decode(Renamed.self, from: data, at: "result").short_description == "Printer on fire")
    }
}
