import Foundation
import LocalInstance
import NowData
import Testing

/// Table and field names checked against the instance's dictionary before `nowflow run` sends anything.
@Suite struct NameCheckTests {
    static let job = """
        name: Typo
        steps:
          - id: open
            query: { table: incident, where: { active: true, caller_id.nme: x }, fields: [number, shortdescription, caller_id.manager.name, caller_id.first_name.name], order_by: numbr }
          - update: { table: incident, where: { priorty: 1, active: true }, max: 100, fields: { urgency: 1 } }
          - create: { table: incidnet, fields: { urgencyy: 1 } }
          - foreach: steps.open.records
            steps:
              - create: { table: incident, fields: { urgencyy: 1, short_description: "${item.number}" } }
        """

    @Test func aTypoIsRefusedWithItsPositionAndADidYouMeanBeforeAnythingRuns() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let result = try ToolInvocation.run(["run", "job.yaml", "--dry-run"], in: directory)
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                job.yaml:4:54: error: unknown field 'nme' in sys_user (in 'caller_id.nme'); did you mean 'name'?
                job.yaml:4:91: error: unknown field 'shortdescription' in incident; did you mean 'short_description'?
                job.yaml:4:133: error: 'first_name' in sys_user is not a reference field: 'caller_id.first_name.name' cannot walk through it
                job.yaml:4:171: error: unknown field 'numbr' in incident; did you mean 'number'?
                job.yaml:5:41: error: unknown field 'priorty' in incident; did you mean 'priority'?
                job.yaml:6:22: error: unknown table 'incidnet'; did you mean 'incident'?
                job.yaml:9:46: error: unknown field 'urgencyy' in incident; did you mean 'urgency'?

                """)
    }

    @Test func offlineSkipsTheCheck() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        name: Offline
        steps:
          - query: { table: incident, where: { priorty: 1 }, limit: 1 }
        """.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let checked = try ToolInvocation.run(["run", "job.yaml"], in: directory)
        #expect(checked.status == 2)
        #expect(checked.stderr == "job.yaml:3:40: error: unknown field 'priorty' in incident; did you mean 'priority'?\n")
        let offline = try ToolInvocation.run(["run", "job.yaml", "--offline"], in: directory)
        #expect(offline.status == 0, "\(offline.stderr)")
    }

    /// validate checks names against the instance the job would run on, as run does: here the embedded one, which
    /// the job names no other than.
    @Test func validateChecksNamesAgainstTheInstanceTheJobRunsOn() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        name: Typo
        steps:
          - update: { table: incident, where: { priorty: 1, active: true }, max: 100, fields: { urgency: 1 } }
        """.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let typo = "job.yaml:3:41: error: unknown field 'priorty' in incident; did you mean 'priority'?\n"
        for arguments in [["validate", "job.yaml"], ["validate", "job.yaml", "--instance", "local"]] {
            let checked = try ToolInvocation.run(arguments, in: directory)
            #expect(checked.status == 2)
            #expect(checked.stdout == "")
            #expect(checked.stderr == typo)
        }
        let offline = try ToolInvocation.run(["validate", "job.yaml", "--offline"], in: directory)
        #expect(offline.status == 0)
        #expect(offline.stdout == "job.yaml: ok (Typo, 1 step)\n")
        #expect(offline.stderr == "")
    }

    /// A job's own `instance:` is the one validate checks it against: a `nowflow serve` with a table of its own,
    /// which the embedded instance does not have (it would call the table unknown).
    @Test func validateChecksAgainstTheJobsOwnInstance() async throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let schema = directory.appendingPathComponent("schema.json")
        try #"{"tables": [{"name": "u_widget", "fields": [{"name": "u_size"}]}]}"#
            .write(to: schema, atomically: true, encoding: .utf8)
        let server = try await ServeProcess(["--db", ":memory:", "--password", "pw", "--schema", schema.path])
        try """
        name: Elsewhere
        instance: http://127.0.0.1:\(server.port)
        auth:
          basic: { user: admin, password: pw }
        steps:
          - query: { table: u_widget, where: { u_sise: 1 }, limit: 1 }
        """.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let checked = try ToolInvocation.run(["validate", "job.yaml"], in: directory)
        #expect(checked.status == 2)
        #expect(checked.stderr == "job.yaml:6:40: error: unknown field 'u_sise' in u_widget; did you mean 'u_size'?\n")
        let offline = try ToolInvocation.run(["validate", "job.yaml", "--offline"], in: directory)
        #expect(offline.status == 0)
        #expect(offline.stdout == "job.yaml: ok (Elsewhere, 1 step)\n")
    }

    /// The fields and orderings of an encoded `query:` are checked as `where:` keys are, dot-walks included, at their
    /// column in the query.
    @Test func theNamesOfAnEncodedQueryAreChecked() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        name: Query typos
        steps:
          - query: { table: incident, query: "activ=true^caller_id.nme=x^ORpriority=1^NQstate=2^ORDERBYDESCnumbr", limit: 1 }
          - update: { table: incident, query: 'priorty=1', max: 5, fields: { urgency: 1 } }
          - delete: { table: incident, query: "caller_id.department.name=IT^123TEXTQUERY321=printer", max: 5 }
        """.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let result = try ToolInvocation.run(["validate", "job.yaml", "--instance", "local"], in: directory)
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == """
            job.yaml:3:39: error: unknown field 'activ' in incident; did you mean 'active'?
            job.yaml:3:50: error: unknown field 'nme' in sys_user (in 'caller_id.nme'); did you mean 'name'?
            job.yaml:3:100: error: unknown field 'numbr' in incident; did you mean 'number'?
            job.yaml:4:40: error: unknown field 'priorty' in incident; did you mean 'priority'?

            """)
    }

    /// A value a create or update writes to a choice field that is neither one of its values nor a label is a
    /// warning naming the choices, with a did-you-mean; the job still validates and runs. A label in a condition
    /// is translated to its value, and the step says so.
    @Test func aValueThatIsNotAChoiceIsAWarning() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        name: Choices
        steps:
          - id: open
            query: { table: incident, where: { state: [Resolved, 2], category: network }, limit: 1 }
          - id: made
            create: { table: incident, fields: { short_description: choices, state: In Progress, urgency: 9, category: "${env.NO_CATEGORY ?? 'hardware'}" } }
          - update: { table: incident, sys_id: "${steps.made.sys_id}", fields: { category: netwrk } }
        finally:
          - delete: { table: incident, sys_id: "${steps.made.sys_id}" }
        """.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let warnings = """
            job.yaml:6:99: warning: '9' is neither a value nor a label of incident.urgency's choices (1 = 1 - High, 2 = 2 - Medium, 3 = 3 - Low)
            job.yaml:7:84: warning: 'netwrk' is neither a value nor a label of incident.category's choices (inquiry = Inquiry / Help, software = Software, hardware = Hardware, network = Network, database = Database); did you mean 'network'?

            """
        let validated = try ToolInvocation.run(["validate", "job.yaml", "--instance", "local"], in: directory)
        #expect(validated.status == 0)
        #expect(validated.stdout == "job.yaml: ok (Choices, 4 steps)\n")
        #expect(validated.stderr == warnings)
        let ran = try ToolInvocation.run(["run", "job.yaml"], in: directory)
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(ran.stderr.hasPrefix(warnings + "ok   step 1 'open' (query): 1 record from incident (incident.state: Resolved = 6) ("))
    }

    /// Every value a condition compares (a `where:` value, an operator's, an item of a list, a condition of a
    /// literal `query:`) is checked against the field's type and choices: a value the instance could not compare
    /// (and would ignore, widening the query) is an error at its position, and nothing is sent; a literal empty
    /// list is a warning.
    @Test func conditionValuesAreCheckedAgainstTheFieldsType() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        name: Widening
        steps:
          - update: { table: incident, where: { category: network, state: Resolvd }, max: 40, fields: { urgency: 3 } }
          - query: { table: incident, where: { active: yes, priority: { ">=": high, like: "1" }, opened_at: { "<": "27/11/2026" }, sys_created_on: ">=2026-11-27 00:00:00" } }
          - query: { table: incident, where: { or: [ { caller_id: Abel Tuter }, { state: { in: [Resolvd, 7] } } ], active: { ">": true } } }
          - query: { table: incident, query: "active=yes^stateIN1,Closed^opened_at>=2026-11-27 00:00:00" }
          - delete: { table: sys_user_grmember, where: { sys_id: [] }, max: 50 }
        """.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let validated = try ToolInvocation.run(["validate", "job.yaml", "--instance", "local"], in: directory)
        #expect(validated.stdout == "")
        #expect(
            validated.stderr == """
                job.yaml:3:67: error: 'Resolvd' is not one of incident.state's choices (1 = New, 2 = In Progress, 3 = On Hold, 6 = Resolved, 7 = Closed, 8 = Canceled); did you mean 6 (Resolved)?
                job.yaml:4:48: error: 'yes' is not a boolean: incident.active takes true or false
                job.yaml:4:71: error: 'high' is not a whole number: incident.priority is an integer
                job.yaml:4:83: error: LIKE does not apply to incident.priority, an integer
                job.yaml:4:108: error: '27/11/2026' is not a date-time (yyyy-MM-dd HH:mm:ss): incident.opened_at is a date-time
                job.yaml:4:140: error: '>=2026-11-27 00:00:00' is compared as a whole with incident.sys_created_on, a date-time; for a comparison write { ">=": "2026-11-27 00:00:00" }
                job.yaml:5:59: error: 'Abel Tuter' is not a sys_id: incident.caller_id is a reference to sys_user; compare a sys_id, or a field of the record it references (caller_id.name)
                job.yaml:5:89: error: 'Resolvd' is not one of incident.state's choices (1 = New, 2 = In Progress, 3 = On Hold, 6 = Resolved, 7 = Closed, 8 = Canceled); did you mean 6 (Resolved)?
                job.yaml:5:123: error: > does not apply to incident.active, a boolean
                job.yaml:6:46: error: 'yes' is not a boolean: incident.active takes true or false
                job.yaml:7:58: warning: sys_id is compared with an empty list: the condition selects no record

                """)
        #expect(validated.status == 2)
        let ran = try ToolInvocation.run(["run", "job.yaml"], in: directory)
        #expect(ran.status == 2)
        #expect(ran.stderr == validated.stderr)
        #expect(ran.stdout == "")
    }

    /// A record's own sys_id (`GUID`) is compared in order, as the platform's `ORDERBYsys_id^sys_id>last` is (a
    /// keyed read pages by it), where a reference is not; what it is compared with must still be a sys_id.
    @Test func aSysIDIsComparedInOrderWithASysIDOnly() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        name: Keys
        steps:
          - query: { table: incident, where: { sys_id: { ">": "0123456789abcdef0123456789abcdef" } } }
          - query: { table: incident, where: { sys_id: { "<": "zz" } } }
        """.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let validated = try ToolInvocation.run(["validate", "job.yaml", "--instance", "local"], in: directory)
        #expect(validated.stdout == "")
        #expect(
            validated.stderr
                == "job.yaml:4:55: error: 'zz' is not a sys_id (32 hexadecimal digits): incident.sys_id is one\n")
        #expect(validated.status == 2)
    }

    /// `sys_domain` is a `domain_id` in the dictionary, as on a PDI: its value `global` is no sys_id, and a condition
    /// comparing it checks and runs.
    @Test func aConditionOnTheDomainComparesGlobal() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        name: Domain
        steps:
          - id: global
            query: { table: incident, where: { sys_domain: global, active: true }, fields: [number] }
            show: false
          - assert: "steps.global.count > 0"
        """.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let ran = try ToolInvocation.run(["run", "job.yaml", "--quiet"], in: directory)
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(ran.stderr == "")
    }

    /// A condition over an empty list written in the file is the file's own warning: `validate --offline` and
    /// `run --offline` show it as the online check does, at the list, and the file stays valid (exit 0).
    @Test func anEmptyListIsAWarningOfflineToo() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        name: Empty lists
        steps:
          - delete: { table: sys_user_grmember, where: { sys_id: [] }, max: 50 }
          - query: { table: incident, where: { state: { not_in: [] }, or: [ { category: { in: [] } }, { active: true } ] }, limit: 5 }
          - ensure: { table: sys_user_group, match: { name: [] }, state: absent }
          - query: { table: incident, query: "active=true^sys_idIN" }
        """.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let warnings = """
            job.yaml:3:58: warning: sys_id is compared with an empty list: the condition selects no record
            job.yaml:4:57: warning: state is compared with an empty list by not_in: the condition excludes no record and is left out
            job.yaml:4:87: warning: category is compared with an empty list: the condition selects no record
            job.yaml:5:53: warning: name is compared with an empty list: the condition selects no record
            job.yaml:6:38: warning: 'sys_idIN' compares with an empty list: the condition selects no record

            """
        let offline = try ToolInvocation.run(["validate", "job.yaml", "--offline"], in: directory)
        #expect(offline.status == 0)
        #expect(offline.stdout == "job.yaml: ok (Empty lists, 4 steps)\n")
        #expect(offline.stderr == warnings)
        let online = try ToolInvocation.run(["validate", "job.yaml", "--instance", "local"], in: directory)
        #expect(online.status == 0)
        #expect(online.stdout == offline.stdout)
        #expect(online.stderr == warnings)
        let ran = try ToolInvocation.run(["run", "job.yaml", "--offline"], in: directory)
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(
            ran.stderr.replacing(/\(\d+ ms\)/, with: "(N ms)") == warnings + """
                ok   step 1 (delete): deleted 0 sys_user_grmember records: the list of sys_id is empty: no record matches (N ms)
                ok   step 2 (query): 5 records from incident (N ms)
                ok   step 3 (ensure): absent from sys_user_group: the list of name is empty: no record matches (N ms)
                ok   step 4 (query): 0 records from incident: 'sys_idIN' compares with an empty list: no record matches (N ms)

                """)
    }

    /// An instance that cannot be reached, one that refuses the credentials and one that will not show its
    /// dictionary leave the names unchecked: validate says so on each file's line (`ok` only for what it checked),
    /// `--strict` fails those files (exit 2, as for CI), and run refuses to start on the dictionary it cannot read.
    @Test func validateSaysWhenTheNamesCouldNotBeCheckedAndStrictFailsThat() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stopped = try HTTPListener { _ in .respond(NowHTTPResponse(statusCode: 200), after: .zero) }
        let closedPort = stopped.port
        stopped.stop()
        let instance = try LocalInstance(options: LocalInstance.Options(adminPassword: "pw", log: { _ in }))
        defer { instance.close() }
        // The instance, whose dictionary tables a user with the right password may not read (an ACL).
        let guarded = try HTTPListener { request in
            let reply = instance.reply(to: request)
            guard request.path.hasPrefix("/api/now/table/sys_db_object") || request.path.hasPrefix("/api/now/table/sys_dictionary"),
                case .respond(let response, _) = reply, response.statusCode != 401
            else { return reply }
            let body = #"{"error":{"message":"Operation Failed","detail":"ACL Exception Read Failed due to security constraints"},"status":"failure"}"#
            return .respond(
                NowHTTPResponse(statusCode: 403, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Data(body.utf8)),
                after: .zero)
        }
        defer { guarded.stop() }
        func job(_ name: String, port: UInt16, password: String) -> String {
            """
            name: \(name)
            instance: http://127.0.0.1:\(port)
            auth:
              basic: { user: admin, password: \(password) }
            steps:
              - query: { table: incident, where: { active: true }, limit: 1 }
            """
        }
        try job("Unreachable", port: closedPort, password: "pw")
            .write(to: directory.appendingPathComponent("unreachable.yaml"), atomically: true, encoding: .utf8)
        try job("Refused", port: guarded.port, password: "wrong")
            .write(to: directory.appendingPathComponent("refused.yaml"), atomically: true, encoding: .utf8)
        try job("Hidden", port: guarded.port, password: "pw")
            .write(to: directory.appendingPathComponent("hidden.yaml"), atomically: true, encoding: .utf8)
        let files = ["unreachable.yaml", "refused.yaml", "hidden.yaml"]
        let lenient = try ToolInvocation.run(["validate"] + files, in: directory)
        #expect(lenient.status == 0)
        #expect(lenient.stderr == "")
        #expect(
            lenient.stdout == """
                unreachable.yaml: ok (Unreachable, 1 step; names not checked: connection refused at 127.0.0.1:\(closedPort))
                refused.yaml: ok (Refused, 1 step; names not checked: the instance refused the credentials (bad response 401 from GET /api/now/table/sys_db_object: User Not Authenticated (Required to provide Auth information)))
                hidden.yaml: ok (Hidden, 1 step; names not checked: cannot read the instance's dictionary (sys_db_object, sys_dictionary): bad response 403 from GET /api/now/table/sys_db_object: Operation Failed (ACL Exception Read Failed due to security constraints))

                """)
        let strict = try ToolInvocation.run(["validate", "--strict"] + files, in: directory)
        #expect(strict.status == 2)
        #expect(strict.stdout == "")
        #expect(
            strict.stderr == """
                unreachable.yaml: error: names not checked: connection refused at 127.0.0.1:\(closedPort) (--strict)
                refused.yaml: error: names not checked: the instance refused the credentials (bad response 401 from GET /api/now/table/sys_db_object: User Not Authenticated (Required to provide Auth information)) (--strict)
                hidden.yaml: error: names not checked: cannot read the instance's dictionary (sys_db_object, sys_dictionary): bad response 403 from GET /api/now/table/sys_db_object: Operation Failed (ACL Exception Read Failed due to security constraints) (--strict)

                """)
        let run = try ToolInvocation.run(["run", "hidden.yaml"], in: directory)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(
            run.stderr == """
                hidden.yaml: error: names not checked: cannot read the instance's dictionary (sys_db_object, sys_dictionary): bad response 403 from GET /api/now/table/sys_db_object: Operation Failed (ACL Exception Read Failed due to security constraints); use --offline to skip the check

                """)
    }
}
