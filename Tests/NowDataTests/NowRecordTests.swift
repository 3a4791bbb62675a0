import Foundation
import NowData
import Testing

@Suite struct NowRecordTests {
    let plain = Data(
        """
        {"result": {"sys_id": "9d385017c611228701d22104cc95c371", "number": "INC0010001", "priority": "1",
          "active": "true", "business_stc": "2.5", "opened_at": "2024-08-01 12:00:00", "due_date": "2024-08-02",
          "close_code": "", "resolved_by": null,
          "caller_id": {"link": "https://dev.service-now.com/api/now/table/sys_user/681ccaf9c0a8016400b98a06818d57c7",
                        "value": "681ccaf9c0a8016400b98a06818d57c7"}}}
        """.utf8)

    @Test func readsEveryFieldWithTypedAccessors() {
        let record = plain.convertToRecord()
        #expect(record.sysId == "9d385017c611228701d22104cc95c371")
        #expect(record["number"] == "INC0010001")
        #expect(record.string("number") == "INC0010001")
        #expect(record.int("priority") == 1)
        #expect(record.bool("active") == true)
        #expect(record.double("business_stc") == 2.5)
        #expect(record.date("opened_at") == Date(timeIntervalSince1970: 1_722_513_600))
        #expect(record.date("due_date") == Date(timeIntervalSince1970: 1_722_556_800))
        #expect(record.reference("caller_id") == "681ccaf9c0a8016400b98a06818d57c7")
        #expect(record.value("close_code") == "")
        #expect(record.int("close_code") == nil)
        #expect(record.value("resolved_by") == "")
        #expect(record.reference("resolved_by") == nil)
        #expect(record["missing"] == nil)
        #expect(record.int("number") == nil)
        #expect(
            record.fieldNames == [
                "active", "business_stc", "caller_id", "close_code", "due_date", "number", "opened_at", "priority",
                "resolved_by", "sys_id",
            ])
        #expect(
            record.fields["caller_id"]?.link
                == URL(string: "https://dev.service-now.com/api/now/table/sys_user/681ccaf9c0a8016400b98a06818d57c7"))
    }

    /// The seed's conversions, pasted (`dataResult` is what `record`, `records`, `createRecord` return).
    @Test func seedConversions() {
        let dataResult: Data = plain
        let recordResult: NowRecord = dataResult.convertToRecord()
        #expect(recordResult["number"] == "INC0010001")
        let listResult = Data(#"{"result": [{"number": "INC0010001"}, {"number": "INC0010002"}]}"#.utf8)
        let recordResults: [NowRecord] = listResult.convertToRecords()
        #expect(recordResults.map(\.description) == [#"NowRecord(number: "INC0010001")"#, #"NowRecord(number: "INC0010002")"#])
        #expect("Created NowRecord: \(recordResults[0])" == #"Created NowRecord: NowRecord(number: "INC0010001")"#)
    }

    @Test func displayValueAllKeepsBoth() throws {
        let data = Data(
            """
            {"result": [{"priority": {"display_value": "1 - Critical", "value": "1"},
                         "caller_id": {"display_value": "Abel Tuter", "value": "681ccaf9", "link": "https://x/api/now/table/sys_user/681ccaf9"},
                         "sys_id": {"display_value": "9d38", "value": "9d38"}}]}
            """.utf8)
        let record = try #require(data.convertToRecords().first)
        #expect(record.value("priority") == "1")
        #expect(record.displayValue("priority") == "1 - Critical")
        #expect(record.int("priority") == 1)
        #expect(record.reference("caller_id") == "681ccaf9")
        #expect(record.displayValue("caller_id") == "Abel Tuter")
        #expect(record.sysId == "9d38")
        #expect(
            record.description
                == #"NowRecord(caller_id: "681ccaf9" (display: "Abel Tuter"), priority: "1" (display: "1 - Critical"), sys_id: "9d38")"#)
    }

    @Test func displayValueTrueReadsReferencesFromTheirLink() {
        let data = Data(
            #"{"result": {"priority": "1 - Critical", "caller_id": {"display_value": "Abel Tuter", "link": "https://x/api/now/table/sys_user/681ccaf9"}}}"#
                .utf8)
        let record = data.convertToRecord()
        #expect(record.value("priority") == "1 - Critical")
        #expect(record.displayValue("priority") == "1 - Critical")
        #expect(record.reference("caller_id") == "681ccaf9")
        #expect(record.displayValue("caller_id") == "Abel Tuter")
    }

    @Test func excludeReferenceLinkGivesPlainSysIDs() {
        let record = Data(#"{"result": {"caller_id": "681ccaf9"}}"#.utf8).convertToRecord()
        #expect(record.reference("caller_id") == "681ccaf9")
        #expect(record.description == #"NowRecord(caller_id: "681ccaf9")"#)
    }

    @Test func convertToRecordsReadsArraysObjectsAndBareDocuments() {
        #expect(Data(#"{"result": [{"a": "1"}, {"a": "2"}]}"#.utf8).convertToRecords().map { $0["a"] } == ["1", "2"])
        #expect(Data(#"{"result": {"a": "1"}}"#.utf8).convertToRecords().map { $0["a"] } == ["1"])
        #expect(Data(#"[{"a": "1"}]"#.utf8).convertToRecords().map { $0["a"] } == ["1"])
        #expect(Data(#"{"a": "1"}"#.utf8).convertToRecord()["a"] == "1")
        #expect(Data(#"{"result": "a field named result"}"#.utf8).convertToRecord()["result"] == "a field named result")
        #expect(Data(#"{"result": [{"a": "1"}, {"a": "2"}]}"#.utf8).convertToRecord()["a"] == "1")
        #expect(Data(#"{"result": []}"#.utf8).convertToRecords().isEmpty)
    }

    @Test(arguments: ["not json", "", "42", #"{"result": []}"#])
    func badDataGivesAnEmptyRecordOrTheError(text: String) throws {
        let data = Data(text.utf8)
        #expect(data.convertToRecord().isEmpty)
        #expect(data.convertToRecord().description == "NowRecord()")
        let error = try #require(throws: NowDataError.self) { try NowRecord(data: data) }
        #expect(error.description == "cannot parse the response: it is not the JSON the Table API sends")
    }

    @Test func anElementThatIsNotARecordIsNamedInTheError() throws {
        let data = Data(#"{"result": [1, {"a": "x"}, "two"]}"#.utf8)
        #expect(data.convertToRecord().isEmpty)
        let first = try #require(throws: NowDataError.self) { try NowRecord(data: data) }
        #expect(first.description == "cannot decode model at result[0]: expected a record (an object), found a number")
        #expect(data.convertToRecords().map(\.description) == [#"NowRecord(a: "x")"#])
        let page = try NowRecords(data: data)
        #expect(page.records.map(\.description) == [#"NowRecord(a: "x")"#])
        #expect(
            page.skipped.map(\.description) == [
                "result[0]: expected a record (an object), found a number",
                "result[2]: expected a record (an object), found a string",
            ])
        #expect(page.skipped.map(\.index) == [0, 2])
        #expect(page.skipped.map(\.element) == [1, "two"])
        #expect(page.skipped.map(\.reason) == [.notAnObject(found: "a number"), .notAnObject(found: "a string")])
        let error = try #require(throws: NowDataError.self) { try NowRecord.records(from: data) }
        #expect(error.description == "cannot decode model at result[0]: expected a record (an object), found a number")
    }

    /// Of two malformed field objects, the error names the first the instance sent.
    @Test func theFirstMalformedFieldInOrderIsNamed() throws {
        for (first, second) in [("a_field", "z_field"), ("z_field", "a_field")] {
            let data = Data(
                #"{"result": {"number": "INC0010001", "\#(first)": {"value": [1]}, "\#(second)": {"link": 42}}}"#.utf8)
            let error = try #require(throws: NowDataError.self) { try NowRecord(data: data) }
            #expect(
                error.description
                    == "cannot decode model at result.\(first).value: expected a string, a number, a boolean or null, found an array")
        }
    }

    @Test func aMalformedFieldObjectNamesTheElementAndTheField() throws {
        let data = Data(
            #"{"result": [{"number": "INC0010001"}, {"number": "INC0010002", "caller_id": {"link": 42, "value": "681ccaf9"}}, {"priority": {"display_value": "1 - Critical", "value": ["1"]}}]}"#
                .utf8)
        let page = try NowRecords(data: data)
        #expect(page.records.map { $0["number"] } == ["INC0010001"])
        #expect(
            page.skipped.map(\.description) == [
                "result[1].caller_id.link: expected a string or null, found a number",
                "result[2].priority.value: expected a string, a number, a boolean or null, found an array",
            ])
        #expect(
            page.skipped.map(\.reason) == [
                .malformedField("caller_id", member: "link", found: "a number"),
                .malformedField("priority", member: "value", found: "an array"),
            ])
        let error = try #require(throws: NowDataError.self) { try NowRecord.records(from: data) }
        #expect(error.description == "cannot decode model at result[1].caller_id.link: expected a string or null, found a number")
        let single = Data(#"{"result": {"caller_id": {"display_value": ["Abel Tuter"], "link": "https://x/api/now/table/sys_user/681ccaf9"}}}"#.utf8)
        let one = try #require(throws: NowDataError.self) { try NowRecord(data: single) }
        #expect(
            one.description
                == "cannot decode model at result.caller_id.display_value: expected a string, a number, a boolean or null, found an array")
        #expect(single.convertToRecords().isEmpty)
    }

    @Test func nestedValuesAreKeptAsJSON() throws {
        let data = Data(#"{"result": {"number": "INC0010001", "tags": ["printer", "floor 3"], "meta": {}, "count": 2800}}"#.utf8)
        let record = try NowRecord(data: data)
        #expect(record.fieldNames == ["count", "number"])
        #expect(record.json.keys == ["number", "tags", "meta", "count"])
        #expect(record.json == ["number": "INC0010001", "tags": ["printer", "floor 3"], "meta": [:], "count": 2800])
        #expect(try record.value(at: "tags.1") == "floor 3")
        #expect(try record.value(at: "count").number?.text == "2800")
        #expect(record["count"] == "2800")
        #expect(record["tags"] == nil)
        #expect(record.description == #"NowRecord(count: "2800", meta: {0 members}, number: "INC0010001", tags: [2 elements])"#)
        let error = try #require(throws: DotPathError.self) { try record.value(at: "tags.2") }
        #expect(error.description == "no value at 'tags.2' in path 'tags.2': index 2 out of range (2 elements)")
        let encoded = try JSONEncoder().encode(record)
        #expect(try JSONDecoder().decode(NowRecord.self, from: encoded) == record)
    }

    @Test func settingFieldsRewritesTheirMembersAndKeepsNestedValues() throws {
        var record = try NowRecord(data: Data(#"{"number": "INC0010001", "tags": ["a"], "state": 2}"#.utf8))
        record.fields["state"] = NowRecord.Field(value: "3", displayValue: "Resolved")
        record.fields["number"] = nil
        record.fields["active"] = NowRecord.Field(value: "true")
        #expect(record.json.keys == ["tags", "state", "active"])
        #expect(
            record.json
                == ["tags": ["a"], "state": ["display_value": "Resolved", "value": "3"], "active": "true"])
        #expect(record.description == #"NowRecord(active: "true", state: "3" (display: "Resolved"), tags: [1 element])"#)
        #expect(NowRecord(fields: ["b": NowRecord.Field(value: "2"), "a": NowRecord.Field(value: "1")]).json.keys == ["a", "b"])
    }

    @Test func badDataGivesNoRecordsOrTheError() throws {
        let data = Data("<html>".utf8)
        #expect(data.convertToRecords().isEmpty)
        #expect(throws: NowDataError.self) { try NowRecord.records(from: data) }
    }

    @Test func numbersAndBooleansBecomeText() {
        let record = Data(#"{"result": {"priority": 4, "active": false, "score": 0.5}}"#.utf8).convertToRecord()
        #expect(record["priority"] == "4")
        #expect(record["active"] == "false")
        #expect(record.double("score") == 0.5)
    }

    @Test func roundTripsThroughCodable() throws {
        let record = try NowRecord(data: plain)
        let encoded = try JSONEncoder().encode(record)
        #expect(try JSONDecoder().decode(NowRecord.self, from: encoded) == record)
        let field = NowRecord.Field(value: "1", displayValue: "1 - Critical")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // A field is a NowReference: it encodes as its value, as the Table API takes it on writes.
        #expect(String(decoding: try encoder.encode(field), as: UTF8.self) == #""1""#)
    }

    @Test func fieldNamesStayServiceNowsUnderTheDefaultCoder() throws {
        let record = try Coder.default.jsonDecoder.decode(NowRecord.self, from: plain, at: "result")
        #expect(record == (try NowRecord(data: plain)))
        #expect(record.date("opened_at") == Date(timeIntervalSince1970: 1_722_513_600))
        let encoded = try Coder.default.jsonEncoder.encode(NowRecord(fields: ["short_description": NowRecord.Field(value: "x")]))
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"short_description":"x"}"#)
    }

    @Test func recordsAreValues() {
        var record = NowRecord(fields: ["number": NowRecord.Field(value: "INC0010001")])
        let copy = record
        record.fields["number"] = NowRecord.Field(value: "INC0010002")
        #expect(copy != record)
        #expect(copy["number"] == "INC0010001")
    }
}
