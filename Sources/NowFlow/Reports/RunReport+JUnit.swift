import Foundation

/// JUnit XML, as CI systems read it: one test suite per job file, one test case per step (and per diagnostic of a
/// file that did not validate), named so that inserting a step renames no other (`docs/ci.md`).
extension RunReport {
    /// The report as JUnit XML, with a final newline.
    public func junitXML() -> String {
        let suites = results.map(\.junitCounts)
        let total = suites.reduce(JUnitCounts()) { $0 + $1 }
        let milliseconds = results.reduce(0) { $0 + $1.milliseconds }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="nowflow" \#(total.attributes) time="\#(Self.seconds(milliseconds))">"#,
        ]
        for result in results { lines += testSuiteLines(of: result) }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A job's `<testsuite>`: its properties (nowflow's version, the instance, the variables masked, the outputs),
    /// a test case per diagnostic and per step (and one for the job's error when neither has it), and the records
    /// touched in `system-out`.
    private func testSuiteLines(of result: RunResult) -> [String] {
        // Each shard's suite is named apart, so that the suites of a merged report's shards do not mix.
        let name = Self.escape(result.job + (result.shard.map { " (shard \($0))" } ?? ""))
        var lines = [
            #"  <testsuite name="\#(name)" \#(result.junitCounts.attributes) time="\#(Self.seconds(result.milliseconds))" file="\#(Self.escape(result.file))">"#,
            "    <properties>",
        ]
        var properties = [("nowflow.version", nowflowVersion)]
        if !result.instance.isEmpty { properties.append(("instance", result.instance)) }
        if let shard = result.shard { properties.append(("shard", shard.description)) }
        if !result.unlisted.isEmpty { properties.append(("unlisted", result.unlisted.summary)) }
        properties += result.vars.sorted { $0.key < $1.key }.map { ("vars.\($0.key)", $0.value.text) }
        properties += result.outputs.map { ("outputs.\($0.key)", $0.value.text) }
        for (property, value) in properties {
            lines.append(#"      <property name="\#(Self.escape(property))" value="\#(Self.escape(value))"/>"#)
        }
        lines.append("    </properties>")
        for diagnostic in result.diagnostics where !diagnostic.isWarning {
            let place = diagnostic.line > 0 ? "\(diagnostic.file):\(diagnostic.line):\(diagnostic.column)" : diagnostic.file
            lines += [
                #"    <testcase classname="\#(name)" name="\#(Self.escape(place))" file="\#(Self.escape(diagnostic.file))" line="\#(diagnostic.line)" time="0.000">"#,
                #"      <failure type="invalid" message="\#(Self.escape(diagnostic.message))">\#(Self.escape(diagnostic.description))</failure>"#,
                "    </testcase>",
            ]
        }
        if result.hasUnplacedError {
            // Why the job did not pass when no step nor diagnostic says it (its instance could not be opened, an
            // output failed, a signal stopped it between steps): a test case of its own, so that CI shows it.
            let message = Self.escape(result.error ?? result.status.rawValue)
            lines += [
                #"    <testcase classname="\#(name)" name="(job)" file="\#(Self.escape(result.file))" line="0" time="0.000">"#,
                #"      <error type="\#(result.status.rawValue)" message="\#(message)">\#(message)</error>"#,
                "    </testcase>",
            ]
        }
        for step in result.steps {
            let open =
                #"    <testcase classname="\#(name)" name="\#(Self.escape(step.reportName))" file="\#(Self.escape(step.file))" line="\#(step.line)" time="\#(Self.seconds(step.milliseconds))""#
            let message = Self.escape(step.message)
            let text = Self.escape("\(step.label): \(step.message)")
            switch step.status {
            case .passed:
                lines.append(open + "/>")
            case .skipped, .notRun:
                lines += [open + ">", #"      <skipped message="\#(message)"/>"#, "    </testcase>"]
            case .assertionFailed:
                lines += [open + ">", #"      <failure type="assertion" message="\#(message)">\#(text)</failure>"#, "    </testcase>"]
            case .failed:
                lines += [open + ">", #"      <error type="error" message="\#(message)">\#(text)</error>"#, "    </testcase>"]
            }
        }
        if !result.records.isEmpty {
            let (left, cleanedUp) = result.touchedRecordLines()
            let touched = (left + cleanedUp).sorted { $0.order < $1.order }.map(\.text).joined(separator: "\n")
            lines.append("    <system-out>\(Self.escape(touched))</system-out>")
        }
        lines.append("  </testsuite>")
        return lines
    }

    private static func seconds(_ milliseconds: Int) -> String {
        String(format: "%.3f", Double(milliseconds) / 1000)
    }

    private static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n": result += "&#10;"
            default:
                if let scalar = character.unicodeScalars.first, scalar.value < 0x20, scalar != "\t" { continue }
                result.append(character)
            }
        }
        return result
    }
}
