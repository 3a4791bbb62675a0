import Foundation
import NowData
import Testing

@testable import NowFlow

@Suite struct ResultRendererTests {
    static let records: JSONValue = .object([
        "count": .number(JSONNumber(2)),
        "records": .array([
            .object([
                "number": .string("INC0010001"), "short_description": .string("Email server is down since this morning for everyone"),
                "state": .string("1"), "sys_id": .string("77c017c10d784d2d1c396fa61dce21ac"),
                "caller_id": .object(["display_value": .string("Abel Tuter"), "link": .string("http://x/api/now/table/sys_user/1")]),
                "sys_created_on": .string("2026-01-05 08:00:00"), "work_notes": .string(""),
            ]),
            .object([
                "number": .string("INC0010002"), "short_description": .string("VPN\ndown"), "state": .string("2"),
                "sys_id": .string("9d5eaeb79eab303e8616f40c1b2b33a0"),
                "caller_id": .object(["value": .string("681ccaf9c0a8016400b98a06818d57c7"), "link": .string("http://x")]),
                "sys_created_on": .string("2026-07-15 10:00:00"), "work_notes": .string(""),
            ]),
        ]),
    ])

    func renderer(_ format: OutputFormat = .table, zone: String = "UTC", width: Int = 80) throws -> ResultRenderer {
        try #require(JobDates.isTimeZone(zone))
        let display = JobDates(CoderSettings(), zoneName: zone)
        return ResultRenderer(format: format, dates: display, width: width)
    }

    @Test func recordsFitTheWidthWithIdentifyingFieldsFirstAndLongValuesCut() throws {
        let narrow = try renderer(width: 80).render(Self.records)
        #expect(narrow == """
            number      short_description            state  sys_id
            ----------  ---------------------------  -----  --------------------------------
            INC0010001  Email server is down since…  1      77c017c10d784d2d1c396fa61dce21ac
            INC0010002  VPN down                     2      9d5eaeb79eab303e8616f40c1b2b33a0
            2 records; 2 more fields not shown (choose with fields=, or :format json)
            """)
        let wide = try renderer(width: 160).render(Self.records)
        #expect(wide == """
            number      short_description                         state  sys_id                            caller_id                         sys_created_on
            ----------  ----------------------------------------  -----  --------------------------------  --------------------------------  --------------------------
            INC0010001  Email server is down since this morning…  1      77c017c10d784d2d1c396fa61dce21ac  Abel Tuter                        2026-01-05 08:00:00 +00:00
            INC0010002  VPN down                                  2      9d5eaeb79eab303e8616f40c1b2b33a0  681ccaf9c0a8016400b98a06818d57c7  2026-07-15 10:00:00 +00:00
            2 records
            """)
    }

    @Test func shortOfSpaceTheSysIDGoesFirstAndTheNumberStaysWhole() throws {
        let records: JSONValue = .object([
            "records": .array([
                .object([
                    "number": .string("INC0010001"), "short_description": .string("Email server is down"),
                    "state": .string("In Progress"), "sys_id": .string("77c017c10d784d2d1c396fa61dce21ac"),
                ]),
                .object([
                    "number": .string("INC0010002"), "short_description": .string("Unable to connect to VPN"),
                    "state": .string("New"), "sys_id": .string("9d5eaeb79eab303e8616f40c1b2b33a0"),
                ]),
            ])
        ])
        let sixty = try renderer(width: 60).render(records)
        #expect(sixty == """
            number      short_description         state
            ----------  ------------------------  -----------
            INC0010001  Email server is down      In Progress
            INC0010002  Unable to connect to VPN  New
            2 records; 1 more field not shown (choose with fields=, or :format json)
            """)
        let narrow = try renderer(width: 30).render(records)
        #expect(narrow == """
            number      short_d…  state
            ----------  --------  --------
            INC0010001  Email s…  In Prog…
            INC0010002  Unable …  New
            2 records; 1 more field not shown (choose with fields=, or :format json)
            """)
        let chosen = try renderer(width: 60).render(records, fields: ["number", "short_description", "state", "sys_id"])
        #expect(chosen == """
            number      short…  state   sys_id
            ----------  ------  ------  --------------------------------
            INC0010001  Email…  In Pr…  77c017c10d784d2d1c396fa61dce21ac
            INC0010002  Unabl…  New     9d5eaeb79eab303e8616f40c1b2b33a0
            2 records
            """)
    }

    @Test func chosenFieldsAreTheColumnsInTheirOrder() throws {
        let chosen = try renderer(width: 40).render(Self.records, fields: ["caller_id", "number", "short_description"])
        #expect(chosen == """
            caller_id      number      short_descri…
            -------------  ----------  -------------
            Abel Tuter     INC0010001  Email server…
            681ccaf9c0a8…  INC0010002  VPN down
            2 records
            """)
    }

    @Test func datesAreShownInTheChosenZoneAcrossDaylightSavingTime() throws {
        let paris = try renderer(zone: "Europe/Paris").render(Self.records, fields: ["number", "sys_created_on"])
        #expect(paris == """
            number      sys_created_on
            ----------  --------------------------
            INC0010001  2026-01-05 09:00:00 +01:00
            INC0010002  2026-07-15 12:00:00 +02:00
            2 records
            """)
        let newYork = try renderer(zone: "America/New_York").render(.string("2026-07-15 10:00:00"))
        #expect(newYork == "2026-07-15 06:00:00 -04:00")
    }

    @Test func oneRecordIsShownAsFieldAndValueLines() throws {
        guard case .object(let result) = Self.records, case .array(let items) = result["records"] else {
            Issue.record("no records")
            return
        }
        let record = try renderer(width: 50).render(.object(["record": items[0], "sys_id": .string("77c")]))
        #expect(record == """
            number             INC0010001
            short_description  Email server is down since thi…
            state              1
            sys_id             77c017c10d784d2d1c396fa61dce21…
            caller_id          Abel Tuter
            sys_created_on     2026-01-05 08:00:00 +00:00
            """)
    }

    @Test func jsonAndYAMLShowTheWholeValue() throws {
        let value: JSONValue = .object(["record": .object(["number": .string("INC1"), "state": .string("2"), "active": .string("true"), "opened": .string("2026-01-05 08:00:00")]), "count": .number(JSONNumber(1))])
        #expect(try renderer(.json, zone: "Europe/Paris").render(value) == """
            {
              "count": 1,
              "record": {
                "active": "true",
                "number": "INC1",
                "opened": "2026-01-05 09:00:00 +01:00",
                "state": "2"
              }
            }
            """)
        let yaml = try renderer(.yaml).render(value)
        #expect(yaml == """
            count: 1
            record:
              active: 'true'
              number: INC1
              opened: 2026-01-05 08:00:00 +00:00
              state: '2'
            """)
    }

    @Test func emittedYAMLReadsBackAsTheSameValue() throws {
        let value: JSONValue = .object([
            "text": .string("a: b # c"), "number": .string("007"), "empty": .string(""), "null": .null,
            "list": .array([.number(JSONNumber(1)), 2.5, .bool(false), .string("null"), .string("line\nbreak")]),
            "nested": .object(["quote": .string("it's \"x\""), "unicode": .string("café ✓")]),
        ])
        let root = try #require(try YAMLParser.parse(YAMLEmitter.text(of: value)))
        #expect(Self.value(of: root) == value)
    }

    /// A parsed node as a value, scalars resolved as job files read them.
    static func value(of node: YAMLNode) -> JSONValue {
        switch node.content {
        case .scalar:
            switch node.resolvedScalar {
            case .null: return .null
            case .bool(let flag): return .bool(flag)
            case .number(let number): return .number(number)
            case .nonFinite(let text): return .string(text)
            case .string(let text): return .string(text)
            case .none: return .string(node.scalarText ?? "")
            }
        case .sequence(let items): return .array(items.map(value))
        case .mapping(let pairs): return .object(JSONObject(pairs.map { ($0.name, value(of: $0.value)) }))
        }
    }
}
