import Foundation
import NowData
import Testing

/// Responses in the shapes ServiceNow documents (the Change Management API, the CMDB Instance API, the Table API's
/// display-value modes, dot-walked fields, error bodies, journal fields, long HTML values), each read into
/// `NowRecord` and, where a model is natural, into one.
@Suite struct RecordShapeTests {
    // MARK: - Change Management API

    /// `GET /api/sn_chg_rest/change?sysparm_query=active=true^ORDERBYnumber`: every field as
    /// `{"display_value", "value"}` (dates with `display_value_internal`, numbers and booleans unquoted), and a
    /// trailing metadata element.
    let changes = Data(
        #"""
        {"result": [
          {"sys_id": {"display_value": "1766f1de47410200e90d87e8dee490f6", "value": "1766f1de47410200e90d87e8dee490f6"},
           "number": {"display_value": "CHG0000024", "value": "CHG0000024"},
           "type": {"display_value": "Standard", "value": "standard"},
           "state": {"display_value": "Closed", "value": 3.0},
           "impact": {"display_value": "3 - Low", "value": 3.0},
           "is_bulk": {"display_value": "false", "value": false},
           "sys_updated_on": {"display_value": "2015-07-06 11:59:27", "value": "2015-07-06 18:59:27",
                              "display_value_internal": "2015-07-06 11:59:27"},
           "assignment_group": {"display_value": "Network", "value": "287ebd7da9fe198100f92cc8d1d2154e"},
           "requested_by_date": {"display_value": "", "value": "", "display_value_internal": ""}},
          {"sys_id": {"display_value": "a9e30c7dc61122760116894de7bcc7bd", "value": "a9e30c7dc61122760116894de7bcc7bd"},
           "number": {"display_value": "CHG0000025", "value": "CHG0000025"},
           "type": {"display_value": "Normal", "value": "normal"},
           "state": {"display_value": "New", "value": -5.0},
           "impact": {"display_value": "2 - Medium", "value": 2.0},
           "is_bulk": {"display_value": "true", "value": true},
           "sys_updated_on": {"display_value": "2015-07-07 08:00:00", "value": "2015-07-07 15:00:00",
                              "display_value_internal": "2015-07-07 08:00:00"},
           "assignment_group": {"display_value": "", "value": ""},
           "requested_by_date": {"display_value": "", "value": "", "display_value_internal": ""}},
          {"__meta": {"encodedQuery": "active=true^ORDERBYnumber",
                      "fields": {"applied": [], "ignored": ["sysparm_display_value"]}}}
        ]}
        """#.utf8)

    @Test func changeManagementListSkipsItsMetadataElement() throws {
        let records = changes.convertToRecords()
        #expect(records.map { $0["number"] } == ["CHG0000024", "CHG0000025"])
        let first = try #require(records.first)
        #expect(first.sysId == "1766f1de47410200e90d87e8dee490f6")
        // A number keeps the text it was sent as: the Change Management API sends `3.0`.
        #expect(first["state"] == "3.0")
        #expect(first.double("state") == 3)
        #expect(first.displayValue("state") == "Closed")
        #expect(first.bool("is_bulk") == false)
        #expect(records[1].bool("is_bulk") == true)
        #expect(records[1]["state"] == "-5.0")
        #expect(first.date("sys_updated_on") == Date(timeIntervalSince1970: 1_436_209_167))
        #expect(first.displayValue("sys_updated_on") == "2015-07-06 11:59:27")
        #expect(try first.value(at: "sys_updated_on.display_value_internal") == "2015-07-06 11:59:27")
        #expect(first.reference("assignment_group") == "287ebd7da9fe198100f92cc8d1d2154e")
        #expect(records[1].reference("assignment_group") == nil)
        #expect(first.value("requested_by_date") == "")

        let page = try NowRecords(data: changes)
        #expect(page.records == records)
        #expect(page.skipped.map(\.description) == ["result[2]: not a record: it holds only metadata ('__meta')"])
        let skipped = try #require(page.skipped.first)
        #expect(skipped.index == 2)
        #expect(skipped.reason == .metadata(keys: ["__meta"]))
        #expect(try skipped.element.value(at: "__meta.encodedQuery") == "active=true^ORDERBYnumber")

        let error = try #require(throws: NowDataError.self) { try NowRecord.records(from: changes) }
        #expect(error.description == "cannot decode model at result[2]: not a record: it holds only metadata ('__meta')")
        #expect(try NowRecord(data: changes) == first)
    }

    @Test func changeManagementListIntoAModel() throws {
        struct Change: Decodable, Equatable {
            @NowValue var number: String
            @NowValue var impact: Double
            @NowValue var isBulk: Bool
            @NowValue var sysUpdatedOn: Date
        }
        let error = try #require(throws: DecodingError.self) {
            try Coder.default.decode([Change].self, from: changes, at: "result")
        }
        #expect(NowDataError.cannotDecodeModel(error).description == "cannot decode model at result[2]: key 'number' not found")

        let page = try NowRecords(data: changes)
        let models = try page.records.map { try Coder.default.decode(Change.self, from: JSONValue.object($0.json).jsonData()) }
        #expect(models.map(\.number) == ["CHG0000024", "CHG0000025"])
        #expect(models.map(\.impact) == [3, 2])
        #expect(models.map(\.isBulk) == [false, true])
        #expect(models[0].sysUpdatedOn == Date(timeIntervalSince1970: 1_436_209_167))
    }

    // MARK: - CMDB Instance API

    /// `GET /api/now/cmdb/instance/cmdb_ci_linux_server/3a290cc60a0a0bb400000bdb386af1cf`: the CI's fields under
    /// `attributes` (one of which is itself named `attributes`), its relations in arrays.
    let linuxServer = Data(
        #"""
        {"result": {
          "outbound_relations": [
            {"sys_id": "3a62e64ac0a8ce0100aead1e3fd5439f",
             "type": {"display_value": "Depends on::Used by",
                      "link": "https://instance.servicenow.com/api/now/table/cmdb_rel_type/1a9cb166f1571100a92eb60da2bce5c5",
                      "value": "1a9cb166f1571100a92eb60da2bce5c5"},
             "target": {"display_value": "PS ORA01",
                        "link": "https://instance.servicenow.com/api/now/cmdb/instance/cmdb_ci/3a307c930a0a0bb400353965d0b8861f",
                        "value": "3a307c930a0a0bb400353965d0b8861f"}},
            {"sys_id": "3a67513fc0a8ce0100914a76cea11b02",
             "type": {"display_value": "Exchanges data with::Exchanges data with",
                      "link": "https://instance.servicenow.com/api/now/table/cmdb_rel_type/607ad1b2c0a8010e01941856b365af90",
                      "value": "607ad1b2c0a8010e01941856b365af90"},
             "target": {"display_value": "PS ORA01",
                        "link": "https://instance.servicenow.com/api/now/cmdb/instance/cmdb_ci/3a307c930a0a0bb400353965d0b8861f",
                        "value": "3a307c930a0a0bb400353965d0b8861f"}}
          ],
          "attributes": {
            "sys_id": "3a290cc60a0a0bb400000bdb386af1cf",
            "name": "PS LinuxApp01",
            "sys_class_name": "cmdb_ci_linux_server",
            "cpu_speed": "2800",
            "ram": "2048",
            "cost": "45557.5",
            "virtual": "false",
            "install_date": "2019-08-18 08:00:00",
            "attributes": "",
            "support_group": "",
            "managed_by": {"display_value": "Lynda Caraway",
                           "link": "https://instance.service-now.com/api/now/table/sys_user/8a826bf03710200044e0bfc8bcbe5d72",
                           "value": "8a826bf03710200044e0bfc8bcbe5d72"},
            "sys_domain": {"display_value": "global",
                           "link": "https://instance.servicenow.com/api/now/table/sys_user_group/global",
                           "value": "global"}
          },
          "inbound_relations": [
            {"sys_id": "3a5e4d8ac0a8ce010005145afb730818",
             "type": {"display_value": "Depends on::Used by",
                      "link": "https://instance.servicenow.com/api/now/table/cmdb_rel_type/1a9cb166f1571100a92eb60da2bce5c5",
                      "value": "1a9cb166f1571100a92eb60da2bce5c5"},
             "target": {"display_value": "PS Apache01",
                        "link": "https://instance.servicenow.com/api/now/cmdb/instance/cmdb_ci/3a27d4370a0a0bb4006316812bf45439",
                        "value": "3a27d4370a0a0bb4006316812bf45439"}}
          ]
        }}
        """#.utf8)

    @Test func cmdbInstanceRecordKeepsItsNestedValues() throws {
        let record = try NowRecord(data: linuxServer)
        #expect(!record.isEmpty)
        #expect(record.fields.isEmpty)
        #expect(record.json.keys == ["outbound_relations", "attributes", "inbound_relations"])
        #expect(
            record.description
                == "NowRecord(attributes: {12 members}, inbound_relations: [1 element], outbound_relations: [2 elements])")
        #expect(try record.value(at: "attributes.name") == "PS LinuxApp01")
        #expect(try record.value(at: "outbound_relations.1.type.display_value") == "Exchanges data with::Exchanges data with")
        #expect(linuxServer.convertToRecord() == record)
        #expect(linuxServer.convertToRecords() == [record])

        let ci = try NowRecord(record.value(at: "attributes"))
        #expect(ci.sysId == "3a290cc60a0a0bb400000bdb386af1cf")
        #expect(ci.int("cpu_speed") == 2800)
        #expect(ci.double("cost") == 45557.5)
        #expect(ci.bool("virtual") == false)
        #expect(ci.date("install_date") == Date(timeIntervalSince1970: 1_566_115_200))
        #expect(ci["attributes"] == "")
        #expect(ci.reference("support_group") == nil)
        #expect(ci.reference("managed_by") == "8a826bf03710200044e0bfc8bcbe5d72")
        #expect(ci.displayValue("managed_by") == "Lynda Caraway")
        #expect(ci.reference("sys_domain") == "global")

        let outbound = try NowRecords(record.value(at: "outbound_relations"))
        #expect(outbound.skipped.isEmpty)
        #expect(outbound.records.map { $0.reference("target") } == ["3a307c930a0a0bb400353965d0b8861f", "3a307c930a0a0bb400353965d0b8861f"])
        #expect(outbound.records.map { $0.displayValue("type") } == ["Depends on::Used by", "Exchanges data with::Exchanges data with"])

        let notARecord = try #require(throws: NowDataError.self) { try NowRecord(record.value(at: "inbound_relations")) }
        #expect(notARecord.description == "cannot decode model: expected a record (an object), found an array")
    }

    @Test func cmdbInstanceRecordIntoAModel() throws {
        struct LinuxServer: Decodable {
            struct Attributes: Decodable {
                var sysId: String
                var name: String
                @NowValue var cpuSpeed: Int
                @NowValue var virtual: Bool
                @NowValue var installDate: Date
                var managedBy: NowReference
                @NowValue var supportGroup: NowReference?
            }

            struct Relation: Decodable {
                var sysId: String
                var type: NowReference
                var target: NowReference
            }

            var attributes: Attributes
            var outboundRelations: [Relation]
            var inboundRelations: [Relation]
        }
        for coder in [Coder.default, Coder.custom(Coder.default.jsonEncoder, Coder.default.jsonDecoder)] {
            let server = try coder.decode(LinuxServer.self, from: linuxServer, at: "result")
            #expect(server.attributes.name == "PS LinuxApp01")
            #expect(server.attributes.cpuSpeed == 2800)
            #expect(server.attributes.virtual == false)
            #expect(server.attributes.installDate == Date(timeIntervalSince1970: 1_566_115_200))
            #expect(server.attributes.managedBy.description == "8a826bf03710200044e0bfc8bcbe5d72 (Lynda Caraway)")
            #expect(server.attributes.supportGroup == nil)
            #expect(server.outboundRelations.map(\.target.value) == ["3a307c930a0a0bb400353965d0b8861f", "3a307c930a0a0bb400353965d0b8861f"])
            #expect(server.inboundRelations.map(\.target.displayValue) == ["PS Apache01"])
            #expect(
                server.inboundRelations.first?.type.link
                    == URL(string: "https://instance.servicenow.com/api/now/table/cmdb_rel_type/1a9cb166f1571100a92eb60da2bce5c5"))
        }
    }

    // MARK: - Table API display values

    struct Incident: Decodable, Equatable {
        var number: String
        var priority: String
        var callerId: NowReference
        @NowValue var assignedTo: NowReference?
    }

    /// `sysparm_display_value=true`: display values only; references as `{"display_value", "link"}`.
    let displayTrue = Data(
        #"""
        {"result": [{"number": "INC0010001", "priority": "1 - Critical", "state": "In Progress",
                     "opened_at": "2024-08-01 05:00:00",
                     "caller_id": {"display_value": "Abel Tuter",
                                   "link": "https://dev.service-now.com/api/now/table/sys_user/681ccaf9c0a8016400b98a06818d57c7"},
                     "assigned_to": ""}]}
        """#.utf8)

    @Test func displayValueTrue() throws {
        let record = try NowRecord(data: displayTrue)
        #expect(record["priority"] == "1 - Critical")
        #expect(record.displayValue("priority") == "1 - Critical")
        #expect(record.reference("caller_id") == "681ccaf9c0a8016400b98a06818d57c7")
        #expect(record.displayValue("caller_id") == "Abel Tuter")
        #expect(record.reference("assigned_to") == nil)
        #expect(
            record.description
                == #"NowRecord(assigned_to: "", caller_id: "681ccaf9c0a8016400b98a06818d57c7" (display: "Abel Tuter"), "#
                + #"number: "INC0010001", opened_at: "2024-08-01 05:00:00", priority: "1 - Critical", state: "In Progress")"#)
        let incident = try #require(try Coder.default.decode([Incident].self, from: displayTrue, at: "result").first)
        #expect(incident.priority == "1 - Critical")
        #expect(incident.callerId == NowReference(
            value: "681ccaf9c0a8016400b98a06818d57c7", displayValue: "Abel Tuter",
            link: URL(string: "https://dev.service-now.com/api/now/table/sys_user/681ccaf9c0a8016400b98a06818d57c7")))
        #expect(incident.assignedTo == nil)
    }

    /// `sysparm_display_value=all`: every field as `{"display_value", "value"}`, references with their link.
    let displayAll = Data(
        #"""
        {"result": [{"number": {"display_value": "INC0010001", "value": "INC0010001"},
                     "priority": {"display_value": "1 - Critical", "value": "1"},
                     "opened_at": {"display_value": "2024-08-01 05:00:00", "value": "2024-08-01 12:00:00"},
                     "caller_id": {"display_value": "Abel Tuter",
                                   "link": "https://dev.service-now.com/api/now/table/sys_user/681ccaf9c0a8016400b98a06818d57c7",
                                   "value": "681ccaf9c0a8016400b98a06818d57c7"},
                     "assigned_to": {"display_value": "", "value": ""}}]}
        """#.utf8)

    @Test func displayValueAll() throws {
        let record = try NowRecord(data: displayAll)
        #expect(record.int("priority") == 1)
        #expect(record.displayValue("priority") == "1 - Critical")
        #expect(record.date("opened_at") == Date(timeIntervalSince1970: 1_722_513_600))
        #expect(record.displayValue("opened_at") == "2024-08-01 05:00:00")
        #expect(record.reference("caller_id") == "681ccaf9c0a8016400b98a06818d57c7")
        #expect(record.fields["caller_id"]?.link?.lastPathComponent == "681ccaf9c0a8016400b98a06818d57c7")
        #expect(record.reference("assigned_to") == nil)

        struct Row: Decodable {
            @NowValue var number: String
            @NowValue var priority: Int
            @NowValue var openedAt: Date
            var callerId: NowReference
            @NowValue var assignedTo: NowReference?
        }
        let row = try #require(try Coder.default.decode([Row].self, from: displayAll, at: "result").first)
        #expect(row.number == "INC0010001")
        #expect(row.priority == 1)
        #expect(row.openedAt == Date(timeIntervalSince1970: 1_722_513_600))
        #expect(row.callerId.description == "681ccaf9c0a8016400b98a06818d57c7 (Abel Tuter)")
        #expect(row.assignedTo == nil)
    }

    /// `sysparm_exclude_reference_link=true`: references as plain sys_ids; with `display_value=all`, as
    /// `{"display_value", "value"}` without a link.
    @Test func excludeReferenceLink() throws {
        let plain = Data(
            #"{"result": {"number": "INC0010001", "priority": "1", "caller_id": "681ccaf9c0a8016400b98a06818d57c7", "assigned_to": ""}}"#
                .utf8)
        let record = try NowRecord(data: plain)
        #expect(record.reference("caller_id") == "681ccaf9c0a8016400b98a06818d57c7")
        #expect(record.fields["caller_id"] == NowRecord.Field(value: "681ccaf9c0a8016400b98a06818d57c7"))
        #expect(try Coder.default.decode(Incident.self, from: plain, at: "result").callerId.link == nil)

        let all = Data(
            #"{"result": {"caller_id": {"display_value": "Abel Tuter", "value": "681ccaf9c0a8016400b98a06818d57c7"}}}"#.utf8)
        #expect(
            try NowRecord(data: all).fields["caller_id"]
                == NowRecord.Field(value: "681ccaf9c0a8016400b98a06818d57c7", displayValue: "Abel Tuter"))
    }

    // MARK: - Dot-walked fields

    /// `sysparm_fields=number,caller_id.name,caller_id.email,assignment_group.name`: each dot-walked field is a
    /// member named with its path.
    @Test func dotWalkedFieldsAreFieldsOfThatName() throws {
        let data = Data(
            #"""
            {"result": [{"number": "INC0010001", "caller_id.name": "Abel Tuter", "caller_id.email": "abel.tuter@example.com",
                         "assignment_group.name": ""},
                        {"number": "INC0010002", "caller_id.name": {"display_value": "Beth Anglin", "value": "Beth Anglin"},
                         "caller_id.email": "", "assignment_group.name": "Service Desk"}]}
            """#.utf8)
        let records = try NowRecord.records(from: data)
        #expect(records.map { $0["caller_id.name"] } == ["Abel Tuter", "Beth Anglin"])
        #expect(records.map { $0.displayValue("assignment_group.name") } == ["", "Service Desk"])
        #expect(records[0].fieldNames == ["assignment_group.name", "caller_id.email", "caller_id.name", "number"])
        let error = try #require(throws: DotPathError.self) { try records[0].value(at: "caller_id.name") }
        #expect(error.description == "no value at 'caller_id' in path 'caller_id.name': key 'caller_id' not found")
    }

    // MARK: - Error bodies

    /// `GET /api/now/table/nope`: `400` with `{"error": {"message": "Invalid table nope", "detail": null}}`.
    let invalidTable = #"{"error":{"message":"Invalid table nope","detail":null},"status":"failure"}"#

    @Test func anErrorBodyWithANullDetail() async throws {
        let service = makeService(RecordingTransport(status: 400, body: invalidTable))
        let error = await #expect(throws: NowDataError.self) { _ = try await service.records(from: "nope") }
        #expect(error?.description == "bad response 400 from GET /api/now/table/nope: Invalid table nope")
        #expect(error?.serverMessage == "Invalid table nope")
        #expect(error?.serverDetail == nil)

        let record = try NowRecord(data: Data(invalidTable.utf8))
        #expect(record.description == #"NowRecord(error: {2 members}, status: "failure")"#)
        #expect(try record.value(at: "error.detail") == .null)
        #expect(try record.value(at: "error.message") == "Invalid table nope")
    }

    // MARK: - Journal fields

    /// Journal fields (`comments`, `work_notes`): with display values, every entry, newest first, each a header line
    /// and the text; their value is empty.
    let journal = Data(
        #"""
        {"result": {"number": "INC0010001",
          "comments": {"display_value": "2024-08-01 05:12:09 - Abel Tuter (Additional comments)\nThe printer on floor 3 is on fire.\nPlease hurry.\n\n", "value": ""},
          "work_notes": {"display_value": "2024-08-01 05:20:00 - Beth Anglin (Work notes)\nFire brigade called.\n\n2024-08-01 05:15:30 - Beth Anglin (Work notes)\nPrinter unplugged;\n\tqueue cleared.\n\n", "value": ""},
          "comments_and_work_notes": {"display_value": "", "value": ""}}}
        """#.utf8)

    @Test func journalFieldsKeepTheirMultiLineDisplayValues() throws {
        let record = try NowRecord(data: journal)
        #expect(record["work_notes"] == "")
        #expect(
            record.displayValue("work_notes")
                == "2024-08-01 05:20:00 - Beth Anglin (Work notes)\nFire brigade called.\n\n"
                + "2024-08-01 05:15:30 - Beth Anglin (Work notes)\nPrinter unplugged;\n\tqueue cleared.\n\n")
        #expect(
            record.displayValue("comments")
                == "2024-08-01 05:12:09 - Abel Tuter (Additional comments)\nThe printer on floor 3 is on fire.\nPlease hurry.\n\n")
        #expect(record.displayValue("comments_and_work_notes") == "")

        struct Notes: Decodable {
            var workNotes: NowRecord.Field
            @NowValue var comments: String
        }
        let notes = try Coder.default.decode(Notes.self, from: journal, at: "result")
        #expect(notes.workNotes == record.fields["work_notes"])
        #expect(notes.comments == "")
        let encoded = try JSONEncoder().encode(record)
        #expect(try NowRecord(data: encoded).displayValue("work_notes") == record.displayValue("work_notes"))
    }

    // MARK: - Long values

    @Test func aLongHTMLValueIsKeptWhole() throws {
        let paragraph = #"<p class="note">Step 1: unplug the <b>printer</b> &amp; wait. Don't touch \ the "tray".</p>"#
        var html = "<div>"
        while html.count < 1_394 { html += paragraph }
        html = String(html.prefix(1_394)) + "</div>"
        #expect(html.count == 1_400)
        let body = JSONValue.object(["result": ["sys_id": "9d385017c611228701d22104cc95c371", "description": .string(html)]])
        let data = body.jsonData()
        let record = try NowRecord(data: data)
        #expect(record["description"] == html)
        #expect(record["description"]?.count == 1_400)
        struct Article: Decodable { var description: String }
        #expect(try Coder.default.decode(Article.self, from: data, at: "result").description == html)
        #expect(try JSONValue(json: JSONValue.object(record.json).jsonData()) == body["result"])
    }
}
