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
            sys_id     77c017c10d784d2d1c396fa61dce21ac
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
            "query incident id=_",
            "query incident limit=1",
            "get incident 0123456789abcdef0123456789abcdef",
            ":show steps.kept.records.0.number ==",
            ":show vars.nothing",
            ":show steps.kept.records.5.number",
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
            nowflow> query incident id=_
            error at column 19: the id '_' always names the last result; choose another id
            nowflow> query incident limit=1
            error: (query): network error: system error: the connection was lost
            nowflow> get incident 0123456789abcdef0123456789abcdef
            error: (get): bad response 404 from GET /api/now/table/incident/0123456789abcdef0123456789abcdef: No Record found (Record doesn't exist or ACL restricts the record retrieval)
            nowflow> :show steps.kept.records.0.number ==
            error at column 37: bad expression: expected a value at the end of the expression
            nowflow> :show vars.nothing
            error: vars.nothing: no variable 'nothing' is set
            nowflow> :show steps.kept.records.5.number
            error: no value at 'steps.kept.records.5' in path 'steps.kept.records.5.number': index 5 out of range (1 element)
            nowflow> :format xml
            error: :format takes table, json or yaml, not 'xml'
            nowflow> :tz Mars/Olympus
            error: 'Mars/Olympus' is not a time zone; use UTC, local or an IANA name such as Europe/Paris
            nowflow> :next
            error: no job is loaded; start the REPL with a job file: nowflow repl JOB.yaml
            nowflow> :frmat json
            error at column 1: unknown command ':frmat'; did you mean ':format'? (:help lists them)
            nowflow> :vars
            steps.kept = {"count":1,"records":[{"number":"INC0010001","sys_id":"77...
            steps._ is steps.kept

            """)
    }

    static let walkedJob = """
        name: Walk
        vars: { caller: abel.tuter, ready: false }
        steps:
          - id: caller
            query: { table: sys_user, where: { user_name: "${vars.caller}" }, fields: [user_name, name, sys_id], limit: 1 }
          - assert: { that: "vars.ready == true", message: not ready yet }
          - id: incident
            create: { table: incident, fields: { short_description: Walked, caller_id: "${steps.caller.records.0.sys_id}" } }
        finally:
          - delete: { table: incident, sys_id: "${steps.incident.sys_id}" }
        """

    @Test func aJobIsWalkedStepByStepWithStepsTypedBetween() async throws {
        let harness = try ReplHarness(job: Self.walkedJob, width: 100)
        let transcript = await harness.transcript([
            ":list", ":next", ":next", "set ready=true", ":list", ":run", ":list", ":next",
        ])
        #expect(harness.normalized(transcript) == """
            nowflow [1/3]> :list
            Walk (job.yaml)
            => 1. 'caller' (query) sys_user user_name=${vars.caller} fields=user_name,name,sys_id limit=1
               2. (assert) that="vars.ready == true" message="not ready yet"
               3. 'incident' (create) incident short_description=Walked caller_id=${steps.caller.records.0.sys_…
              finally:
               1. (delete) incident ${steps.incident.sys_id}
            nowflow [1/3]> :next
            step 1/3 'caller' (query): 1 record from sys_user
            user_name   name        sys_id
            ----------  ----------  --------------------------------
            abel.tuter  Abel Tuter  <sys_id>
            1 record
            nowflow [2/3]> :next
            error: step 2/3 '_1' (assert): not ready yet (false == true is false)
            (the step stays current: fix what is needed, then :next runs it again)
            nowflow [2/3]> set ready=true
            _1 (set): vars.ready
            nowflow [2/3]> :list
            Walk (job.yaml)
               1. 'caller' (query) sys_user user_name=${vars.caller} fields=user_name,name,sys_id limit…  passed
            => 2. (assert) that="vars.ready == true" message="not ready yet"  assertion failed
               3. 'incident' (create) incident short_description=Walked caller_id=${steps.caller.records.0.sys_…
              finally:
               1. (delete) incident ${steps.incident.sys_id}
            nowflow [2/3]> :run
            step 2/3 '_2' (assert): holds: vars.ready == true
            step 3/3 'incident' (create): created incident <sys_id>
            number      short_description  state  sys_id                            caller_id
            ----------  -----------------  -----  --------------------------------  ----------------------------
            INC0010061  Walked             1      <sys_id>  dbbd5520a9542c7bfd1b56b7cc0…
            1 record
            the job's steps have all run
            finally:
            finally 1 (delete): deleted incident <sys_id>
            nowflow> :list
            Walk (job.yaml)
               1. 'caller' (query) sys_user user_name=${vars.caller} fields=user_name,name,sys_id limit…  passed
               2. (assert) that="vars.ready == true" message="not ready yet"  passed
               3. 'incident' (create) incident short_description=Walked caller_id=${steps.caller.record…  passed
              finally (ran):
               1. (delete) incident ${steps.incident.sys_id}
            nowflow> :next
            the job's steps have all run

            """)
        #expect(await harness.session.finish() == "")
    }

    @Test func theJobsFinallyRunsWhenTheSessionEndsIfTheJobStarted() async throws {
        let job = """
            name: Clean-up
            steps:
              - id: incident
                create: { table: incident, fields: { short_description: Left behind } }
              - assert: steps.incident.record.state == 2
            finally:
              - delete: { table: incident, sys_id: "${steps.incident.sys_id}" }
            """
        let unstarted = try ReplHarness(job: job)
        #expect(await unstarted.session.finish() == "")
        let harness = try ReplHarness(job: job)
        _ = await harness.transcript([":next"])
        #expect(harness.normalized(await harness.session.finish()) == """
            finally:
            finally 1 (delete): deleted incident <sys_id>
            """)
        #expect(await harness.session.finish() == "")
        #expect(await harness.session.handle("query incident short_description='Left behind'").text == "_1 (query): 0 records from incident\nno records")
    }

    @Test func aSavedSessionRunsWithTheRunnerAndGivesTheSameResults() async throws {
        let harness = try ReplHarness(job: Self.walkedJob)
        let path = harness.directory.appendingPathComponent("saved.yaml").path
        let transcript = await harness.transcript([
            ":next",
            "query incident number=INC0010001 fields=number,sys_id",
            "get incident ${steps._.records.0.sys_id} fields=number id=x",
            "query incident number=INC0010002 fields=number,sys_id id=x",
            "get incident ${steps.x.records.0.sys_id} fields=number,short_description",
            "assert steps._.record.number == 'INC0010002'",
            "set ready=true",
            ":run",
            ":save \(path)",
        ])
        #expect(transcript.hasSuffix("saved 9 steps to \(path) (nowflow run \(path) runs them again)\n"))
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved == """
            name: Walk
            description: Saved from a nowflow repl session.
            vars:
              caller: abel.tuter
              ready: false
            steps:
            - id: caller
              query: { table: sys_user, where: { user_name: "${vars.caller}" }, fields: [user_name, name, sys_id], limit: 1 }
            - id: _1
              query:
                table: incident
                fields: number,sys_id
                where:
                  number: INC0010001
            - id: x
              get:
                table: incident
                sys_id: ${steps._1.records.0.sys_id}
                fields: number
            - id: x_2
              query:
                table: incident
                fields: number,sys_id
                where:
                  number: INC0010002
            - id: _2
              get:
                table: incident
                sys_id: ${steps.x_2.records.0.sys_id}
                fields: number,short_description
            - id: _3
              assert: 'steps._2.record.number == ''INC0010002'''
            - id: _4
              set:
                ready: true
            - id: _5
              assert:
                that: 'vars.ready == true'
                message: not ready yet
            - id: incident
              create: { table: incident, fields: { short_description: Walked, caller_id: "${steps.caller.records.0.sys_id}" } }
            finally:
            - delete:
                table: incident
                sys_id: '${steps.incident.sys_id}'

            """)
        let job = try JobFile.load(path: path)
        let result = await JobRunner(job: job, options: .inProcess(on: harness.instance)).run()
        #expect(result.status == .passed)
        let session = await harness.session.scope.steps
        for id in ["caller", "_1", "_2", "_3"] {
            #expect(result.results[id] == session[id]?.json, "steps.\(id)")
        }
        #expect(result.results["x_2"] == session["x"]?.json)
    }

    @Test func cancellingARunningStepKeepsTheSession() async throws {
        let harness = try ReplHarness()
        _ = await harness.transcript(["set team=Network"])
        harness.instance.setFaults(FaultInjection(latency: .seconds(30)))
        let session = harness.session
        let running = Task { await session.handle("query incident limit=1") }
        running.cancel()
        #expect(await running.value.text == "cancelled: (query) was interrupted (Ctrl-C); results and variables are as before it")
        harness.instance.setFaults(.none)
        let transcript = await harness.transcript([":vars", "query sys_user_group name=${vars.team} fields=name"])
        #expect(transcript == """
            nowflow> :vars
            vars.team = 'Network'
            steps._1 = {"team":"Network"}
            steps._ is steps._1
            nowflow> query sys_user_group name=${vars.team} fields=name
            _2 (query): 1 record from sys_user_group
            name
            -------
            Network
            1 record

            """)
    }

    @Test func aSavedSessionKeepsTheSessionsInstance() async throws {
        let instance = try LocalInstance(options: LocalInstance.Options(log: { _ in }))
        defer { instance.close() }
        let session = try ReplSession(options: .inProcess(on: instance), instanceName: "dev")
        _ = await session.handle("query incident number=INC0010001 fields=number")
        #expect(await session.savedJobText() == """
            name: REPL session
            description: Saved from a nowflow repl session.
            instance: dev
            steps:
            - id: _1
              query:
                table: incident
                fields: number
                where:
                  number: INC0010001

            """)
    }

    @Test func aJobStepThatFailsUnderContinueOnErrorLetsTheJobGoOn() async throws {
        let harness = try ReplHarness(job: """
            name: Lenient
            steps:
              - get: { table: incident, sys_id: nope }
                continue_on_error: true
              - when: "false"
                query: { table: incident }
              - id: last
                query: { table: incident, where: { number: INC0010001 }, fields: [number] }
            """)
        let transcript = await harness.transcript([":run", ":list"])
        #expect(harness.normalized(transcript) == """
            nowflow [1/3]> :run
            error: step 1/3 '_1' (get): bad response 404 from GET /api/now/table/incident/nope: No Record found (Record doesn't exist or ACL restricts the record retrieval) (continue_on_error: going on)
            step 2/3 '_1' (query): skipped (when was false)
            step 3/3 'last' (query): 1 record from incident
            number
            ----------
            INC0010001
            1 record
            the job's steps have all run
            nowflow> :list
            Lenient (job.yaml)
               1. (get) incident nope  failed
               2. (query) incident  skipped
               3. 'last' (query) incident number=INC0010001 fields=number  passed

            """)
    }
}
