import Foundation
import Testing
import TestSupport

/// The reports of `nowflow run` read by consumers from PyPI, from the virtualenv `scripts/test` makes
/// (`NOWFLOW_REPORTS_VENV`, by default `~/.cache/nowflow/reports-venv`): the JSON report validated against the
/// shipped `docs/report.schema.json` with `jsonschema`, the JUnit report read by `junitparser` as a CI would.
enum ReportCheck {
    static let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/report.schema.json")

    /// The virtualenv's python, when it has `jsonschema` and `junitparser`.
    static let python: URL? = {
        let venv = ProcessInfo.processInfo.environment["NOWFLOW_REPORTS_VENV"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/nowflow/reports-venv").path
        let python = URL(fileURLWithPath: venv).appendingPathComponent("bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path),
            (try? ChildProcess.run(python, ["-c", "import jsonschema, junitparser"]))?.status == 0
        else { return nil }
        return python
    }()

    /// Expects `json` (a JSON report, or `--output json`) to be valid against the shipped schema, and each step's
    /// result to be valid against the result kind of its step's kind (`definitions/result_<kind>`); without the
    /// virtualenv, checks nothing.
    static func expectValid(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let python else { return }
        do {
            let result = try runPython(python, validator, input: json)
            #expect(result.status == 0 && result.stdout == "valid\n", "\(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
        } catch {
            Issue.record(error, sourceLocation: sourceLocation)
        }
    }

    /// The JUnit XML as `junitparser` reads it: a line per test suite (its counts), per property and per test
    /// case (its name, `file:line` and each result: `failure`, `error` or `skipped` with its message).
    static func junitReading(_ xml: String) throws -> String {
        let python = try #require(python)
        let result = try runPython(python, junitReader, input: xml)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// The report with what changes from run to run fixed: durations 0, times 0.000.
    static func normalized(_ report: String) -> String {
        report.replacingOccurrences(of: #""duration_ms": \d+"#, with: #""duration_ms": 0"#, options: .regularExpression)
            .replacingOccurrences(of: #"time="\d+\.\d+""#, with: #"time="0.000""#, options: .regularExpression)
    }

    private static func runPython(_ python: URL, _ script: String, input: String) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
        try input.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try ChildProcess.run(python, ["-c", script, schema.path, file.path])
    }

    /// Validates the report against the schema, then each top-level step's result against its kind's definition.
    static let validator = """
        import json, sys
        import jsonschema
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft7Validator.check_schema(schema)
        report = json.load(open(sys.argv[2]))
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in jsonschema.Draft7Validator(schema).iter_errors(report)]
        for job in report.get("jobs", []):
            for step in job.get("steps", []):
                if step.get("id") in job.get("results", {}) and step["number"].replace("finally ", "").isdigit():
                    kind = {"$ref": "#/definitions/result_" + step["kind"], "definitions": schema["definitions"]}
                    for e in jsonschema.Draft7Validator(kind).iter_errors(job["results"][step["id"]]):
                        errors.append(f"results/{step['id']} ({step['kind']}): {e.message}")
        print("\\n".join(errors) if errors else "valid")
        """

    /// Reads the JUnit XML with junitparser, `file` and `line` declared as its documentation says for attributes
    /// of one's own.
    static let junitReader = """
        import sys
        from junitparser import JUnitXml, TestCase, Attr, IntAttr
        TestCase.file = Attr("file")
        TestCase.line = IntAttr("line")
        for suite in JUnitXml.fromfile(sys.argv[2]):
            print(f"suite {suite.name}: tests {suite.tests}, failures {suite.failures}, errors {suite.errors}, skipped {suite.skipped}")
            for prop in suite.properties():
                print(f"  property {prop.name} = {prop.value}")
            for case in suite:
                results = [f"{type(r).__name__.lower()}: {r.message}" for r in case.result] or ["passed"]
                print(f"  case {case.name} ({case.classname}, {case.file}:{case.line}): {'; '.join(results)}")
        """
}
