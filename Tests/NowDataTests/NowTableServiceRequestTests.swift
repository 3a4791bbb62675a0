import Foundation
import NowData
import Testing

@Suite struct NowTableServiceRequestTests {
    let created =
        #"{"result":{"sys_id":"0123456789abcdef0123456789abcdef","short_description":"Printer on fire","number":"INC0010001"}}"#

    @Test func createPostsTheModelWithAClientSysIDAndReturnsThePlatformOne() async throws {
        let transport = RecordingTransport(status: 201, body: created)
        let service = makeService(transport)
        let model = Incident(sysId: "ffffffffffffffffffffffffffffffff", shortDescription: "Printer on fire")

        let result = try await service.create(
            model, in: "incident", writeOptions: [.suppressAutoSysField, .treatInputValuesAsDisplayValues],
            configuration: FetchConfiguration(
                filter: Filter(query: "active=true"), limit: 5,
                readConfiguration: FieldReadConfiguration(includeFields: ["number", "short_description"])))

        #expect(result.sysId == "0123456789abcdef0123456789abcdef")
        #expect(result.number == "INC0010001")
        #expect(
            transport.rendered.map(maskingSysIDs) == [
                """
                POST /api/now/table/incident?sysparm_input_display_value=true&sysparm_suppress_auto_sys_field=true\
                &sysparm_fields=number,short_description
                {"short_description":"Printer on fire","sys_id":"<sys_id>"}
                """
            ])
        let sent = try #require(transport.recorded.first.flatMap(sysID(in:)))
        #expect(sent != model.sysId)
        #expect(transport.recorded.first?.headers["Content-Type"] == "application/json")
        #expect(transport.recorded.first?.headers["Accept"] == "application/json")
    }

    @Test func createRecordAcceptsTheSeedsStringDictionary() async throws {
        let transport = RecordingTransport(status: 201, body: created)
        let service = makeService(transport)
        let fields = ["short_description": "test description"]
        let readConfiguration = FieldReadConfiguration(includeFields: ["number", "short_description"])

        let data = try await service.createRecord(with: fields, in: "incident", configuration: readConfiguration)

        #expect(String(decoding: data, as: UTF8.self) == created)
        #expect(
            transport.rendered.map(maskingSysIDs) == [
                """
                POST /api/now/table/incident?sysparm_fields=number,short_description
                {"short_description":"test description","sys_id":"<sys_id>"}
                """
            ])
    }

    @Test func createRecordWritesEveryValueAsAStringAndKeepsAGivenSysID() async throws {
        let transport = RecordingTransport(status: 201, body: created)
        let service = makeService(transport)

        _ = try await service.createRecord(
            with: [
                "urgency": 2, "active": true, "ratio": 0.5, "close_notes": nil,
                "sys_id": "00000000000000000000000000000042",
            ],
            in: "incident")

        #expect(
            transport.rendered == [
                """
                POST /api/now/table/incident
                {"active":"true","close_notes":"","ratio":"0.5","sys_id":"00000000000000000000000000000042","urgency":"2"}
                """
            ])
    }

    @Test func createRecordWritesJSONValuesWithTheirText() async throws {
        let transport = RecordingTransport(status: 201, body: created)
        let service = makeService(transport)
        let fields: [FieldName: JSONValue] = [
            "cpu_speed": .number(try #require(JSONNumber(text: "2800"))),
            "ratio": .number(try #require(JSONNumber(text: "0.10"))), "active": true, "close_notes": nil,
            "tags": ["printer", "floor 3"], "config": ["retries": 3], "short_description": "Printer \"3\" on fire\n",
        ]

        _ = try await service.createRecord(with: fields, in: "incident")

        #expect(
            transport.rendered.map(maskingSysIDs) == [
                #"""
                POST /api/now/table/incident
                {"active":"true","close_notes":"","config":"{\"retries\":3}","cpu_speed":"2800","ratio":"0.10",\#
                "short_description":"Printer \"3\" on fire\n","sys_id":"<sys_id>","tags":"[\"printer\",\"floor 3\"]"}
                """#
            ])
        #expect(
            fields.mapValues(\.fieldValue) == [
                "cpu_speed": "2800", "ratio": "0.10", "active": true, "close_notes": nil,
                "tags": #"["printer","floor 3"]"#, "config": #"{"retries":3}"#, "short_description": "Printer \"3\" on fire\n",
            ])
    }

    @Test func modelsWriteTheirNestedValuesAsJSON() async throws {
        struct Ticket: SysIdentifiableModel {
            var sysId: String
            var shortDescription: String
            var watchList: [String]
            var sysModCount: Int
            var location: [String: Double]
        }
        let transport = RecordingTransport(
            body: #"{"result":{"sys_id":"0123456789abcdef0123456789abcdef","short_description":"x","watch_list":["a","b"],"sys_mod_count":4,"location":{"lat":48.5}}}"#
        )
        let service = makeService(transport)
        let ticket = Ticket(
            sysId: "0123456789abcdef0123456789abcdef", shortDescription: "x", watchList: ["a", "b"], sysModCount: 3,
            location: ["lat": 48.5])

        #expect(try await service.update(ticket, in: "incident").sysModCount == 4)
        #expect(
            transport.rendered == [
                """
                PATCH /api/now/table/incident/0123456789abcdef0123456789abcdef
                {"location":{"lat":48.5},"short_description":"x","watch_list":["a","b"]}
                """
            ])
    }

    @Test func rawOperationsCheckTheBodyHasAResult() async throws {
        for (body, accepted) in [
            (#"{"result":[]}"#, true), (#"{"result":null}"#, true), (#"{"status":"success"}"#, false),
            (#"[{"result":[]}]"#, false), ("", false),
        ] {
            let service = makeService(RecordingTransport(body: body))
            let error: (any Error)?
            do {
                _ = try await service.records(from: "incident")
                error = nil
            } catch let thrown {
                error = thrown
            }
            #expect(error.map { "\($0)" } == (accepted ? nil : "cannot parse the response: it is not the JSON the Table API sends"))
        }
    }

    @Test func updatePatchesTheModelWithoutSystemFields() async throws {
        let transport = RecordingTransport(body: created)
        let service = makeService(transport)
        let model = Incident(
            sysId: "0123456789abcdef0123456789abcdef", shortDescription: "Printer on fire", number: "INC0010001",
            sysUpdatedOn: "2024-08-01 12:00:00")

        let result = try await service.update(model, in: "incident", writeOptions: [.suppressAutoSysField])

        #expect(result.shortDescription == "Printer on fire")
        #expect(
            transport.rendered == [
                """
                PATCH /api/now/table/incident/0123456789abcdef0123456789abcdef?sysparm_suppress_auto_sys_field=true
                {"number":"INC0010001","short_description":"Printer on fire"}
                """
            ])
    }

    @Test func updateRecordLeavesSystemFieldsOut() async throws {
        let transport = RecordingTransport(body: created)
        let service = makeService(transport)

        _ = try await service.updateRecord(
            sysId: "0123456789abcdef0123456789abcdef", in: "incident",
            with: ["state": 2, "sys_mod_count": 7, "work_notes": "on it"],
            configuration: FieldReadConfiguration(options: [.displayValues, .excludeReferenceLink]))

        #expect(
            transport.rendered == [
                """
                PATCH /api/now/table/incident/0123456789abcdef0123456789abcdef?sysparm_display_value=true\
                &sysparm_exclude_reference_link=true
                {"state":"2","work_notes":"on it"}
                """
            ])
    }

    @Test func updateAndDeleteWithoutSysIDFailBeforeAnyRequest() async throws {
        let transport = RecordingTransport(body: created)
        let service = makeService(transport)
        let unsaved = Incident(shortDescription: "never saved")

        await #expect { try await service.update(unsaved, in: "incident") } throws: { isMissingSysID($0) }
        await #expect { try await service.delete(unsaved, from: "incident") } throws: { isMissingSysID($0) }
        await #expect { try await service.deleteRecord(sysId: "", from: "incident") } throws: { isMissingSysID($0) }
        await #expect { try await service.updateRecord(sysId: "", in: "incident", with: ["a": "b"]) } throws: {
            isMissingSysID($0)
        }
        #expect(transport.recorded.isEmpty)
    }

    @Test func readsCarryTheirConfiguration() async throws {
        let one = #"{"result":{"sys_id":"0123456789abcdef0123456789abcdef","short_description":"x"}}"#
        let many = #"{"result":[{"sys_id":"0123456789abcdef0123456789abcdef","short_description":"x"}]}"#
        let transport = RecordingTransport { request, _ in
            json(200, request.path.hasSuffix("incident") ? many : one)
        }
        let service = makeService(transport)
        let configuration = FetchConfiguration(
            Filter(query: "active=true^priority<=2", queryCategory: "mine"), 50,
            FieldReadConfiguration(includeFields: ["number"], options: [.actualValues, .displayValues]))

        let list = try await service.model([Incident].self, from: "incident", configuration: configuration)
        let single = try await service.model(
            Incident.self, with: "0123456789abcdef0123456789abcdef", from: "incident", configuration: configuration)
        _ = try await service.records(from: "incident", configuration: configuration)
        _ = try await service.record(
            with: "0123456789abcdef0123456789abcdef", from: "incident",
            configuration: FieldReadConfiguration(includeFields: ["number"]))
        try await service.deleteRecord(sysId: "0123456789abcdef0123456789abcdef", from: "incident")

        #expect(list.count == 1)
        #expect(single.shortDescription == "x")
        #expect(
            transport.rendered == [
                "GET /api/now/table/incident?sysparm_query=active=true^priority<=2&sysparm_query_category=mine"
                    + "&sysparm_limit=50&sysparm_fields=number&sysparm_display_value=all",
                "GET /api/now/table/incident/0123456789abcdef0123456789abcdef?sysparm_fields=number"
                    + "&sysparm_display_value=all",
                "GET /api/now/table/incident?sysparm_query=active=true^priority<=2&sysparm_query_category=mine"
                    + "&sysparm_limit=50&sysparm_fields=number&sysparm_display_value=all",
                "GET /api/now/table/incident/0123456789abcdef0123456789abcdef?sysparm_fields=number",
                "DELETE /api/now/table/incident/0123456789abcdef0123456789abcdef",
            ])
    }

    @Test func anEmptyTableNameIsAnInvalidURLAndAnEmptySysIDAMissingOne() async throws {
        let transport = RecordingTransport(body: created)
        let service = makeService(transport)

        await #expect { try await service.records(from: "") } throws: { isInvalidURL($0) }
        await #expect { try await service.record(with: "0123456789abcdef0123456789abcdef", from: "") } throws: {
            isInvalidURL($0)
        }
        await #expect { try await service.record(with: "", from: "incident") } throws: { isMissingSysID($0) }
        #expect(transport.recorded.isEmpty)
    }

    @Test func tableNamesAndSysIDsArePercentEncodedAsOneSegmentEach() async throws {
        let transport = RecordingTransport(body: created)
        let service = makeService(transport)

        _ = try await service.records(from: "incident?x=1")
        _ = try await service.records(from: "my table")
        _ = try await service.record(with: "../sys_user", from: "incident")
        _ = try await service.record(with: "a#b", from: "my table")
        _ = try await service.record(with: "100%/x y", from: "u_café")
        _ = try await service.record(with: "..", from: ".")
        _ = try await service.deleteRecord(sysId: "a?b=c&d", from: "incident")
        _ = try await service.updateRecord(sysId: "résumé", in: "u_ü/ö", with: ["a": "b"])
        _ = try await service.createRecord(with: ["a": "b"], in: "日本")
        _ = try await service.records(from: "x_acme_thing-1.v2~")

        #expect(
            transport.rendered.map(maskingSysIDs) == [
                "GET /api/now/table/incident%3Fx%3D1",
                "GET /api/now/table/my%20table",
                "GET /api/now/table/incident/..%2Fsys_user",
                "GET /api/now/table/my%20table/a%23b",
                "GET /api/now/table/u_caf%C3%A9/100%25%2Fx%20y",
                "GET /api/now/table/%2E/%2E%2E",
                "DELETE /api/now/table/incident/a%3Fb%3Dc%26d",
                "PATCH /api/now/table/u_%C3%BC%2F%C3%B6/r%C3%A9sum%C3%A9\n{\"a\":\"b\"}",
                "POST /api/now/table/%E6%97%A5%E6%9C%AC\n{\"a\":\"b\",\"sys_id\":\"<sys_id>\"}",
                "GET /api/now/table/x_acme_thing-1.v2~",
            ])
    }

    @Test func anUnexpectedStatusCarriesTheServersMessageAndTheRequest() async throws {
        let transport = RecordingTransport(
            status: 404,
            body:
                #"{"error":{"message":"No Record found","detail":"Record doesn't exist or ACL restricts the record retrieval"},"status":"failure"}"#
        )
        let service = makeService(transport)

        let error = await #expect(throws: NowDataError.self) {
            _ = try await service.record(with: "0123456789abcdef0123456789abcdef", from: "incident")
        }
        guard case .badResponse(let status) = error else {
            Issue.record("expected badResponse, got \(String(describing: error))")
            return
        }
        #expect(status == 404)
        #expect(status.message == "No Record found")
        #expect(status.detail == "Record doesn't exist or ACL restricts the record retrieval")
        #expect(status.method == "GET")
        #expect(status.path == "/api/now/table/incident/0123456789abcdef0123456789abcdef")
    }

    @Test func anUnparsableBodyIsCannotParseResponse() async throws {
        let service = makeService(RecordingTransport(body: "<html>Instance hibernating</html>"))

        await #expect { _ = try await service.records(from: "incident") } throws: { error in
            if case NowDataError.cannotParseResponse = error { true } else { false }
        }
        await #expect { _ = try await service.model([Incident].self, from: "incident") } throws: { error in
            if case NowDataError.cannotParseResponse = error { true } else { false }
        }
    }

    @Test func aModelThatDoesNotFitIsCannotDecodeModelWithItsCodingPath() async throws {
        let service = makeService(
            RecordingTransport(body: #"{"result":[{"sys_id":"a","short_description":"x"},{"sys_id":"b"}]}"#))

        let error = await #expect(throws: NowDataError.self) {
            _ = try await service.model([Incident].self, from: "incident")
        }
        guard case .cannotDecodeModel(.keyNotFound(let key, let context)) = error else {
            Issue.record("expected cannotDecodeModel(keyNotFound), got \(String(describing: error))")
            return
        }
        #expect(key.stringValue == "shortDescription")
        #expect(context.codingPath.map(\.stringValue) == ["result", "Index 1"])
    }

    @Test func plainHTTPIsRefusedForAnotherHost() async throws {
        let transport = RecordingTransport(body: created)
        let refused = makeService(transport, url: "http://example.service-now.com")
        let noHost = makeService(transport, url: "example.service-now.com")

        await #expect { _ = try await refused.records(from: "incident") } throws: { isInvalidURL($0) }
        await #expect { _ = try await noHost.records(from: "incident") } throws: { isInvalidURL($0) }
        #expect(transport.recorded.isEmpty)

        let loopback = makeService(transport, url: "http://127.0.0.1:8080")
        _ = try await loopback.records(from: "incident")
        var allowed = NowServiceConfiguration(
            instanceURL: URL(string: "http://example.service-now.com")!, transport: transport, allowsInsecureHTTP: true)
        allowed.retryPolicy = .none
        _ = try await NowTableService(configuration: allowed).records(from: "incident")
        #expect(transport.recorded.count == 2)
    }
}
