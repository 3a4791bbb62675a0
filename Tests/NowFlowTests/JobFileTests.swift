import Foundation
import Testing

@testable import NowFlow

@Suite struct JobFileTests {
    private func diagnostics(_ text: String) -> String {
        do {
            _ = try JobFile.parse(text, file: "job.yaml")
            return "valid"
        } catch {
            return error.description
        }
    }

    @Test func theExampleOfTheContractIsValid() throws {
        let job = try JobFile.parse(ContractExample.text, file: "job.yaml")
        #expect(job.name == "Incident lifecycle")
        #expect(job.instance == "local")
        #expect(job.variableNames == ["caller", "summary"])
        #expect(job.steps.map(\.kind.name) == ["query", "create", "extract", "update", "get", "assert"])
        #expect(job.finally.map(\.kind.name) == ["delete"])
        #expect(
            job.auth
                == .basic(
                    user: try Template(parsing: "${env.NOW_USER}"),
                    password: try Template(parsing: "${env.NOW_PASSWORD}")))
    }

    @Test func everyProblemIsReportedAtOnce() {
        let text = """
            name: Broken
            descripton: typo
            vars:
              caller: abel.tuter
            steps:
              - id: caller
                query:
                  tabel: sys_user
                  where: { user_name: "${vars.caler}" }
                  limit: abc
              - id: incident
                create:
                  table: incident
                  fields:
                    caller_id: "${steps.caller.records.0.sys_id}"
                    x: "${steps.later.sys_id}"
              - qurey: { table: incident }
              - id: incident
                get: { table: incident, sys_id: "${steps.incident.sys_id}" }
                delete: { table: incident }
              - delete: { table: incident, where: { active: true } }
              - update: { table: incident, query: active=true, fields: { state: 7 } }
              - assert: "steps.incident.sysid == 'x' &&"
              - id: later
                set: { a: 1 }
              - get: { table: incident, sys_id: "${steps.later.x}" }
            """
        #expect(
            diagnostics(text) == """
                job.yaml:2:1: error: unknown key 'descripton' in the job; did you mean 'description'?
                job.yaml:8:7: error: query needs table:
                job.yaml:8:7: error: unknown key 'tabel' in query; did you mean 'table'?
                job.yaml:9:30: error: vars.caler: no variable 'caler' is declared under vars: or set by a set: step; did you mean 'vars.caller'?
                job.yaml:10:14: error: limit must be a whole number, not a string
                job.yaml:16:15: error: steps.later: step 'later' runs later (line 24); a step can use only the results of the steps before it
                job.yaml:17:5: error: unknown step kind 'qurey'; did you mean 'query'?
                job.yaml:18:9: error: duplicate step id 'incident' (first used at line 11, column 9)
                job.yaml:20:5: error: a step has one kind; this one has get and delete
                job.yaml:21:13: error: a delete by where:/query: needs max:, the most records it may delete; when more match, nothing is deleted
                job.yaml:22:13: error: an update by where:/query: needs max:, the most records it may change; when more match, nothing is updated
                job.yaml:23:44: error: bad expression in assert: expected a value at the end of the expression
                """)
    }

    @Test func referencesAreCheckedAgainstResultShapes() {
        let text = """
            name: Shapes
            steps:
              - id: incident
                create: { table: incident, fields: { short_description: x } }
              - get: { table: incident, sys_id: "${steps.incident.sysid}" }
              - get: { table: incident, sys_id: "${steps.incidnet.sys_id}" }
              - assert: "item == 1"
              - foreach: "${steps.incident.record.x}"
                as: row
                steps:
                  - id: inner
                    get: { table: incident, sys_id: "${row.sys_id}" }
              - assert: "steps.inner.record == null"
              - set: { copy: "${vars}" }
            """
        #expect(
            diagnostics(text) == """
                job.yaml:5:40: error: steps.incident.sysid: a create step's result has no 'sysid'; did you mean 'sys_id'? it has record and sys_id
                job.yaml:6:40: error: steps.incidnet: no step has the id 'incidnet'; did you mean 'incident'?
                job.yaml:7:14: error: unknown name 'item' (a reference starts with vars., env., steps.)
                job.yaml:13:14: error: steps.inner: step 'inner' is inside a foreach (line 11); its result is visible only to the steps after it in that foreach
                job.yaml:14:21: error: 'vars' needs a name, as in vars.copy
                """)
    }

    @Test func typesAndValuesAreChecked() {
        let text = """
            name: [not, a, text]
            coder: { dates: weekly, timezone: Mars/Olympus }
            auth: { basic: { user: x }, token: y }
            secrets: NOW_PASSWORD
            steps:
              - id: 2fast
                when: "vars.x ="
                retry: { attempts: 0, delay: soon, untill: true }
                continue_on_error: maybe
                query:
                  table: Incident Table
                  query: active=true
                  where: { active: true }
                  display_value: sometimes
                  page_size: -1
              - get: { table: incident }
              - create: { table: incident, fields: [a, b] }
              - update: { table: incident, sys_id: abc, max: 2, fields: {} }
              - extract: { from: "steps.x", path: "records..sys_id" }
              - assert: { message: no condition }
              - foreach: "#1"
              - set: { 1bad: x }
              - assert: "matches(env.X, '[')"
              - {}
              - just text
            """
        #expect(
            diagnostics(text) == """
                job.yaml:1:7: error: name must be a text, not a list
                job.yaml:2:17: error: coder.dates must be servicenow, iso8601 or a date pattern such as 'dd/MM/yyyy HH:mm', not 'weekly'
                job.yaml:2:35: error: coder.timezone 'Mars/Olympus' is not a time zone; use UTC, local or an IANA name such as Europe/Paris
                job.yaml:3:29: error: auth takes one of basic, oauth, oauth_jwt or token, not basic and token
                job.yaml:6:9: error: the step id '2fast' must be made of letters, digits and '_', and not start with a digit
                job.yaml:7:19: error: bad expression in when: unexpected '=' after the expression
                job.yaml:8:24: error: retry.attempts must be at least 1, not 0
                job.yaml:8:34: error: retry.delay must be a duration such as 2s, 500ms or 1m
                job.yaml:8:40: error: unknown key 'untill' in retry; did you mean 'until'?
                job.yaml:9:24: error: continue_on_error must be true or false, not a string
                job.yaml:11:14: error: 'Incident Table' is not a table name (lowercase letters, digits and '_')
                job.yaml:13:14: error: query takes query: or where:, not both
                job.yaml:14:22: error: display_value must be true, false or all
                job.yaml:15:18: error: page_size must be at least 1, not -1
                job.yaml:16:10: error: get needs sys_id:
                job.yaml:17:40: error: fields must be a mapping, not a list
                job.yaml:18:50: error: max: applies only with where: or query:; by sys_id, one record is updated
                job.yaml:19:23: error: steps.x: no step has the id 'x'
                job.yaml:19:39: error: extract.path: invalid path 'records..sys_id': empty component; write names between dots, as in records.0.sys_id
                job.yaml:20:13: error: assert needs that: (the condition)
                job.yaml:21:14: error: foreach needs steps: (the steps to run for each item)
                job.yaml:21:15: error: bad expression in foreach: unexpected '#'
                job.yaml:22:12: error: a variable name '1bad' must be made of letters, digits and '_', and not start with a digit
                job.yaml:23:14: error: matches(): '[' is not a valid regular expression
                job.yaml:24:5: error: a step needs a kind: one of query, get, create, update, delete, extract, set, assert, foreach, include, ensure, http, attach, download, attachments, aggregate, change, import or order
                job.yaml:25:5: error: a step is a mapping with one kind (query, get, create, update, delete, extract, set, assert, foreach, include, ensure, http, attach, download, attachments, aggregate, change, import or order), not a string
                """)
    }

    @Test func whereOperatorsAreCheckedWhereTheyAreWritten() {
        let text = """
            name: Where
            steps:
              - query: { table: incident, where: { priority: { gte: 2, in: 3, between: [1], like: [a], empty: maybe }, state: {} } }
              - query: { table: incident, where: { or: { active: true } } }
              - query: { table: incident, where: { or: [ { active: true }, { Bad Field: 1 } ] } }
              - ensure: { table: incident, match: { number: { "=": INC1 } } }
              - query: { table: incident, where: { priority: { ">=": 2, "<=": 4 }, or: [ { active: true } ] } }
            """
        #expect(
            diagnostics(text) == """
                job.yaml:3:52: error: where: priority: unknown operator 'gte' (=, !=, >, >=, <, <=, in, not_in, like, not_like, starts_with, ends_with, between, empty)
                job.yaml:3:64: error: where: priority: in takes a list of values ([1, 2]), not a number
                job.yaml:3:76: error: where: priority: between takes a list of two values, the lowest and the highest ([1, 3])
                job.yaml:3:87: error: where: priority: like takes one value, not a list
                job.yaml:3:99: error: where: priority: empty must be true or false, not a string
                job.yaml:3:115: error: where: state needs a value, or an operator and a value ({">=": 2})
                job.yaml:4:44: error: where: or: must be a list of mappings of conditions, one of which a record matches
                job.yaml:5:66: error: 'Bad Field' is not a field name (letters, digits, '_' and '.')
                job.yaml:6:39: error: ensure's match: needs at least one field: value pair
                job.yaml:6:49: error: match: number must be a value or a list of values, not a mapping
                """)
    }

    @Test func aStepCannotUseItsOwnResultExceptInUntil() {
        let text = """
            name: x
            steps:
              - id: poll
                query: { table: incident, query: "number=${steps.poll.count}" }
                retry: { until: "steps.poll.count > 0" }
              - id: loop
                foreach: vars.items
                steps:
                  - get: { table: incident, sys_id: "${steps.loop.count}" }
            vars: { items: [1] }
            """
        #expect(
            diagnostics(text) == """
                job.yaml:4:48: error: steps.poll: a step cannot use its own result (only its retry.until can)
                job.yaml:9:44: error: steps.loop: a step cannot use its own result (only its retry.until can)
                """)
    }

    @Test func foreachNamesCannotHideTheRoots() {
        #expect(
            diagnostics(
                "name: x\nvars: { items: [1] }\nsteps:\n  - foreach: vars.items\n    as: steps\n    steps: []\n")
                == "job.yaml:5:9: error: foreach's as: 'steps' is a reserved name; choose another")
    }

    @Test func numbersJSONCannotHoldAreRefusedAndHugeDurationsAreErrors() {
        let text = """
            name: x
            vars: { limit: .inf, ratio: -.inf, text: ".nan" }
            steps:
              - create: { table: incident, fields: { impact: .NaN } }
                retry: { attempts: 2, delay: 1e300 }
            """
        #expect(
            diagnostics(text) == """
                job.yaml:2:16: error: '.inf' is a number JSON cannot hold; quote it (".inf") to write it as text
                job.yaml:2:29: error: '-.inf' is a number JSON cannot hold; quote it ("-.inf") to write it as text
                job.yaml:4:50: error: '.NaN' is a number JSON cannot hold; quote it (".NaN") to write it as text
                job.yaml:5:34: error: retry.delay must be a duration such as 2s, 500ms or 1m
                """)
    }

    @Test func yamlErrorsBecomeDiagnostics() {
        #expect(
            diagnostics("name: x\nsteps: [\n")
                == "job.yaml:3:1: error: did not find expected node content (while parsing a flow node at line 3, column 1)\n\n^"
        )
        #expect(
            diagnostics("name: x\nsteps:\n  - set: { a: 1 }\n\t- set: { b: 2 }\n") == """
                job.yaml:4:1: error: tab characters are not allowed for indentation; indent with spaces
                \t- set: { b: 2 }
                ^
                """)
        #expect(
            diagnostics("name: x\nsteps:\n  - set: { a: 1 }\n  - set: { b: 2 } }\n") == """
                job.yaml:4:19: error: did not find expected key (while parsing a block mapping at line 4, column 5)
                  - set: { b: 2 } }
                                  ^
                """)
        #expect(
            diagnostics("") == "job.yaml:1:1: error: the file holds no job; a job is a mapping with name: and steps:")
        #expect(diagnostics("- a") == "job.yaml:1:1: error: a job file is a mapping (name:, steps:, ...), not a list")
        #expect(diagnostics("steps: []") == "job.yaml:1:1: error: the job needs name:")
    }

    @Test func aMissingFileIsReportedWithoutAPosition() {
        #expect(
            throws: JobFileError(diagnostics: [
                Diagnostic(file: "/nonexistent/job.yaml", line: 0, column: 0, message: "no such file")
            ])
        ) {
            try JobFile.load(path: "/nonexistent/job.yaml")
        }
    }

    /// A job file is read straight into its text: a leading byte order mark is dropped (as `String(data:encoding:)`
    /// drops it), bytes that are not UTF-8 and a directory are refused without a position, an empty file holds no job.
    @Test func aFileIsReadAsUTF8Text() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jobfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func file(_ name: String, _ bytes: [UInt8]) throws -> String {
            let url = directory.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return url.path
        }
        func failure(_ path: String) -> String {
            do {
                _ = try JobFile.load(path: path)
                return "no error"
            } catch {
                return error.diagnostics.map(\.description).joined(separator: "\n")
            }
        }
        let job = Array("name: été\nsteps:\n  - set: { a: 1 }\n".utf8)
        #expect(try JobFile.load(path: try file("bom.yaml", [0xEF, 0xBB, 0xBF] + job)).name == "été")
        #expect(try JobFile.load(path: try file("plain.yaml", job)).name == "été")
        let latin1 = try file("latin1.yaml", Array("name: ".utf8) + [0xE9, 0x0A] + Array("steps: []\n".utf8))
        #expect(failure(latin1) == "\(latin1): error: the file is not UTF-8 text")
        let truncated = try file("truncated.yaml", job + [0xF0, 0x9F, 0x98])
        #expect(failure(truncated) == "\(truncated): error: the file is not UTF-8 text")
        let empty = try file("empty.yaml", [])
        #expect(failure(empty) == "\(empty):1:1: error: the file holds no job; a job is a mapping with name: and steps:")
        #expect(failure(directory.path) == "\(directory.path): error: cannot read the file")
    }
}
