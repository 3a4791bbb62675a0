import Foundation
import NowData
import Testing

/// The examples of docs/sdk.md, verbatim, each followed by checks of what its comments say.
@Suite struct DocumentationExamplesTests {
    @Test func defaultCoder() throws {
        struct Stamp: Codable { var openedAt: Date }
        let data = Data(#"{"opened_at": "2024-08-01 12:00:00"}"#.utf8)
        let stamp = try Coder.default.jsonDecoder.decode(Stamp.self, from: data)
        // stamp.openedAt is 2024-08-01 12:00:00 UTC, on every device
        let json = try Coder.default.jsonEncoder.encode(stamp)
        // {"opened_at":"2024-08-01 12:00:00"}

        #expect(stamp.openedAt == Date(timeIntervalSince1970: 1_722_513_600))
        #expect(String(decoding: json, as: UTF8.self) == #"{"opened_at":"2024-08-01 12:00:00"}"#)
    }

    @Test func dateOnlyAndBadDates() throws {
        struct Task: Decodable { var dueDate: Date }
        let task = try Coder.default.jsonDecoder.decode(Task.self, from: Data(#"{"due_date": "2024-08-02"}"#.utf8))
        // task.dueDate is 2024-08-02 00:00:00 UTC
        do {
            _ = try Coder.default.jsonDecoder.decode(Task.self, from: Data(#"{"due_date": "02/08/2024"}"#.utf8))
        } catch let error as DecodingError {
            print(NowDataError.cannotDecodeModel(error))
            // cannot decode model at dueDate: expected a date as yyyy-MM-dd HH:mm:ss or yyyy-MM-dd (UTC), found "02/08/2024"
        }

        #expect(task.dueDate == Date(timeIntervalSince1970: 1_722_556_800))
        let printed = try #require(throws: DecodingError.self) {
            try Coder.default.jsonDecoder.decode(Task.self, from: Data(#"{"due_date": "02/08/2024"}"#.utf8))
        }
        #expect(
            "\(NowDataError.cannotDecodeModel(printed))"
                == #"cannot decode model at dueDate: expected a date as yyyy-MM-dd HH:mm:ss or yyyy-MM-dd (UTC), found "02/08/2024""#)
    }

    @Test func customCoder() throws {
        let myEncoder = JSONEncoder()
        myEncoder.dateEncodingStrategy = .formatted(.nonISO8601UTC)
        myEncoder.keyEncodingStrategy = .convertToSnakeCase
        let myDecoder = JSONDecoder()
        myDecoder.dateDecodingStrategy = .formatted(.nonISO8601UTC)
        myDecoder.keyDecodingStrategy = .convertFromSnakeCase

        let myCoder: Coder = .custom(myEncoder, myDecoder)

        #expect(myCoder.jsonDecoder === myDecoder)
        #expect(myCoder.jsonEncoder === myEncoder)
    }

    @Test func pathDecoding() throws {
        struct User: Decodable { var name: String }
        let data = Data(#"{ "result": [ { "name": "Ash Williams" }, { "name": "Lionel Cosgrove" } ] }"#.utf8)
        let decoder = Coder.default.jsonDecoder
        let users = try decoder.decode([User].self, from: data, at: Constants.resultPath)  // both users
        let second = try decoder.decode(User.self, from: data, at: "result.1")            // Lionel Cosgrove
        let name = try decoder.decode(String.self, from: data, at: "result.0.name")       // "Ash Williams"
        do {
            _ = try decoder.decode([User].self, from: data, at: "result.2")
        } catch let error as DecodingError {
            print(NowDataError.cannotDecodeModel(error))
            // cannot decode model: no value at 'result.2' in path 'result.2': index 2 out of range (2 elements)
        }

        #expect(users.map(\.name) == ["Ash Williams", "Lionel Cosgrove"])
        #expect(second.name == "Lionel Cosgrove")
        #expect(name == "Ash Williams")
        let printed = try #require(throws: DecodingError.self) { try decoder.decode([User].self, from: data, at: "result.2") }
        #expect(
            "\(NowDataError.cannotDecodeModel(printed))"
                == "cannot decode model: no value at 'result.2' in path 'result.2': index 2 out of range (2 elements)")
    }

    @Test func models() throws {
        enum IncidentState: Int, NowValueConvertible { case new = 1, inProgress = 2, onHold = 3, resolved = 6 }

        struct Incident: SysIdentifiableModel {
            var sysId: String = ""
            var number: String
            var shortDescription: String
            @NowValue var priority: Int
            @NowValue var active: Bool
            @NowValue var state: IncidentState
            @NowValue var openedAt: Date
            @NowValue var resolvedAt: Date?
            @NowValue var callerId: NowReference?
        }

        let data = Data(#"""
            {"result": {"sys_id": "9d385017c611228701d22104cc95c371", "number": "INC0010001",
                        "short_description": "Printer on fire", "priority": "1", "active": "true", "state": "2",
                        "opened_at": "2024-08-01 12:00:00", "resolved_at": "",
                        "caller_id": {"link": "https://dev.service-now.com/api/now/table/sys_user/681ccaf9c0a8016400b98a06818d57c7",
                                      "value": "681ccaf9c0a8016400b98a06818d57c7"}}}
            """#.utf8)
        var incident = try Coder.default.jsonDecoder.decode(Incident.self, from: data, at: "result")
        // incident.priority == 1, incident.state == .inProgress, incident.resolvedAt == nil,
        // incident.callerId?.value == "681ccaf9c0a8016400b98a06818d57c7"
        incident.state = .resolved
        let body = try Coder.default.jsonEncoder.encode(incident)
        // {"active":"true","caller_id":"681ccaf9c0a8016400b98a06818d57c7","number":"INC0010001","opened_at":"2024-08-01 12:00:00",
        //  "priority":"1","resolved_at":"","short_description":"Printer on fire","state":"6","sys_id":"9d385017c611228701d22104cc95c371"}

        #expect(incident.priority == 1)
        #expect(incident.active)
        #expect(incident.resolvedAt == nil)
        #expect(incident.callerId?.value == "681ccaf9c0a8016400b98a06818d57c7")
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"active":"true","caller_id":"681ccaf9c0a8016400b98a06818d57c7","number":"INC0010001","opened_at":"2024-08-01 12:00:00","priority":"1","resolved_at":"","short_description":"Printer on fire","state":"6","sys_id":"9d385017c611228701d22104cc95c371"}"#
        )
    }

    @Test func badValue() throws {
        struct Task: Decodable { @NowValue var priority: Int }
        do {
            _ = try Coder.default.jsonDecoder.decode([Task].self, from: Data(#"{"result": [{"priority": "high"}]}"#.utf8), at: "result")
        } catch let error as DecodingError {
            print(NowDataError.cannotDecodeModel(error))
            // cannot decode model at result[0].priority: cannot decode Int from "high"
            if case .dataCorrupted(let context) = error, let property = context.underlyingError as? NowDataError {
                print(property)  // cannot decode Int from "high" (the case is .cannotDecodeProperty(type: Int.self, from: "high"))
            }
        }
    }

    @Test func references() throws {
        struct Row: Decodable { var callerId: NowReference }
        let shapes = [
            #"{"caller_id": {"link": "https://dev.service-now.com/api/now/table/sys_user/681ccaf9", "value": "681ccaf9"}}"#,
            #"{"caller_id": "681ccaf9"}"#,
            #"{"caller_id": {"display_value": "Abel Tuter", "value": "681ccaf9", "link": "https://dev.service-now.com/api/now/table/sys_user/681ccaf9"}}"#,
        ]
        for shape in shapes {
            let row = try Coder.default.jsonDecoder.decode(Row.self, from: Data(shape.utf8))
            print(row.callerId.value, row.callerId.displayValue ?? "-")  // 681ccaf9 and, with display values, Abel Tuter
        }

        let values = try shapes.map { try Coder.default.jsonDecoder.decode(Row.self, from: Data($0.utf8)).callerId.value }
        #expect(values == ["681ccaf9", "681ccaf9", "681ccaf9"])
    }

    @Test func records() throws {
        let data = Data(#"""
            {"result": [{"sys_id": "9d385017c611228701d22104cc95c371", "number": "INC0010001",
                         "priority": {"display_value": "1 - Critical", "value": "1"},
                         "opened_at": {"display_value": "2024-08-01 05:00:00", "value": "2024-08-01 12:00:00"},
                         "caller_id": {"display_value": "Abel Tuter", "value": "681ccaf9c0a8016400b98a06818d57c7",
                                       "link": "https://dev.service-now.com/api/now/table/sys_user/681ccaf9c0a8016400b98a06818d57c7"}}]}
            """#.utf8)
        let records: [NowRecord] = data.convertToRecords()
        let record = records[0]
        let sysId = record.sysId                       // "9d385017c611228701d22104cc95c371"
        let number = record["number"]                  // "INC0010001"
        let priority = record.int("priority")          // 1
        let priorityText = record.displayValue("priority")  // "1 - Critical"
        let openedAt = record.date("opened_at")        // 2024-08-01 12:00:00 UTC
        let caller = record.reference("caller_id")     // "681ccaf9c0a8016400b98a06818d57c7"
        let callerName = record.displayValue("caller_id")  // "Abel Tuter"

        let nothing = Data("<html>".utf8).convertToRecord()  // an empty record: nothing.isEmpty
        do {
            _ = try NowRecord(data: Data("<html>".utf8))
        } catch {
            print(error)  // cannot parse the response: it is not the JSON the Table API sends
        }

        #expect(sysId == "9d385017c611228701d22104cc95c371")
        #expect(number == "INC0010001")
        #expect(priority == 1)
        #expect(priorityText == "1 - Critical")
        #expect(openedAt == Date(timeIntervalSince1970: 1_722_513_600))
        #expect(caller == "681ccaf9c0a8016400b98a06818d57c7")
        #expect(callerName == "Abel Tuter")
        #expect(nothing.isEmpty)
        #expect("\(try #require(throws: NowDataError.self) { try NowRecord(data: Data("<html>".utf8)) })" == "cannot parse the response: it is not the JSON the Table API sends")
    }

    @Test func configurations() throws {
        let writeOptions: FieldWriteOptions = [.suppressAutoSysField, .treatInputValuesAsDisplayValues]
        // sysparm_input_display_value=true, sysparm_suppress_auto_sys_field=true

        let readConfig = FieldReadConfiguration(includeFields: ["number", "short_description"], options: [.displayValues])
        // sysparm_fields=number,short_description, sysparm_display_value=true

        let config = FetchConfiguration(Filter(query: "active=true^ORDERBYDESCopened_at"), 50, readConfig)
        // sysparm_query=active=true^ORDERBYDESCopened_at, sysparm_limit=50,
        // sysparm_fields=number,short_description, sysparm_display_value=true

        let fields: [FieldName: FieldValue] = [
            "short_description": "Printer on fire", "urgency": 2, "active": true,
            "due_date": .date(Date(timeIntervalSince1970: 1_722_513_600)), "close_notes": nil,
        ]
        // sent as strings: "Printer on fire", "2", "true", "2024-08-01 12:00:00", ""

        #expect(writeOptions.queryItems.map { "\($0.name)=\($0.value ?? "")" } == ["sysparm_input_display_value=true", "sysparm_suppress_auto_sys_field=true"])
        #expect(readConfig.queryItems.map { "\($0.name)=\($0.value ?? "")" } == ["sysparm_fields=number,short_description", "sysparm_display_value=true"])
        #expect(
            config.queryItems.map { "\($0.name)=\($0.value ?? "")" } == [
                "sysparm_query=active=true^ORDERBYDESCopened_at", "sysparm_limit=50", "sysparm_fields=number,short_description",
                "sysparm_display_value=true",
            ])
        #expect(fields.mapValues(\.stringValue) == [
            "short_description": "Printer on fire", "urgency": "2", "active": "true", "due_date": "2024-08-01 12:00:00", "close_notes": "",
        ])
    }

    @Test func errors() throws {
        let body = Data(#"{"error": {"message": "No Record found", "detail": "Record doesn't exist or ACL restricts the record retrieval"}, "status": "failure"}"#.utf8)
        let error = NowDataError.badResponse(
            statusCode: HTTPStatusCode(code: 404, responseBody: body, method: "GET", path: "/api/now/table/incident/abc"))
        print(error)
        // bad response 404 from GET /api/now/table/incident/abc: No Record found (Record doesn't exist or ACL restricts the record retrieval)
        let status = error.statusCode     // 404
        let message = error.serverMessage  // "No Record found"
        let detail = error.serverDetail    // "Record doesn't exist or ACL restricts the record retrieval"

        switch error {
        case .badResponse(statusCode: 404): print("already gone")
        case .badResponse(statusCode: 401), .accessToken: print("sign in again")
        default: print(error)
        }

        #expect(error.description == "bad response 404 from GET /api/now/table/incident/abc: No Record found (Record doesn't exist or ACL restricts the record retrieval)")
        #expect(status == 404)
        #expect(message == "No Record found")
        #expect(detail == "Record doesn't exist or ACL restricts the record retrieval")
    }
}
