import Foundation
import LocalInstance
import NowData
import Synchronization
import Testing

@testable import NowFlow

@Suite struct JobRunnerTests {
    /// A query's or a get's records always have their sys_id, even when `fields:` leaves it out: a later step
    /// names the record by it (`steps.p1.records.0.sys_id` validates, and runs).
    @Test func sysIDIsReadEvenWhenFieldsLeavesItOut() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Ids
            steps:
              - id: p1
                query: { table: incident, where: { number: INC0010001 }, fields: [number] }
              - id: one
                get: { table: incident, sys_id: "${steps.p1.records.0.sys_id}", fields: [short_description] }
            """)
        #expect(result.status == .passed, "\(result.error ?? "")")
        #expect(
            result.results["p1"]
                == ["count": 1, "records": [["number": "INC0010001", "sys_id": "77c017c10d784d2d1c396fa61dce21ac"]]])
        #expect(
            result.results["one"]?["record"]
                == ["short_description": "Email server is down", "sys_id": "77c017c10d784d2d1c396fa61dce21ac"])
    }

    @Test func theLifecycleRunsAndCleansUp() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(ContractExample.text, environment: ContractExample.environment)
        #expect(result.status == .passed)
        #expect(result.error == nil)
        #expect(
            harness.lines == [
                "ok   step 1 'caller' (query): 1 record from sys_user (N ms)",
                "ok   step 2 'incident' (create): created incident <sys_id> (N ms)",
                "ok   step 3 'number' (extract): = 'INC0010061' (N ms)",
                "ok   step 4 'resolve' (update): updated incident <sys_id> (N ms)",
                "ok   step 5 'check' (get): incident <sys_id> (N ms)",
                "ok   step 6 (assert): holds: steps.check.record.state == 'Resolved' (N ms)",
                "ok   finally 1 (delete): deleted incident <sys_id> (N ms)",
            ])
        let sysID = try #require(result.results["incident"]?["sys_id"]?.string)
        #expect(
            result.records == [
                TouchedRecord(action: .created, table: "incident", sysID: sysID, step: "step 2 'incident' (create)"),
                TouchedRecord(action: .updated, table: "incident", sysID: sysID, step: "step 4 'resolve' (update)"),
                TouchedRecord(action: .deleted, table: "incident", sysID: sysID, step: "finally 1 (delete)"),
            ])
        #expect(result.results["number"] == .string("INC0010061"))
        #expect(try harness.count("incident", "sys_id=\(sysID)") == 0)
    }

    @Test func aFailureStopsTheStepsButFinallyRunsAndTheRecordsAreListed() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Half way
            steps:
              - id: incident
                create: { table: incident, fields: { short_description: half way } }
              - id: missing
                get: { table: incident, sys_id: no-such-record }
              - id: never
                create: { table: incident, fields: { short_description: never } }
            finally:
              - delete: { table: incident, sys_id: "${steps.incident.sys_id}" }
              - delete: { table: incident, sys_id: "${steps.never.sys_id}" }
            """)
        #expect(result.status == .failed)
        #expect(result.status.exitCode == 3)
        #expect(
            RunHarness.normalized(result.error ?? "")
                == "step 2 'missing' (get): bad response 404 from GET /api/now/table/incident/no-such-record: No Record found (Record doesn't exist or ACL restricts the record retrieval)"
        )
        #expect(
            harness.lines == [
                "ok   step 1 'incident' (create): created incident <sys_id> (N ms)",
                "FAIL step 2 'missing' (get): bad response 404 from GET /api/now/table/incident/no-such-record: No Record found (Record doesn't exist or ACL restricts the record retrieval) (N ms)",
                "ok   finally 1 (delete): deleted incident <sys_id> (N ms)",
                "FAIL finally 2 (delete): sys_id: steps.never: step 'never' has no result (it did not run, or failed) (N ms)",
            ])
        #expect(result.records.map(\.action) == [.created, .deleted])
        #expect(
            RunHarness.normalized(result.summaryText()).replacingOccurrences(
                of: #"\d+ ms"#, with: "N ms", options: .regularExpression) == """
                    Half way: failed (4 steps run, N ms)
                      job.yaml:5:5: step 2 'missing' (get): bad response 404 from GET /api/now/table/incident/no-such-record: No Record found (Record doesn't exist or ACL restricts the record retrieval)
                    records the run changed and deleted again:
                      incident INC0010061 (<sys_id>): created by step 1 'incident' (create), deleted by finally 1 (delete)
                    """)
    }

    @Test func aCreateWhoseAnswerIsLostIsListedWithTheSysIDItWasSentWith() async throws {
        let harness = try RunHarness()
        harness.instance.setFaults(FaultInjection(scripted: [.lostResponse]))
        let result = try await harness.run(
            """
            name: Lost answer
            steps:
              - id: incident
                create: { table: incident, fields: { short_description: answer lost } }
            """)
        #expect(result.status == .failed)
        let record = try #require(result.records.first)
        #expect(result.records.map(\.action) == [.possiblyCreated])
        #expect(record.sysID.count == 32)
        // The instance did create it, under the sys_id the run reports.
        let stored = try await harness.instance.transport.send(
            NowHTTPRequest(
                method: "GET", path: "/api/now/table/incident/\(record.sysID)",
                headers: ["Authorization": "Basic " + Data("admin:admin".utf8).base64EncodedString()]))
        #expect(stored.statusCode == 200)
        #expect(
            RunHarness.normalized(result.summaryText()).replacingOccurrences(
                of: #"\d+ ms"#, with: "N ms", options: .regularExpression) == """
                    Lost answer: failed (1 step run, N ms)
                      job.yaml:3:5: step 1 'incident' (create): network error: system error: the connection was lost
                    records left changed (finish or undo them by hand):
                      incident <sys_id>: possibly created by step 1 'incident' (create)
                    """)
    }

    @Test func aRefusedCreateListsNoRecord() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Refused
            steps:
              - create: { table: u_no_such_table, fields: { short_description: refused } }
            """)
        #expect(result.status == .failed)
        #expect(result.records.isEmpty)
    }

    @Test func queriesPageUpToTheLimitInOrder() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Pages
            steps:
              - id: some
                query: { table: incident, page_size: 2, limit: 5, order_by: number, fields: number }
              - id: all
                query: { table: incident, page_size: 4, order_by_desc: number, fields: [number] }
              - assert: "steps.some.count == 5 && steps.some.records.0.number == 'INC0010001' && steps.some.records.4.number == 'INC0010005'"
              - assert: "steps.all.count == 60 && steps.all.records.0.number == 'INC0010060'"
            """)
        #expect(result.status == .passed)
        #expect(harness.pages == [2, 4, 5] + Array(stride(from: 4, through: 60, by: 4)))
    }

    @Test func aDeleteByQueryMatchingMoreThanMaxDeletesNothing() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Guard
            steps:
              - foreach: "${vars.names}"
                as: name
                steps:
                  - create: { table: incident, fields: { short_description: "${name}", category: network } }
              - id: purge
                delete: { table: incident, where: { short_description: bulk, category: network }, max: 2 }
                continue_on_error: true
              - id: left
                query: { table: incident, where: { short_description: bulk } }
              - assert: "steps.left.count == 3"
              - id: tidy
                delete: { table: incident, query: short_description=bulk, max: 3 }
              - assert: "steps.tidy.count == 3 && len(steps.tidy.sys_ids) == 3"
            vars:
              names: [bulk, bulk, bulk]
            """)
        #expect(result.status == .passed)
        #expect(
            harness.lines.contains(
                "FAIL (continued) step 2 'purge' (delete): 3 incident records match 'short_description=bulk^category=network' (max: 2); nothing was deleted (N ms)"
            ))
        #expect(result.records.filter { $0.action == .deleted }.count == 3)
        #expect(try harness.count("incident", "short_description=bulk") == 0)
    }

    @Test func updateByQueryChangesEveryMatch() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Bulk update
            steps:
              - id: bump
                update: { table: incident, where: { category: network }, max: 20, fields: { urgency: 1 } }
              - assert: "steps.bump.count == 16 && steps.bump.records.0.urgency == 1"
            """)
        #expect(result.status == .passed)
        #expect(result.records.count == 16)
        #expect(try harness.count("incident", "category=network^urgency=1") == 16)
    }

    @Test func aHostileValueCannotChangeTheQuery() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Injection
            vars:
              caller: "nobody^ORactive=true"
            steps:
              - id: caller
                query: { table: sys_user, query: "user_name=${vars.caller}" }
            """)
        #expect(result.status == .failed)
        #expect(
            result.error
                == "step 1 'caller' (query): query: the value of ${vars.caller} holds '^', which an encoded query reads as the start of a new condition; ServiceNow has no escape for '^', so the value is refused"
        )
    }

    @Test func assertionsReportTheValuesAndExitWithFour() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Assert
            steps:
              - id: open
                query: { table: incident, where: { active: true } }
              - assert: "steps.open.count == 3"
            """)
        #expect(result.status == .assertionFailed)
        #expect(result.status.exitCode == 4)
        #expect(result.error == "step 2 (assert): assertion failed: steps.open.count == 3 (45 == 3 is false)")
    }

    @Test func whenSkipsAndRetryPolls() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Control
            vars:
              enabled: false
            steps:
              - when: vars.enabled
                create: { table: incident, fields: { short_description: never } }
              - id: poll
                query: { table: incident, where: { short_description: never } }
                retry: { attempts: 3, delay: 0s, until: "steps.poll.count > 0" }
            """)
        #expect(result.status == .failed)
        #expect(
            harness.lines == [
                "skip step 1 (create): when was false (N ms)",
                "FAIL step 2 'poll' (query): retry.until is still false after 3 attempts (steps.poll.count = 0) (N ms)",
            ])
    }

    @Test func foreachCollectsResultsAndSetUpdatesVars() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Loop
            vars:
              names: [beth.anglin, bud.richman]
              last: none
            steps:
              - id: users
                foreach: vars.names
                as: user_name
                steps:
                  - id: user
                    query: { table: sys_user, where: { user_name: "${user_name}" }, fields: [sys_id, name], limit: 1 }
                  - set: { last: "${steps.user.records.0.name}" }
              - assert: "steps.users.count == 2 && steps.users.results.1.user.records.0.name == 'Bud Richman'"
              - assert: "vars.last == 'Bud Richman'"
            """)
        #expect(result.status == .passed)
        #expect(
            harness.lines == [
                "ok   step 1[0].1 'user' (query): 1 record from sys_user (N ms)",
                "ok   step 1[0].2 (set): vars.last (N ms)",
                "ok   step 1[1].1 'user' (query): 1 record from sys_user (N ms)",
                "ok   step 1[1].2 (set): vars.last (N ms)",
                "ok   step 1 'users' (foreach): 2 items (N ms)",
                "ok   step 2 (assert): holds: steps.users.count == 2 && steps.users.results.1.user.records.0.name == 'Bud Richman' (N ms)",
                "ok   step 3 (assert): holds: vars.last == 'Bud Richman' (N ms)",
            ])
    }

    @Test func aDryRunReadsButSendsNoWrite() async throws {
        let harness = try RunHarness()
        let urgent = try harness.count("incident", "category=network^urgency=1")
        let result = try await harness.run(
            ContractExample.text + """

                  - update: { table: incident, where: { category: network }, max: 20, fields: { urgency: 1 } }
                  - delete: { table: incident, query: category=hardware, max: 20 }
                """, dryRun: true, environment: ContractExample.environment)
        #expect(result.status == .passed)
        #expect(result.records.isEmpty)
        let network = try harness.sysIDs("incident", "category=network")
        let hardware = try harness.sysIDs("incident", "category=hardware")
        let caller = try #require(harness.sysIDs("sys_user", "user_name=abel.tuter").first)
        #expect(
            result.plannedWrites.map(\.description) == [
                #"POST /api/now/table/incident {"caller_id":"\#(caller)","short_description":"Printer on fire","sys_id":"dry-run-1","urgency":"2"}"#,
                #"PATCH /api/now/table/incident/dry-run-1 {"close_code":"Solved (Permanently)","close_notes":"Restarted the spooler","state":"6"}"#,
                "DELETE /api/now/table/incident/dry-run-1",
            ] + network.map { #"PATCH /api/now/table/incident/\#($0) {"urgency":"1"}"# }
                + hardware.map { "DELETE /api/now/table/incident/\($0)" })
        #expect(
            result.plannedWrites.map(\.step) == [
                "step 2 'incident' (create)", "step 4 'resolve' (update)", "finally 1 (delete)",
            ] + Array(repeating: "finally 2 (update)", count: network.count)
                + Array(repeating: "finally 3 (delete)", count: hardware.count))
        #expect(harness.requests.allSatisfy { $0.method == "GET" })
        #expect(try harness.count("incident", "") == 60)
        #expect(result.results["number"] == .string(""))
        #expect(try harness.count("incident", "category=network^urgency=1") == urgent)
        #expect(
            harness.lines == [
                "ok   step 1 'caller' (query): 1 record from sys_user (N ms)",
                "ok   step 2 'incident' (create): would create a record in incident (dry run) (N ms)",
                "ok   step 3 'number' (extract): = '' (N ms)",
                "ok   step 4 'resolve' (update): would update incident dry-run-1 (dry run) (N ms)",
                "ok   step 5 'check' (get): incident dry-run-1 (dry run) (N ms)",
                "skip step 6 (assert): not enforced in a dry run: the incident was not resolved ('6' == 'Resolved' is false) (N ms)",
                "ok   finally 1 (delete): would delete incident dry-run-1 (dry run) (N ms)",
                "ok   finally 2 (update): would update \(network.count) incident records (dry run) (N ms)",
                "ok   finally 3 (delete): would delete \(hardware.count) incident records (dry run) (N ms)",
            ])
    }

    @Test func aDryRunPlansExactlyTheRequestsNowDataSends() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Exact
            steps:
              - id: incident
                create:
                  table: incident
                  fields: { short_description: "Printer on fire", urgency: 2, description: 0.10 }
                  display_value: true
                  input_display_value: true
              - update:
                  table: incident
                  sys_id: "${steps.incident.sys_id}"
                  fields: { state: 2, work_notes: "Looking at it" }
                  suppress_auto_sys_field: true
                  exclude_reference_link: true
              - delete: { table: incident, sys_id: "${steps.incident.sys_id}" }
            """, dryRun: true)
        #expect(result.status == .passed, "\(result.error ?? "")")

        // The same calls, made directly on NowData: the requests it sends are the dry run's planned writes.
        let sent = Mutex<[NowHTTPRequest]>([])
        let service = NowTableService(
            configuration: NowServiceConfiguration(
                instanceURL: try #require(URL(string: "http://127.0.0.1")),
                authentication: .basic(user: "admin", password: "admin"),
                transport: ClosureTransport { request in
                    sent.withLock { $0.append(request) }
                    return NowHTTPResponse(
                        statusCode: request.method == "DELETE" ? 204 : 200, body: Data(#"{"result":{}}"#.utf8))
                }))
        _ = try await service.createRecord(
            with: ["short_description": "Printer on fire", "urgency": "2", "description": "0.10", "sys_id": "dry-run-1"],
            in: "incident", writeOptions: .treatInputValuesAsDisplayValues,
            configuration: FieldReadConfiguration(options: .displayValues))
        _ = try await service.updateRecord(
            sysId: "dry-run-1", in: "incident", with: ["state": "2", "work_notes": "Looking at it"],
            writeOptions: .suppressAutoSysField, configuration: FieldReadConfiguration(options: .excludeReferenceLink))
        try await service.deleteRecord(sysId: "dry-run-1", from: "incident")
        let expected = try sent.withLock { $0 }.map(WriteRequest.init)
        #expect(expected.count == 3)
        #expect(result.plannedWrites.map(WriteRequest.init) == expected)
        #expect(
            result.plannedWrites.map(\.description) == [
                #"POST /api/now/table/incident?sysparm_input_display_value=true&sysparm_display_value=true {"description":"0.10","short_description":"Printer on fire","sys_id":"dry-run-1","urgency":"2"}"#,
                #"PATCH /api/now/table/incident/dry-run-1?sysparm_suppress_auto_sys_field=true&sysparm_exclude_reference_link=true {"state":"2","work_notes":"Looking at it"}"#,
                "DELETE /api/now/table/incident/dry-run-1",
            ])
        #expect(harness.requests.allSatisfy { $0.method == "GET" })
    }

    @Test func numbersKeepTheTextWrittenInTheJobUpToTheRequestBody() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Numbers
            vars:
              cost: 0.10
            steps:
              - id: note
                create: { table: incident, fields: { short_description: "${vars.cost}", description: 2800, close_notes: 1e3, urgency: 2 } }
              - assert: "steps.note.record.short_description == '0.10' && steps.note.record.close_notes == '1e3'"
            finally:
              - delete: { table: incident, sys_id: "${steps.note.sys_id}" }
            """)
        #expect(result.status == .passed, "\(result.error ?? "")")
        let sysID = try #require(result.results["note"]?["sys_id"]?.string)
        let create = try #require(harness.requests.first { $0.method == "POST" })
        #expect(
            try JSONValue(json: try #require(create.body)) == [
                "short_description": "0.10", "description": "2800", "close_notes": "1e3", "urgency": "2",
                "sys_id": .string(sysID),
            ])
    }

    @Test func extractReportsWhereItsPathFindsNoValue() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Extract
            steps:
              - id: caller
                query: { table: sys_user, where: { user_name: abel.tuter }, fields: [sys_id, name], limit: 1 }
              - extract: { from: steps.caller, path: records.1.name }
                continue_on_error: true
              - extract: { from: steps.caller, path: records.-1.name }
                continue_on_error: true
              - extract: { from: steps.caller, path: records.0.name.first }
                continue_on_error: true
              - id: name
                extract: { from: "${steps.caller}", path: records.0.email }
            """)
        #expect(result.status == .failed)
        #expect(
            harness.lines == [
                "ok   step 1 'caller' (query): 1 record from sys_user (N ms)",
                "FAIL (continued) step 2 (extract): extract: steps.caller: no value at 'records.1' in path 'records.1.name': index 1 out of range (1 element) (N ms)",
                "FAIL (continued) step 3 (extract): extract: steps.caller: no value at 'records.-1' in path 'records.-1.name': 'records' is an array (1 element), and '-1' is not an index from 0 (N ms)",
                "FAIL (continued) step 4 (extract): extract: steps.caller: no value at 'records.0.name.first' in path 'records.0.name.first': 'records.0.name' is a string, not an object (N ms)",
                "FAIL step 5 'name' (extract): extract: ${steps.caller}: no value at 'records.0.email' in path 'records.0.email': key 'email' not found (N ms)",
            ])
    }

    @Test func aDryRunSkipsExpressionsThatFailOnStandInsButEnforcesTheRest() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Stand-ins
            steps:
              - id: group
                query: { table: sys_user_group, where: { name: Service Desk }, fields: [sys_id], limit: 1 }
              - id: incident
                create: { table: incident, fields: { short_description: Printer on fire } }
              - update:
                  table: incident
                  sys_id: "${steps.incident.sys_id}"
                  fields: { assignment_group: "${steps.group.records.0.sys_id}" }
              - id: check
                get: { table: incident, sys_id: "${steps.incident.sys_id}", display_value: true }
              - assert: "steps.check.record.assignment_group.display_value == 'Service Desk'"
              - id: group_name
                set: { group: "${steps.check.record.assignment_group.display_value}" }
              - update: { table: incident, sys_id: "${steps.incident.sys_id}", fields: { work_notes: "${vars.group}" } }
              - get: { table: incident, sys_id: "0123456789abcdef0123456789abcdef" }
            """, dryRun: true)
        #expect(result.status == .failed)
        #expect(
            result.error
                == "step 8 (get): bad response 404 from GET /api/now/table/incident/0123456789abcdef0123456789abcdef: No Record found (Record doesn't exist or ACL restricts the record retrieval)"
        )
        #expect(
            harness.lines == [
                "ok   step 1 'group' (query): 1 record from sys_user_group (N ms)",
                "ok   step 2 'incident' (create): would create a record in incident (dry run) (N ms)",
                "ok   step 3 (update): would update incident dry-run-1 (dry run) (N ms)",
                "ok   step 4 'check' (get): incident dry-run-1 (dry run) (N ms)",
                "skip step 5 (assert): not enforced in a dry run, it may read stand-ins for writes not sent: assert steps.check.record.assignment_group.display_value == 'Service Desk': no value at 'steps.check.record.assignment_group.display_value' in path 'steps.check.record.assignment_group.display_value': 'steps.check.record.assignment_group' is a string, not an object (N ms)",
                "skip step 6 'group_name' (set): not enforced in a dry run, it may read stand-ins for writes not sent: set group: no value at 'steps.check.record.assignment_group.display_value' in path 'steps.check.record.assignment_group.display_value': 'steps.check.record.assignment_group' is a string, not an object (N ms)",
                "skip step 7 (update): not enforced in a dry run, it may read stand-ins for writes not sent: fields.work_notes: vars.group: no variable 'group' is set (N ms)",
                "FAIL step 8 (get): bad response 404 from GET /api/now/table/incident/<sys_id>: No Record found (Record doesn't exist or ACL restricts the record retrieval) (N ms)",
            ])
    }

    @Test func aDryRunFailsTheWritesTheInstanceWouldRefuse() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Refused
            steps:
              - create: { table: u_no_such_table, fields: { short_description: refused } }
                continue_on_error: true
              - update: { table: incident, sys_id: 0123456789abcdef0123456789abcdef, fields: { state: 2 } }
                continue_on_error: true
              - delete: { table: incident, sys_id: 0123456789abcdef0123456789abcdef }
            """, dryRun: true)
        #expect(result.status == .failed)
        #expect(result.plannedWrites.isEmpty)
        let missing = "No Record found (Record doesn't exist or ACL restricts the record retrieval)"
        #expect(
            Array(harness.lines.dropFirst()) == [
                "FAIL (continued) step 2 (update): bad response 404 from PATCH /api/now/table/incident/<sys_id>: \(missing) (N ms)",
                "FAIL step 3 (delete): bad response 404 from DELETE /api/now/table/incident/<sys_id>: \(missing) (N ms)",
            ])
        #expect(harness.lines.first?.hasPrefix("FAIL (continued) step 1 (create): bad response 4") == true)
        #expect(harness.requests.allSatisfy { $0.method == "GET" })
    }

    @Test func aDryRunEnforcesTheMaxGuardAfterAWriteIsWithheld() async throws {
        let harness = try RunHarness()
        let hardware = try harness.count("incident", "category=hardware")
        let result = try await harness.run(
            """
            name: Guard
            steps:
              - create: { table: incident, fields: { short_description: Printer on fire } }
              - delete: { table: incident, query: category=hardware, max: 1 }
            """, dryRun: true)
        #expect(hardware > 1)
        #expect(result.status == .failed)
        #expect(
            result.error
                == "step 2 (delete): 12 incident records match 'category=hardware' (max: 1); nothing was deleted")
    }

    @Test func aDryRunEnforcesExpressionsBeforeAnyWriteIsWithheld() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Typo
            steps:
              - id: group
                query: { table: sys_user_group, where: { name: Service Desk }, fields: [sys_id], limit: 1 }
              - assert: "steps.group.records.0.sys_id.value != ''"
              - create: { table: incident, fields: { short_description: Printer on fire } }
            """, dryRun: true)
        #expect(result.status == .failed)
        #expect(result.plannedWrites.isEmpty)
        #expect(
            result.error
                == "step 2 (assert): assert steps.group.records.0.sys_id.value != '': no value at 'steps.group.records.0.sys_id.value' in path 'steps.group.records.0.sys_id.value': 'steps.group.records.0.sys_id' is a string, not an object"
        )
    }

    @Test func secretsAreMaskedEverywhere() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Secrets
            secrets: [API_KEY]
            steps:
              - id: note
                create: { table: incident, fields: { short_description: "key ${env.API_KEY}" } }
              - assert: "steps.note.record.short_description == 'nothing'"
            finally:
              - delete: { table: incident, sys_id: "${steps.note.sys_id}" }
            """, environment: ["API_KEY": "s3cr3t-value"])
        #expect(result.status == .assertionFailed)
        #expect(
            result.error
                == "step 2 (assert): assertion failed: steps.note.record.short_description == 'nothing' ('key ***' == 'nothing' is false)"
        )
        let report = RunReport(results: [result], nowflowVersion: "0.1.0").jsonText()
        #expect(!report.contains("s3cr3t-value"))
        #expect(report.contains("key ***"))
    }

    @Test func varsCanBeOverriddenAndMissingEnvIsReportedBeforeAnyStep() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Env
            auth:
              basic: { user: "${env.NOW_USER}", password: "${env.NOW_PASSWORD}" }
            steps:
              - query: { table: incident, limit: 1 }
            """, environment: ["NOW_USER": "admin"])
        #expect(result.status == .failed)
        // The report lists the step that did not run, and why.
        #expect(
            result.steps.map { "\($0.number) \($0.status.rawValue) \($0.file):\($0.line): \($0.message)" } == [
                "1 not_run job.yaml:5: not run: before the first step: env.NOW_PASSWORD: the environment variable NOW_PASSWORD is not set"
            ])
        #expect(
            result.error == "before the first step: env.NOW_PASSWORD: the environment variable NOW_PASSWORD is not set")
    }

    @Test func refusedCredentialsFailTheStep() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Auth
            auth:
              basic: { user: admin, password: "${env.NOW_PASSWORD}" }
            steps:
              - query: { table: incident, limit: 1 }
            """, environment: ["NOW_PASSWORD": "wrong-password"])
        #expect(result.status == .failed)
        #expect(result.error?.hasPrefix("step 1 (query): bad response 401 from GET /api/now/table/incident") == true)
        #expect(result.error?.contains("wrong-password") == false)
    }

    @Test func oauthAndTokenAuthenticationReachTheInstance() async throws {
        let harness = try RunHarness()
        let oauth = try await harness.run(
            """
            name: OAuth
            auth:
              oauth: { client_id: nowflow, client_secret: "${env.SECRET}", user: admin, password: admin }
            steps:
              - query: { table: incident, limit: 1 }
            """, environment: ["SECRET": "client-secret-1"])
        #expect(oauth.status == .passed, "\(oauth.error ?? "")")
        let token = try await harness.run(
            """
            name: Token
            auth:
              token: "${env.TOKEN}"
            steps:
              - query: { table: incident, limit: 1 }
            """, environment: ["TOKEN": "not-a-token-9"])
        #expect(token.status == .failed)
        #expect(token.error?.hasPrefix("step 1 (query): bad response 401") == true)
        #expect(RunReport(results: [token], nowflowVersion: "0.1.0").jsonText().contains("not-a-token-9") == false)
    }

    @Test func theJobsDateFormatIsUsedForReadsAndWrites() async throws {
        let harness = try RunHarness()
        let result = try await harness.run("""
            name: Dates
            coder: { dates: dd/MM/yyyy HH:mm }
            steps:
              - id: change
                create: { table: change_request, fields: { short_description: window, start_date: "07/03/2026 22:00" } }
              - assert: "steps.change.record.start_date == '07/03/2026 22:00'"
              - id: found
                query: { table: change_request, where: { start_date: "07/03/2026 22:00" }, fields: [start_date] }
              - assert: "steps.found.count == 1 && steps.found.records.0.start_date == '07/03/2026 22:00'"
            """)
        #expect(result.status == .passed, "\(result.error ?? "")")
        #expect(try harness.count("change_request", "start_date=2026-03-07 22:00:00") == 1)
    }
}

/// A write as it is sent, headers aside: method, path, query items and the body as a JSON value.
private struct WriteRequest: Equatable {
    var method: String
    var path: String
    var queryItems: [URLQueryItem]
    var body: JSONValue?

    init(_ request: NowHTTPRequest) throws {
        method = request.method
        path = request.path
        queryItems = request.queryItems
        body = try request.body.map { try JSONValue(json: $0) }
    }

    init(_ write: PlannedWrite) {
        method = write.method
        path = write.path
        queryItems = write.queryItems
        body = write.body
    }
}
