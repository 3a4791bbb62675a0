import Foundation
import Testing

@testable import NowFlow

/// `:export csv|json|yaml FILE`: the last result written whole, dates as shown, CSV quoted as RFC 4180 says.
@Suite struct ReplExportTests {
    @Test func theLastResultIsExportedAsCSVJSONAndYAML() async throws {
        let harness = try ReplHarness()
        let file = { (name: String) in harness.directory.appendingPathComponent(name).path }
        let transcript = await harness.transcript([
            ":export csv \(file("none.csv"))",
            #"create incident short_description="He said \"hi\", then left" id=odd"#,
            ":tz Europe/Paris",
            "query incident number=INC0010001 fields=number,short_description,sys_created_on,caller_id display_value=true",
            ":export csv \(file("one.csv"))",
            ":export csv \(file("one.csv"))",
            ":export json \(file("one.json"))",
            "get incident ${steps.odd.sys_id} fields=number,short_description",
            ":export csv \(file("odd.csv"))",
            ":export yaml \(file("odd.yaml"))",
            "set team=Network",
            ":export csv \(file("set.csv"))",
            ":export xml \(file("set.xml"))",
        ])
        #expect(harness.normalized(transcript) == """
            nowflow> :export csv none.csv
            error: nothing to export: no step has a result yet (:export writes the last one, steps._)
            nowflow> create incident short_description="He said \\"hi\\", then left" id=odd
            odd (create): created incident <sys_id>
            number      short_description        state  sys_id
            ----------  -----------------------  -----  --------------------------------
            INC0010061  He said "hi", then left  1      <sys_id>
            1 record
            nowflow> :tz Europe/Paris
            time zone: Europe/Paris
            nowflow> query incident number=INC0010001 fields=number,short_description,sys_created_on,caller_id display_value=true
            _1 (query): 1 record from incident
            number      short_description     sys_created_on              caller_id
            ----------  --------------------  --------------------------  ----------
            INC0010001  Email server is down  2026-01-05 09:00:00 +01:00  Abel Tuter
            1 record
            nowflow> :export csv one.csv
            exported 1 record to one.csv (csv)
            nowflow> :export csv one.csv
            error: not exported: one.csv exists; choose another file
            nowflow> :export json one.json
            exported steps._ to one.json (json)
            nowflow> get incident ${steps.odd.sys_id} fields=number,short_description
            _2 (get): incident <sys_id>
            number             INC0010061
            short_description  He said "hi", then left
            nowflow> :export csv odd.csv
            exported 1 record to odd.csv (csv)
            nowflow> :export yaml odd.yaml
            exported steps._ to odd.yaml (yaml)
            nowflow> set team=Network
            _3 (set): vars.team
            nowflow> :export csv set.csv
            error: the last result (steps._) has no records to write as CSV; :export json set.csv writes it
            nowflow> :export xml set.xml
            error: :export takes csv, json or yaml and a file, as in :export csv incidents.csv

            """)
        let text = { (name: String) in harness.normalized(try String(contentsOfFile: file(name), encoding: .utf8)) }
        #expect(try text("one.csv") == "number,short_description,sys_created_on,caller_id\r\nINC0010001,Email server is down,2026-01-05 09:00:00 +01:00,Abel Tuter\r\n")
        #expect(try text("odd.csv") == "number,short_description\r\nINC0010061,\"He said \"\"hi\"\", then left\"\r\n")
        #expect(try text("one.json") == """
            {
              "count": 1,
              "records": [
                {
                  "caller_id": {
                    "display_value": "Abel Tuter",
                    "link": "http://localhost/api/now/table/sys_user/<sys_id>"
                  },
                  "number": "INC0010001",
                  "short_description": "Email server is down",
                  "sys_created_on": "2026-01-05 09:00:00 +01:00",
                  "sys_id": "<sys_id>"
                }
              ]
            }

            """)
        #expect(try text("odd.yaml") == """
            record:
              number: INC0010061
              short_description: He said "hi", then left
              sys_id: <sys_id>
            sys_id: <sys_id>

            """)
        #expect(!FileManager.default.fileExists(atPath: file("none.csv")))
        #expect(!FileManager.default.fileExists(atPath: file("set.csv")))
    }

    @Test func csvQuotesWhatItMust() {
        #expect(CSVTable(columns: ["a", "b"], rows: [["a": "x,y", "b": "line\nbreak"], ["a": " padded", "b": "plain"], ["b": "\"q\""]]).text ==
            "a,b\r\n\"x,y\",\"line\nbreak\"\r\n\" padded\",plain\r\n,\"\"\"q\"\"\"\r\n")
    }

    /// A CRLF (one `Character`), and a `,` or `"` that a combining mark follows (one `Character` with it), are
    /// quoted and doubled as their bytes are, and read back as written (a CRLF inside a value as a line feed).
    @Test func csvQuotesSeparatorsInsideGraphemeClusters() throws {
        let table = CSVTable(columns: ["a", "b"], rows: [["a": "two\r\nlines", "b": "x,\u{301}y"], ["a": "\"\u{301}q", "b": "ok"]])
        #expect(table.text == "a,b\r\n\"two\r\nlines\",\"x,\u{301}y\"\r\n\"\"\"\u{301}q\",ok\r\n")
        #expect(
            try CSVTable(table.text).rows == [["a": "two\nlines", "b": "x,\u{301}y"], ["a": "\"\u{301}q", "b": "ok"]])
    }
}
