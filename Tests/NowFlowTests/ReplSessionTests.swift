import Foundation
import LocalInstance
import NowData
import Testing

@testable import NowFlow

@Suite struct ReplSessionTests {
    @Test func typedStepsKeepTheirResultsAndAreShownAsTables() async throws {
        let harness = try ReplHarness(width: 80)
        let transcript = await harness.transcript([
            "query incident active=true priority=1 fields=number,short_description,sys_id limit=2",
            "get incident ${steps._.records.0.sys_id} fields=number,caller_id,opened_at display_value=true id=first",
            ":tz Europe/Paris",
            ":show steps.first.record",
            ":format yaml",
            ":show steps._1.records.1",
            ":format json",
            ":show steps.first.record.number",
            ":format table",
            "set team=Network",
            "query sys_user_group name=${vars.team} fields=name,manager display_value=all",
            ":vars",
        ])
        #expect(transcript == """
            nowflow> query incident active=true priority=1 fields=number,short_description,sys_id limit=2
            _1 (query): 2 records from incident
            number      short_description             sys_id
            ----------  ----------------------------  --------------------------------
            INC0010001  Email server is down          77c017c10d784d2d1c396fa61dce21ac
            INC0010019  Laptop screen flickering (2)  65fef1659680c06fcc47e7884cd1fccd
            2 records
            nowflow> get incident ${steps._.records.0.sys_id} fields=number,caller_id,opened_at display_value=true id=first
            first (get): incident 77c017c10d784d2d1c396fa61dce21ac
            number     INC0010001
            caller_id  Abel Tuter
            opened_at  2026-01-05 08:00:00 +00:00
            nowflow> :tz Europe/Paris
            time zone: Europe/Paris
            nowflow> :show steps.first.record
            number     INC0010001
            caller_id  Abel Tuter
            opened_at  2026-01-05 09:00:00 +01:00
            nowflow> :format yaml
            format: yaml
            nowflow> :show steps._1.records.1
            number: INC0010019
            short_description: Laptop screen flickering (2)
            sys_id: 65fef1659680c06fcc47e7884cd1fccd
            nowflow> :format json
            format: json
            nowflow> :show steps.first.record.number
            "INC0010001"
            nowflow> :format table
            format: table
            nowflow> set team=Network
            _2 (set): vars.team
            nowflow> query sys_user_group name=${vars.team} fields=name,manager display_value=all
            _3 (query): 1 record from sys_user_group
            name     manager
            -------  -----------
            Network  Bud Richman
            1 record
            nowflow> :vars
            vars.team = 'Network'
            steps._1 = {"count":2,"records":[{"number":"INC0010001","short_descr...
            steps.first = {"record":{"caller_id":{"display_value":"Abel Tuter","lin...
            steps._2 = {"team":"Network"}
            steps._3 = {"count":1,"records":[{"manager":{"display_value":"Bud Ri...
            steps._ is steps._3

            """)
    }

    @Test func everyErrorIsOneMessageAndTheSessionGoesOn() async throws {
        let harness = try ReplHarness(width: 80)
        _ = await harness.transcript(["query incident number=INC0010001 fields=number id=kept"])
        harness.instance.setFaults(FaultInjection(scripted: [.drop]))
        let transcript = await harness.transcript([
            "qurey incident",
            "extract steps.kept",
            "query: { tabel: incident, limit: 2 }",
            "query incident short_description=\"Printer",
            "get incident",
            "query incident limit=two",
            "get incident ${steps.missing.sys_id}",
            "query incident limit=1",
            "get incident 0123456789abcdef0123456789abcdef",
            ":show steps.kept.records.0.number ==",
            ":show vars.nothing",
            ":format xml",
            ":tz Mars/Olympus",
            ":next",
            ":frmat json",
            ":vars",
        ])
        #expect(transcript == """
            nowflow> qurey incident
            error at column 1: 'qurey' is not a step kind or a command; did you mean 'query'? (a step: query incident active=true, or query: { table: incident }; :help lists the commands)
            nowflow> extract steps.kept
            error at column 1: extract has no short form; write it as YAML, as in: extract: { ... }
            nowflow> query: { tabel: incident, limit: 2 }
            error at column 8: query needs table:
            error at column 10: unknown key 'tabel' in query; did you mean 'table'?
            nowflow> query incident short_description="Printer
            error at column 34: the quote opened here is not closed
            nowflow> get incident
            error at column 1: get needs sys_id:
            nowflow> query incident limit=two
            error at column 22: limit must be a whole number, not a string
            nowflow> get incident ${steps.missing.sys_id}
            error at column 16: steps.missing: no step has the id 'missing'
            nowflow> query incident limit=1
            error: _1 (query): network error: system error: the network connection was lost (URL error -1005)
            nowflow> get incident 0123456789abcdef0123456789abcdef
            error: _1 (get): bad response 404 from GET /api/now/table/incident/0123456789abcdef0123456789abcdef: No Record found (Record doesn't exist or ACL restricts the record retrieval)
            nowflow> :show steps.kept.records.0.number ==
            error at column 37: bad expression: expected a value at the end of the expression
            nowflow> :show vars.nothing
            error: vars.nothing: no variable 'nothing' is set
            nowflow> :format xml
            error: :format takes table, json or yaml, not 'xml'
            nowflow> :tz Mars/Olympus
            error: 'Mars/Olympus' is not a time zone; use UTC, local or an IANA name such as Europe/Paris
            nowflow> :next
            error: no job is loaded; start the REPL with a job file: nowflow repl JOB.yaml
            nowflow> :frmat json
            error at column 1: unknown command ':frmat'; did you mean ':format'? (:help lists them)
            nowflow> :vars
            steps.kept = {"count":1,"records":[{"number":"INC0010001"}]}
            steps._ is steps.kept

            """)
    }
}
