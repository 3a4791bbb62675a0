import Foundation
import LocalInstance
import NowData
import Testing

@testable import NowFlow

/// Issue 26: a query sorted by a field of its own (`order_by:`, `order_by_desc:`) pages by key on that sort with
/// `sys_id` as the tie-breaker (one `^NQ` group per sort term, each repeating the query's conditions), reads past
/// pages the platform's read ACLs thin, and falls back to offset paging, saying why, for a sort it cannot page by.
@Suite struct KeysetPagingTests {
    /// The `sysparm_query` of each GET of `table` the runs sent, sys_ids replaced.
    private func queries(_ harness: RunHarness, _ table: String) -> [String] {
        harness.requests.filter { $0.method == "GET" && $0.path == "/api/now/table/\(table)" }.map { request in
            RunHarness.normalized(request.queryItems.first { $0.name == "sysparm_query" }?.value ?? "")
        }
    }

    /// The records of `table` that match `query`, asked of the instance in one page: each with `fields`.
    private func read(_ harness: RunHarness, _ table: String, _ query: String, _ fields: String) throws -> [JSONValue] {
        let reply = harness.instance.reply(
            to: NowHTTPRequest(
                method: "GET", path: "/api/now/table/\(table)",
                queryItems: [
                    URLQueryItem(name: "sysparm_query", value: query), URLQueryItem(name: "sysparm_fields", value: fields),
                ],
                headers: ["Authorization": "Basic " + Data("admin:admin".utf8).base64EncodedString()]))
        guard case .respond(let response, _) = reply, case .array(let records) = try JSONValue(json: response.body)["result"]
        else { throw CocoaError(.fileReadUnknown) }
        return records
    }

    /// Creates a record of `table` with `fields`.
    private func create(_ harness: RunHarness, _ table: String, _ fields: [String: String]) throws {
        let body = JSONValue.object(JSONObject(fields.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
        let reply = harness.instance.reply(
            to: NowHTTPRequest(
                method: "POST", path: "/api/now/table/\(table)",
                headers: [
                    "Authorization": "Basic " + Data("admin:admin".utf8).base64EncodedString(),
                    "Content-Type": "application/json",
                ], body: Data(body.jsonText().utf8)))
        guard case .respond(let response, _) = reply, response.statusCode == 201 else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// The lines of a JSON-lines file, parsed.
    private func lines(_ path: String) throws -> [JSONValue] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { try JSONValue(json: Data($0.utf8)) }
    }

    private func temporaryFile(_ name: String) throws -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keyset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (directory, directory.appendingPathComponent(name).path)
    }

    @Test func aQuerySortedByNumberPagesByNumberThenSysID() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: By number
            steps:
              - id: all
                query: { table: incident, where: { active: true }, order_by: number, page_size: 10, fields: [short_description] }
              - id: each
                foreach: steps.all.records
                as: incident
                steps:
                  - update: { table: incident, sys_id: "${incident.sys_id}", fields: { description: "seen" } }
            """)
        #expect(result.status == .passed, "\(harness.lines)")
        let active = try read(harness, "incident", "active=true^ORDERBYnumber^ORDERBYsys_id", "number,sys_id")
        #expect(active.count > 20)
        #expect(
            harness.lines.first
                == "ok   step 1 'all' (query): first 10 incident records, keyed by number and sys_id; the foreach over steps.all.records reads the rest (N ms)"
        )
        #expect(harness.lines.last == "ok   step 2 'each' (foreach): \(active.count) items (N ms)")
        // Each record once.
        let seen = try read(harness, "incident", "description=seen^ORDERBYnumber^ORDERBYsys_id", "number")
        #expect(seen.map { $0["number"]?.string } == active.map { $0["number"]?.string })
        // After the tenth: later numbers, or the same number and a later sys_id; each group repeats the where.
        let numbers = active.compactMap { $0["number"]?.string }
        func after(_ number: String) -> String {
            "active=true^number>\(number)^NQactive=true^number>=\(number)^number<=\(number)^sys_id><sys_id>"
                + "^ORDERBYnumber^ORDERBYsys_id"
        }
        // The page after each page; after the last (short) one, asked with the count, which shows nothing after it;
        // after a last page that is full, an empty page, then the same asked with the count.
        var expected = ["active=true^ORDERBYnumber^ORDERBYsys_id"]
        expected += stride(from: 0, to: numbers.count, by: 10).map { after(numbers[min($0 + 10, numbers.count) - 1]) }
        if numbers.count % 10 == 0 { expected.append(after(numbers[numbers.count - 1])) }
        #expect(queries(harness, "incident") == expected)
    }

    @Test func emptyValuesSortFirstAscendingAndLastDescendingAndTheKeyAgrees() async throws {
        let harness = try RunHarness()
        // Empty cities, repeated ones, and ones that differ only by letter case (which `=` would not tell apart).
        let cities = ["", "Paris", "paris", "", "Zurich", "PARIS", "", "berlin", "Berlin", "", "Paris", "zurich", "", "Amsterdam", "Paris"]
        for (index, city) in cities.enumerated() {
            try create(harness, "cmn_location", ["name": "keyset-\(index)", "city": city])
        }
        // The local instance sorts an empty value first ascending, last descending (SQL's NULL, as the platform).
        let ascending = try read(harness, "cmn_location", "nameSTARTSWITHkeyset-^ORDERBYcity^ORDERBYsys_id", "sys_id,city")
        #expect(ascending.prefix(5).allSatisfy { $0["city"]?.string == "" })
        #expect(ascending.dropFirst(5).allSatisfy { $0["city"]?.string != "" })
        let descending = try read(
            harness, "cmn_location", "nameSTARTSWITHkeyset-^ORDERBYDESCcity^ORDERBYsys_id", "sys_id,city")
        #expect(descending.suffix(5).allSatisfy { $0["city"]?.string == "" })
        // Byte by byte: every lower-case letter after every upper-case one.
        #expect(
            descending.prefix(10).map { $0["city"]?.string }
                == ["zurich", "paris", "berlin", "Zurich", "Paris", "Paris", "Paris", "PARIS", "Berlin", "Amsterdam"])

        let (directory, path) = try temporaryFile("cities.jsonl")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (sort, reference) in [("order_by", ascending), ("order_by_desc", descending)] {
            let result = try await harness.run(
                """
                name: Cities
                steps:
                  - id: all
                    query: { table: cmn_location, query: "nameSTARTSWITHkeyset-", \(sort): city, page_size: 2, fields: [name], to: "\(path)", overwrite: true }
                """)
            #expect(result.status == .passed, "\(harness.lines)")
            let direction = sort == "order_by" ? "city" : "city descending"
            #expect(
                harness.lines.last
                    == "ok   step 1 'all' (query): 15 records from cmn_location, keyed by \(direction) and sys_id, streamed (not kept), written to \(path) (N ms)"
            )
            // Every record once, in the instance's own order; the city, read for the key only, is not written.
            let written = try lines(path)
            #expect(written.map { $0["sys_id"]?.string } == reference.map { $0["sys_id"]?.string }, "\(sort)")
            #expect(written.allSatisfy { $0["city"] == nil && $0["name"]?.string?.hasPrefix("keyset-") == true })
        }
        // After an empty value, ascending: any value, or empty with a later sys_id.
        #expect(
            queries(harness, "cmn_location").contains(
                "nameSTARTSWITHkeyset-^cityISNOTEMPTY^NQnameSTARTSWITHkeyset-^cityISEMPTY^sys_id><sys_id>^ORDERBYcity^ORDERBYsys_id"))
        // After a value, descending: a smaller one or empty, or the same with a later sys_id.
        #expect(
            queries(harness, "cmn_location").contains(
                "nameSTARTSWITHkeyset-^city<Paris^ORcityISEMPTY^NQnameSTARTSWITHkeyset-^city>=Paris^city<=Paris^sys_id><sys_id>^ORDERBYDESCcity^ORDERBYsys_id"))
    }

    @Test func aSortedQueryWhoseRecordsFitOnePageTakesOneRequest() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: One page
            steps:
              - id: few
                query: { table: incident, where: { priority: 1 }, order_by: number, fields: [number] }
              - assert: "steps.few.records.0.number < steps.few.records.1.number"
            """)
        #expect(result.status == .passed, "\(harness.lines)")
        // The first page asked with the count, which shows it holds every record.
        #expect(queries(harness, "incident") == ["priority=1^ORDERBYnumber^ORDERBYsys_id"])
    }

    @Test func aQuerySortedBySeveralFieldsPagesByEachThenSysID() async throws {
        let harness = try RunHarness()
        let places = [("", ""), ("Paris", "1 Rue"), ("Paris", ""), ("Paris", "2 Rue"), ("", "9 Way"), ("Oslo", "1 Gate"),
            ("Paris", "1 Rue"), ("Oslo", "1 Gate"), ("", "9 Way"), ("Paris", "2 rue"), ("Oslo", "")]
        for (index, place) in places.enumerated() {
            try create(harness, "cmn_location", ["name": "multi-\(index)", "city": place.0, "street": place.1])
        }
        let sort = "^ORDERBYcity^ORDERBYDESCstreet^ORDERBYsys_id"
        let reference = try read(harness, "cmn_location", "nameSTARTSWITHmulti-" + sort, "sys_id")
        let (directory, path) = try temporaryFile("multi.jsonl")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await harness.run(
            """
            name: Two sorts
            steps:
              - query: { table: cmn_location, query: "nameSTARTSWITHmulti-", order_by: city, order_by_desc: street, page_size: 2, fields: [name], to: "\(path)" }
            """)
        #expect(result.status == .passed, "\(harness.lines)")
        #expect(
            harness.lines.last
                == "ok   step 1 (query): 11 records from cmn_location, keyed by city, street descending and sys_id, streamed (not kept), written to \(path) (N ms)")
        #expect(try lines(path).map { $0["sys_id"]?.string } == reference.map { $0["sys_id"]?.string })
        // After Oslo, 1 Gate: a later city, or Oslo and a smaller or empty street, or Oslo, 1 Gate and a later sys_id.
        #expect(
            queries(harness, "cmn_location").contains(
                "nameSTARTSWITHmulti-^city>Oslo^NQnameSTARTSWITHmulti-^city>=Oslo^city<=Oslo^street<1 Gate^ORstreetISEMPTY"
                    + "^NQnameSTARTSWITHmulti-^city>=Oslo^city<=Oslo^street>=1 Gate^street<=1 Gate^sys_id><sys_id>" + sort))
    }

    @Test func aQueryOfSeveralGroupsRepeatsEachOfThemInEachGroupOfTheKey() async throws {
        let harness = try RunHarness()
        let (directory, path) = try temporaryFile("two.jsonl")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await harness.run(
            """
            name: Two groups
            steps:
              - query: { table: incident, query: "priority=1^NQpriority=2", order_by_desc: number, page_size: 3, fields: [number], to: "\(path)" }
            """)
        #expect(result.status == .passed, "\(harness.lines)")
        let reference = try read(harness, "incident", "priority=1^NQpriority=2^ORDERBYDESCnumber^ORDERBYsys_id", "sys_id")
        #expect(reference.count > 3)
        // The local instance reads ^NQ as OR between whole queries.
        #expect(
            Set(reference.compactMap { $0["sys_id"]?.string })
                == Set(try harness.sysIDs("incident", "priority=1") + harness.sysIDs("incident", "priority=2")))
        #expect(try lines(path).map { $0["sys_id"]?.string } == reference.map { $0["sys_id"]?.string })
        let second = try #require(queries(harness, "incident").dropFirst().first)
        let number = try #require(try lines(path)[2]["number"]?.string)
        #expect(
            second
                == "priority=1^number<\(number)^ORnumberISEMPTY^NQpriority=2^number<\(number)^ORnumberISEMPTY"
                + "^NQpriority=1^number>=\(number)^number<=\(number)^sys_id><sys_id>"
                + "^NQpriority=2^number>=\(number)^number<=\(number)^sys_id><sys_id>^ORDERBYDESCnumber^ORDERBYsys_id")
    }

    @Test func aSortTheKeyCannotFollowPagesByOffsetAndSaysWhy() async throws {
        let harness = try RunHarness()
        for (sort, reason) in [
            ("caller_id", "order_by caller_id: incident.caller_id is a reference, which sorts by its display value"),
            ("caller_id.name", "order_by caller_id.name: a dot-walked field sorts through its reference"),
            ("active", "order_by active: incident.active is a boolean, which a condition compares by = and != only"),
        ] {
            let result = try await harness.run(
                """
                name: Offset
                steps:
                  - id: all
                    query: { table: incident, order_by: \(sort), page_size: 25, fields: [number] }
                  - assert: "steps.all.count == 60"
                """)
            #expect(result.status == .passed, "\(harness.lines)")
            #expect(
                harness.lines.dropLast().last
                    == "ok   step 1 'all' (query): 60 records from incident, by offset (\(reason)), streamed (not kept) (N ms)")
        }
    }

    @Test func aWhereTooLargeToRepeatInEachGroupIsRefusedBeforeAnythingIsSent() async throws {
        let harness = try RunHarness()
        let conditions = (0..<5_000).map { "number!=X\($0)" }.joined(separator: "^")
        let result = try await harness.run(
            """
            name: Large
            steps:
              - query: { table: incident, query: "\(conditions)", order_by: number, page_size: 10 }
            """)
        #expect(result.status == .failed)
        #expect(
            harness.lines
                == [
                    "FAIL step 1 (query): query: paging by number and sys_id repeats the query's 5000 conditions in 2 ^NQ groups, 10004 conditions in all; an encoded query holds at most 10000; give the query paging: offset, or fewer conditions; nothing was sent (N ms)"
                ])
        #expect(queries(harness, "incident").isEmpty)
    }

    /// A sort value a `where:` value could not be fails the step at the page after the record that holds it, and
    /// names `paging: offset`, which reads the same records. The checks read bytes: a CRLF, or a `^`, `:` or `=`
    /// with a combining mark after it (or a prepended mark before it), is one Swift `Character` unequal to the
    /// character it holds.
    @Test func aSortValueTheKeyCannotCarryFailsTheStepAndNamesPagingOffset() async throws {
        let harness = try RunHarness()
        let caret = "the city of the last record read holds '^', which an encoded query reads as the start of a new "
            + "condition; ServiceNow has no escape for '^', so the value is refused"
        let lineBreak = "the city of the last record read holds a line break, which would end the encoded query; the value is refused"
        let script = "the city of the last record read holds 'javascript:', which the instance would run as a script; the value is refused"
        let startsWithEquals = "the city of the last record read starts with '=', which an encoded query would read as part of the operator before it"
        for (index, (city, problem)) in [
            ("a^b", caret), ("a^\u{301}b", caret), ("a\u{600}^b", caret),
            ("line\nbreak", lineBreak), ("line\r\nbreak", lineBreak), ("line\rbreak", lineBreak),
            ("JavaScript:gs.log(1)", script), ("javascript:\u{301}gs.log(1)", script),
            ("=x", startsWithEquals), ("=\u{301}x", startsWithEquals),
        ].enumerated() {
            try create(harness, "cmn_location", ["name": "hostile\(index)-1", "city": city])
            try create(harness, "cmn_location", ["name": "hostile\(index)-2", "city": "zzz"])
            let keyed = try await harness.run(
                """
                name: Hostile
                steps:
                  - query: { table: cmn_location, query: "nameSTARTSWITHhostile\(index)-", order_by: city, page_size: 1, fields: [name] }
                """)
            #expect(keyed.status == .failed, "\(city.debugDescription)")
            #expect(
                harness.lines.last == "FAIL step 1 (query): paging by key: \(problem); give the query paging: offset (N ms)",
                "\(city.debugDescription)")
            let offset = try await harness.run(
                """
                name: Hostile
                steps:
                  - id: all
                    query: { table: cmn_location, query: "nameSTARTSWITHhostile\(index)-", order_by: city, page_size: 1, fields: [name], paging: offset }
                  - assert: "steps.all.count == 2"
                """)
            #expect(offset.status == .passed, "\(city.debugDescription): \(harness.lines)")
        }
    }

    @Test func aKeyedReadGoesOnPastPagesTheReadACLsThinned() async throws {
        let harness = try RunHarness()
        let all = try harness.sysIDs("incident", "ORDERBYsys_id")
        #expect(all.count == 60)
        // As the platform's read ACLs do after the page's limit: records 5 to 19 in the sort (three whole pages of
        // five) and every seventh one are left out of the answers, whose count still holds them.
        let hidden = Set(all[5..<20] + stride(from: 0, to: all.count, by: 7).map { all[$0] })
        let visible = all.filter { !hidden.contains($0) }
        let result = try await harness.run(
            """
            name: Thinned
            steps:
              - id: all
                query: { table: incident, page_size: 5, fields: [number] }
              - foreach: steps.all.records
                as: incident
                steps:
                  - update: { table: incident, sys_id: "${incident.sys_id}", fields: { description: "visible" } }
            """,
            answering: { request, response in
                guard request.method == "GET", request.path == "/api/now/table/incident",
                    case .object(var body) = try JSONValue(json: response.body), case .array(let records)? = body["result"]
                else { return response }
                body["result"] = .array(records.filter { !hidden.contains($0["sys_id"]?.string ?? "") })
                var thinned = response
                thinned.body = Data(JSONValue.object(body).jsonText().utf8)
                return thinned
            })
        #expect(result.status == .passed, "\(harness.lines)")
        #expect(Set(try harness.sysIDs("incident", "description=visible")) == Set(visible))
        #expect(result.results["all"] == ["count": .number(JSONNumber(visible.count)), "streamed": true])
        // The pages emptied whole are passed by offset from the same key, asked with the count.
        let passing = harness.requests.filter { $0.path == "/api/now/table/incident" && $0.method == "GET" }.compactMap {
            $0.queryItems.first { $0.name == "sysparm_offset" }?.value
        }
        #expect(passing == ["5", "10", "15"])
    }
}
