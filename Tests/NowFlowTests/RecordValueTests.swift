import Foundation
import LocalInstance
import NowData
import Testing

@testable import NowFlow

/// A record keeps its type from the step that read it, through references, `first()` and `last()`, variables,
/// foreach items and `extract`, so that it is shown as a record because it is one; a mapping that is not a record
/// (a reference field's object) is shown as YAML, whatever its members.
@Suite struct RecordValueTests {
    static let record: NowRecord = Data(
        #"{"number": "INC0010001", "short_description": "Email server is down", "caller_id": {"link": "http://x/api/now/table/sys_user/u1", "value": "u1"}}"#
            .utf8
    ).convertToRecord()
    static let other: NowRecord = Data(#"{"number": "INC0010002"}"#.utf8).convertToRecord()

    let scope = Scope(steps: ["q": .records([Self.record, Self.other]), "g": .record(Self.record, sysID: "abc")])

    private func value(_ source: String, in scope: Scope? = nil) throws -> ExpressionValue {
        try ExpressionParser.parse(source).value(in: scope ?? self.scope)
    }

    @Test func referencesFirstAndLastKeepTheRecordType() throws {
        #expect(try value("steps.q.records") == .records([Self.record, Self.other]))
        #expect(try value("steps.q.records.1") == .record(Self.other))
        #expect(try value("steps.g.record") == .record(Self.record))
        #expect(try value("first(steps.q.records)") == .record(Self.record))
        #expect(try value("last(steps.q.records)") == .record(Self.other))
        #expect(try value("steps.q.records.0.number") == .json(.string("INC0010001")))
        #expect(try value("steps.q.records.0.caller_id") == .json(Self.record.json["caller_id"] ?? .null))
        #expect(try value("steps.q.count") == .json(.number(JSONNumber(2))))
        #expect(try value("steps.q").json == StepResult.records([Self.record, Self.other]).json)
        #expect(try value("steps.q.records.0.number") == value("steps.q").value(at: DotPath("records.0.number")))
        // Operators and the other functions see the records' JSON.
        #expect(try value("len(steps.q.records)") == .json(.number(JSONNumber(2))))
        #expect(try value("steps.q.records.0 == steps.g.record") == .json(.bool(true)))
        #expect(try value("'number' in steps.g.record") == .json(.bool(true)))
    }

    /// A path that names nothing in a record fails with the message it gave when results were walked as JSON.
    @Test func aPathThatNamesNothingFailsAsItDidInJSON() throws {
        let json = Scope(steps: [
            "q": .value(StepResult.records([Self.record, Self.other]).json),
            "g": .value(StepResult.record(Self.record, sysID: "abc").json),
        ])
        for source in [
            "steps.q.records.2", "steps.q.records.x", "steps.q.records.0.missing", "steps.q.records.0.number.x",
            "steps.q.records.0.caller_id.name", "steps.g.record.missing", "steps.q.records.-1",
        ] {
            let typed = #expect(throws: EvaluationError.self) { try value(source) }
            let walked = #expect(throws: EvaluationError.self) { try value(source, in: json) }
            #expect(typed?.message == walked?.message, "\(source)")
            #expect(typed?.isMissing == walked?.isMissing, "\(source)")
        }
        let error = #expect(throws: EvaluationError.self) { try value("steps.q.records.2.number") }
        #expect(
            error?.message == "no value at 'steps.q.records.2' in path 'steps.q.records.2.number': index 2 out of range (2 elements)")
    }

    @Test func theRendererShowsRecordsByTheirTypeAndOtherObjectsAsYAML() throws {
        let renderer = ResultRenderer(format: .table, dates: JobDates(CoderSettings(), zoneName: "UTC"), width: 80)
        #expect(renderer.render(ExpressionValue.record(Self.other)) == "number  INC0010002")
        #expect(renderer.render(ExpressionValue.records([Self.other])) == """
            number
            ----------
            INC0010002
            1 record
            """)
        #expect(renderer.render(ExpressionValue.records([])) == "no records")
        // A reference field's object has only text members, as a record may: it is not one.
        #expect(renderer.render(ExpressionValue.json(Self.record.json["caller_id"] ?? .null)) == """
            link: http://x/api/now/table/sys_user/u1
            value: u1
            """)
    }

    @Test func aSessionShowsRecordsThatExtractSetAndShowGiveAsRecords() async throws {
        let harness = try ReplHarness()
        let transcript = await harness.transcript([
            "id=q query incident number=INC0010001 fields=number,short_description,caller_id",
            "{ id: one, extract: { from: steps.q, path: records.0 } }",
            "set kept=${steps.q.records.0}",
            ":show vars.kept",
            ":show steps.one",
            ":show first(steps.q.records)",
            ":show steps.q.records.0.caller_id",
            "{ foreach: steps.q.records, as: incident, steps: [ { set: { item: \"${incident}\" } } ] }",
            ":show vars.item",
        ])
        #expect(harness.normalized(transcript) == """
            nowflow> id=q query incident number=INC0010001 fields=number,short_description,caller_id
            q (query): 1 record from incident
            number      short_description     caller_id
            ----------  --------------------  --------------------------------
            INC0010001  Email server is down  <sys_id>
            1 record
            nowflow> { id: one, extract: { from: steps.q, path: records.0 } }
            one (extract): = {"caller_id":{"link":"http://localhost/api/now/table/sys_...
            number             INC0010001
            short_description  Email server is down
            sys_id             <sys_id>
            caller_id          <sys_id>
            nowflow> set kept=${steps.q.records.0}
            _1 (set): vars.kept
            nowflow> :show vars.kept
            number             INC0010001
            short_description  Email server is down
            sys_id             <sys_id>
            caller_id          <sys_id>
            nowflow> :show steps.one
            number             INC0010001
            short_description  Email server is down
            sys_id             <sys_id>
            caller_id          <sys_id>
            nowflow> :show first(steps.q.records)
            number             INC0010001
            short_description  Email server is down
            sys_id             <sys_id>
            caller_id          <sys_id>
            nowflow> :show steps.q.records.0.caller_id
            link: http://localhost/api/now/table/sys_user/<sys_id>
            value: <sys_id>
            nowflow> { foreach: steps.q.records, as: incident, steps: [ { set: { item: "${incident}" } } ] }
            _2 (foreach): 1 item
            nowflow> :show vars.item
            number             INC0010001
            short_description  Email server is down
            sys_id             <sys_id>
            caller_id          <sys_id>

            """)
    }
}
