import Foundation
import NowData
import Testing
import TestSupport

@testable import NowFlow

/// The job schema declared once (``JobSchema``), the reference and the JSON Schema derived from it, and the JSON
/// Schema checked by a validator from PyPI (`jsonschema`, in the virtualenv `scripts/test` makes:
/// `NOWFLOW_JSONSCHEMA_VENV`, by default `~/.cache/nowflow/jsonschema-venv`) against every job file of
/// `workflows/` and the docs' examples, which it must accept, and against broken jobs, which it must refuse.
@Suite struct JobSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let shippedSchema = root.appendingPathComponent("docs/job-file.schema.json")
    static let shippedReference = root.appendingPathComponent("docs/job-file-keys.md")

    /// The virtualenv's python, when it has `jsonschema`.
    static let python: URL? = {
        let environment = ProcessInfo.processInfo.environment
        let venv = environment["NOWFLOW_JSONSCHEMA_VENV"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/nowflow/jsonschema-venv")
            .path
        let python = URL(fileURLWithPath: venv).appendingPathComponent("bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path),
            (try? ChildProcess.run(python, ["-c", "import jsonschema"]))?.status == 0
        else { return nil }
        return python
    }()

    /// `docs/job-file-keys.md`: the reference the declaration gives, in a page.
    static var referencePage: String {
        """
        # Job file keys

        Every key of a job file, with its type and what it is for, listed from the declaration that `nowflow validate`
        checks keys against (as is [`job-file.schema.json`](job-file.schema.json), for editors); `*` marks a key its
        mapping needs. [job-files.md](job-files.md) explains each in full.

        ```text
        \(JobSchema.reference)
        ```

        """
    }

    /// `docs/job-file.schema.json` and `docs/job-file-keys.md` are what the declaration gives;
    /// `NOWFLOW_WRITE_SCHEMA=1 swift test --filter JobSchemaTests` writes them after a change to the declaration.
    @Test func theShippedJSONSchemaAndReferenceAreTheDeclaredOnes() throws {
        if ProcessInfo.processInfo.environment["NOWFLOW_WRITE_SCHEMA"] == "1" {
            try Data(JobSchema.jsonSchemaText.utf8).write(to: Self.shippedSchema)
            try Data(Self.referencePage.utf8).write(to: Self.shippedReference)
        }
        let schema = try String(contentsOf: Self.shippedSchema, encoding: .utf8)
        #expect(schema == JobSchema.jsonSchemaText, "run NOWFLOW_WRITE_SCHEMA=1 swift test --filter JobSchemaTests")
        let reference = try String(contentsOf: Self.shippedReference, encoding: .utf8)
        #expect(reference == Self.referencePage, "run NOWFLOW_WRITE_SCHEMA=1 swift test --filter JobSchemaTests")
    }

    @Test func everyMappingIsDeclaredOnceWithTheKeysTheDiagnosticsList() {
        #expect(StepKind.names == JobSchema.kinds.map(\.name))
        #expect(
            JobSchema.stepKeys(kind: "foreach")
                == ["id", "when", "retry", "continue_on_error", "once", "show", "tags"] + StepKind.names + [
                    "as", "steps", "parallel",
                ])
        #expect(JobSchema.kindNames(.records) == ["query", "get", "create", "update", "delete"])
        #expect(JobSchema.kindNames(.attachments) == ["attach", "download", "attachments", "aggregate"])
        #expect(JobSchema.kind("nope") == nil)
    }

    @Test func aKindsReferenceListsItsKeysTypesAndWhatTheyAreFor() throws {
        #expect(
            JobSchema.reference(ofKind: "http") == """
                http: Send one request to any API of the instance, and check its answer. Its value: mapping.
                  method   OPTIONS | GET | HEAD | POST | PUT | PATCH | DELETE | TRACE | CONNECT | ${...}  The request's method (GET by default).
                  path*    text with ${...}                                                               The path below the instance URL, starting with /, as /api/now/stats/incident.
                  query    name: value, ...                                                               Query parameters.
                  headers  name: value, ...                                                               Request headers.
                  body     any value                                                                      The body: a mapping or list is sent as JSON, a text as it is.
                  expect   mapping                                                                        What the answer must be.
                    status   100-599 | list        The status wanted, or a list of them (any 2xx by default).
                    headers  name: value, ...      Texts the answer's headers contain.
                    json     dot.path: value, ...  Values wanted at dot paths of the JSON body.
                  Result (steps.<id>): status, headers, body
                """)
        #expect(
            JobSchema.reference(ofKind: "foreach") == """
                foreach: Run steps once for each item of a list. Its value: expression.
                  Beside it in the step:
                    as        name                        The item's name in the body (item by default).
                    steps*    list of steps               The steps to run for each item.
                    parallel  whole number >= 1 | ${...}  How many items may run at once (1 by default, at most 32).
                  Result (steps.<id>): results, count
                """)
        #expect(
            JobSchema.reference(ofKind: "extract") == """
                extract: Take the value at a dot path of an expression's value. Its value: mapping.
                  from*  expression  The value to read from.
                  path*  text        A dot path such as records.0.sys_id.
                  Result (steps.<id>): the value itself
                """)
        let reference = JobSchema.reference
        for kind in StepKind.names { #expect(reference.contains("\n\(kind): ")) }
    }

    /// A valid step of each kind (but `set` and `include`, which have no required parameters a file can do
    /// without): its parameters, then the keys it has beside them.
    static let validSteps: [(kind: String, parameters: [(String, String)], beside: [(String, String)])] = [
        ("query", [("table", "incident")], []),
        ("get", [("table", "incident"), ("sys_id", "abc")], []),
        ("create", [("table", "incident"), ("fields", "{ short_description: x }")], []),
        ("update", [("table", "incident"), ("sys_id", "abc"), ("fields", "{ state: 2 }")], []),
        ("delete", [("table", "incident"), ("sys_id", "abc")], []),
        ("extract", [("from", "vars.items"), ("path", "0")], []),
        ("assert", [("that", "vars.items != null")], []),
        ("ensure", [("table", "incident"), ("match", "{ number: INC1 }")], []),
        ("http", [("path", "/api/now/stats/incident")], []),
        ("attach", [("table", "incident"), ("sys_id", "abc"), ("content", "x"), ("name", "x.txt")], []),
        ("download", [("attachment", "abc"), ("to", "out.txt")], []),
        ("attachments", [("table", "incident"), ("sys_id", "abc")], []),
        ("aggregate", [("table", "incident")], []),
        ("change", [("model", "Normal")], []),
        ("import", [("table", "u_incident_import"), ("file", "rows.csv")], []),
        ("order", [("item", "Standard Laptop")], []),
    ]

    /// The keys the declaration says are required are the ones nowflow needs: a valid step of each kind without
    /// one of them (and a job without `name` or `steps`) is refused with `needs <key>:`.
    @Test func aRequiredKeyLeftOutIsRefusedWithItsName() throws {
        func job(_ kind: String, _ parameters: [(String, String)], _ beside: [(String, String)]) -> String {
            let mapping = parameters.map { "\($0.0): \($0.1)" }.joined(separator: ", ")
            return "name: x\nvars: { items: [1, 2] }\nsteps:\n  - \(kind): { \(mapping) }\n"
                + beside.map { "    \($0.0): \($0.1)\n" }.joined()
        }
        func refusal(_ text: String) -> String? {
            do {
                _ = try JobFile.parse(text, file: "job.yaml")
                return nil
            } catch {
                return error.description
            }
        }
        var foreach = job("set", [("a", "1")], [])
        foreach = foreach.replacingOccurrences(of: "  - set: { a: 1 }\n", with: "  - foreach: vars.items\n    steps: [{ set: { a: 1 } }]\n")
        #expect(refusal(foreach) == nil)
        #expect(refusal(foreach.replacingOccurrences(of: "    steps: [{ set: { a: 1 } }]\n", with: ""))?.contains("foreach needs steps:") == true)
        #expect(JobSchema.kind("foreach")?.stepKeys.filter(\.isRequired).map(\.name) == ["steps"])
        let checked = Set(Self.validSteps.map(\.kind))
        #expect(Set(StepKind.names).subtracting(checked) == ["set", "foreach", "include"])
        for step in Self.validSteps {
            let parameters = try #require(JobSchema.kind(step.kind)?.parameters)
            #expect(refusal(job(step.kind, step.parameters, step.beside)) == nil, "\(step.kind)")
            for key in parameters.keys where key.isRequired {
                let without = step.parameters.filter { $0.0 != key.name }
                #expect(without.count < step.parameters.count, "\(step.kind): the example has no \(key.name)")
                let message = refusal(job(step.kind, without, step.beside))
                #expect(message?.contains("needs \(key.name):") == true, "\(step.kind) without \(key.name): \(message ?? "valid")")
            }
        }
        #expect(JobSchema.job.keys.filter(\.isRequired).map(\.name) == ["name", "steps"])
        #expect(refusal("steps: [{ set: { a: 1 } }]") == "job.yaml:1:1: error: the job needs name:")
        #expect(refusal("name: x") == "job.yaml:1:1: error: the job needs steps: (a list of steps)")
    }

    /// The types the declaration gives are the ones nowflow reads: a value of another type for a key declared
    /// true/false, a whole number, a duration, a display value or one of some words is refused, at the key's value,
    /// with a message that names the key.
    @Test func aValueOfAnotherTypeThanDeclaredIsRefused() throws {
        func wrongValue(_ type: SchemaType) -> String? {
            switch type {
            case .boolean: "maybe"
            case .count: "0"
            case .integers: "99"
            case .duration: "soon"
            case .displayValue: "some"
            case .choice: "nope"
            case .name: "1st"
            case .show: "some"
            default: nil
            }
        }
        var checked: [String] = []
        for step in Self.validSteps {
            let parameters = try #require(JobSchema.kind(step.kind)?.parameters)
            for key in parameters.keys {
                guard let wrong = wrongValue(key.type) else { continue }
                let given = step.parameters.filter { $0.0 != key.name } + [(key.name, wrong)]
                let mapping = given.map { "\($0.0): \($0.1)" }.joined(separator: ", ")
                let text = "name: x\nvars: { items: [1, 2] }\nsteps:\n  - \(step.kind): { \(mapping) }\n"
                #expect(throws: JobFileError.self, "\(step.kind).\(key.name): \(wrong)") {
                    try JobFile.parse(text, file: "job.yaml")
                }
                do {
                    _ = try JobFile.parse(text, file: "job.yaml")
                } catch {
                    #expect(error.description.contains(key.name), "\(error.description)")
                }
                checked.append("\(step.kind).\(key.name)")
            }
        }
        for key in JobSchema.step.keys + JobSchema.retry.keys {
            guard let wrong = wrongValue(key.type) else { continue }
            let option = JobSchema.retry.names.contains(key.name) ? "retry: { \(key.name): \(wrong) }" : "\(key.name): \(wrong)"
            let text = "name: x\nsteps:\n  - query: { table: incident }\n    \(option)\n"
            do {
                _ = try JobFile.parse(text, file: "job.yaml")
                Issue.record("\(option) was accepted")
            } catch {
                #expect(error.description.contains(key.name), "\(error.description)")
            }
            checked.append(key.name)
        }
        #expect(
            checked == [
                "query.limit", "query.page_size", "query.display_value", "query.exclude_reference_link", "query.collect",
                "query.paging", "query.overwrite",
                "get.display_value", "get.exclude_reference_link", "create.display_value",
                "create.exclude_reference_link", "create.input_display_value", "create.suppress_auto_sys_field",
                "update.max", "update.display_value", "update.exclude_reference_link", "update.input_display_value",
                "update.suppress_auto_sys_field", "delete.max", "ensure.state", "ensure.display_value",
                "ensure.exclude_reference_link", "ensure.input_display_value", "ensure.suppress_auto_sys_field",
                "http.method", "download.overwrite", "aggregate.count", "aggregate.display_value", "order.quantity",
                "order.wait", "id", "continue_on_error", "once", "show", "attempts", "delay",
            ])
    }

    /// A job file, or a docs example, as the validator is given it.
    struct Example {
        /// `job`: a whole job; `part`: some of a job's keys; `steps`: a list of steps.
        var form: String
        var name: String
        var value: JSONValue
    }

    /// The jobs of `workflows/`, and the examples of the docs that are a job, some of a job's keys or a list of steps
    /// (others, such as a vars file or config.yaml, are left out).
    static func examples() throws -> [Example] {
        var examples: [Example] = []
        let workflows = root.appendingPathComponent("workflows")
        let files = FileManager.default.enumerator(atPath: workflows.path)?.compactMap { $0 as? String } ?? []
        for file in files.sorted() where file.hasSuffix(".yaml") {
            let text = try String(contentsOf: workflows.appendingPathComponent(file), encoding: .utf8)
            let value = try #require(try YAMLParser.parse(text).flatMap { VarsFile.json(of: $0, problem: { _, _ in }) })
            examples.append(Example(form: "job", name: "workflows/\(file)", value: value))
        }
        for doc in ["docs/getting-started.md", "docs/job-files.md", "docs/repl.md"] {
            let lines = try String(contentsOf: root.appendingPathComponent(doc), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            var index = 0
            while index < lines.count {
                defer { index += 1 }
                guard lines[index].trimmingCharacters(in: .whitespaces) == "```yaml" else { continue }
                let start = index + 1
                let indent = lines[index].prefix { $0 == " " }.count
                var block: [Substring] = []
                index += 1
                while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
                    block.append(lines[index].dropFirst(min(indent, lines[index].prefix { $0 == " " }.count)))
                    index += 1
                }
                let node = try YAMLParser.parse(block.joined(separator: "\n"))
                guard let node, let value = VarsFile.json(of: node, problem: { _, _ in }) else { continue }
                let name = "\(doc):\(start)"
                if node.items != nil {
                    examples.append(Example(form: "steps", name: name, value: value))
                } else if let keys = node.pairs?.map(\.name) {
                    if keys.contains("steps") {
                        examples.append(Example(form: "job", name: name, value: value))
                    } else if keys.allSatisfy(JobSchema.job.names.contains) {
                        examples.append(Example(form: "part", name: name, value: value))
                    }
                }
            }
        }
        return examples
    }

    /// Jobs that nowflow refuses, each for one reason the schema can see.
    static let brokenJobs: [(name: String, yaml: String)] = [
        ("a misspelt key of a kind", "name: x\nsteps:\n  - query: { tabel: incident }"),
        ("a misspelt top-level key", "name: x\nstpes:\n  - query: { table: incident }"),
        ("no steps", "name: x"),
        ("no name", "steps:\n  - query: { table: incident }"),
        ("a step with two kinds", "name: x\nsteps:\n  - get: { table: incident, sys_id: a }\n    delete: { table: incident, sys_id: a }"),
        ("a step with no kind", "name: x\nsteps:\n  - id: a"),
        ("an unknown kind", "name: x\nsteps:\n  - fetch: { table: incident }"),
        ("a required key left out", "name: x\nsteps:\n  - get: { table: incident }"),
        ("a word not in the enumeration", "name: x\nsteps:\n  - ensure: { table: incident, match: { number: a }, state: gone }"),
        ("a text for a boolean", "name: x\nsteps:\n  - query: { table: incident }\n    continue_on_error: maybe"),
        ("a number below the minimum", "name: x\nsteps:\n  - query: { table: incident, limit: 0 }"),
        ("a status out of range", "name: x\nsteps:\n  - http: { path: /api, expect: { status: 600 } }"),
        ("a method that is none", "name: x\nsteps:\n  - http: { method: FETCH, path: /api }"),
        ("not a duration", "name: x\nsteps:\n  - query: { table: incident }\n    retry: { delay: soon }"),
        ("a display value that is none", "name: x\nsteps:\n  - get: { table: incident, sys_id: a, display_value: some }"),
        ("a foreach key without foreach", "name: x\nsteps:\n  - query: { table: incident }\n    as: row"),
        ("a foreach without steps", "name: x\nsteps:\n  - foreach: \"[1, 2]\""),
        ("a step id that is not a name", "name: x\nsteps:\n  - id: 1st\n    query: { table: incident }"),
        ("two kinds of auth", "name: x\nauth: { token: t, basic: { user: u, password: p } }\nsteps:\n  - query: { table: incident }"),
        ("a mapping for a text", "name: { first: x }\nsteps:\n  - query: { table: incident }"),
        ("an output name that is not a name", "name: x\nsteps:\n  - set: { a: 1 }\noutputs: { 1st: vars.a }"),
    ]

    @Test(.enabled(if: python != nil, "no virtualenv with jsonschema (scripts/test makes it)"))
    func theJSONSchemaAcceptsEveryJobAndDocsExampleAndRefusesBrokenJobs() throws {
        let python = try #require(Self.python)
        var cases = try Self.examples()
        #expect(cases.filter { $0.name.hasPrefix("workflows/") }.count >= 10)
        #expect(cases.filter { $0.name.hasPrefix("docs/job-files.md") }.count >= 25)
        for broken in Self.brokenJobs {
            #expect(throws: JobFileError.self, "\(broken.name)") { try JobFile.parse(broken.yaml, file: "broken.yaml") }
            let node = try #require(try YAMLParser.parse(broken.yaml))
            let value = try #require(VarsFile.json(of: node, problem: { _, _ in }))
            cases.append(Example(form: "job", name: broken.name, value: value))
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("job-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let casesFile = directory.appendingPathComponent("cases.json")
        let list = JSONValue.array(
            cases.map { ["form": .string($0.form), "name": .string($0.name), "value": $0.value] })
        try list.jsonData().write(to: casesFile)
        let result = try ChildProcess.run(python, ["-c", Self.validator, Self.shippedSchema.path, casesFile.path])
        #expect(result.status == 0, "\(result.stderr)")
        let brokenNames = Set(Self.brokenJobs.map(\.name))
        let expected = cases.map { "\($0.name): \(brokenNames.contains($0.name) ? "invalid" : "valid")" }
        #expect(result.stdout == expected.joined(separator: "\n") + "\n", "\(result.stderr)")
    }

    /// Validates each case of a JSON file against the schema, with `jsonschema`'s draft-07 validator: a job against
    /// the whole schema, some of a job's keys against it without its required keys, each step of a list against the
    /// step's definition. Prints `name: valid` or `name: invalid`, and why on stderr.
    static let validator = """
        import json, sys
        import jsonschema
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft7Validator.check_schema(schema)
        part = dict(schema)
        part.pop("required")
        validators = {
            "job": jsonschema.Draft7Validator(schema),
            "part": jsonschema.Draft7Validator(part),
            "steps": jsonschema.Draft7Validator({"$ref": "#/definitions/step", "definitions": schema["definitions"]}),
        }
        for case in json.load(open(sys.argv[2])):
            validator = validators[case["form"]]
            values = case["value"] if case["form"] == "steps" else [case["value"]]
            errors = [error for value in values for error in validator.iter_errors(value)]
            print(case["name"] + ": " + ("invalid" if errors else "valid"))
            for error in errors:
                print(case["name"] + ": " + "/".join(map(str, error.absolute_path)) + ": " + error.message, file=sys.stderr)
        """
}
