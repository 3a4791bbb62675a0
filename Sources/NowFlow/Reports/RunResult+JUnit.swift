import Foundation

/// JUnit XML, as CI systems read it.
extension RunResult {
    /// The run as a JUnit test suite: one test case per step, failures with their message, skipped steps
    /// marked, and the records touched in `system-out`.
    public func junitXML() -> String {
        Self.junitXML(of: [self])
    }

    /// Several runs (`nowflow run a.yaml b.yaml`) as JUnit XML: one test suite per job, in order.
    public static func junitXML(of results: [RunResult]) -> String {
        let tests = results.reduce(0) { $0 + $1.steps.count }
        let failures = results.reduce(0) { $0 + $1.failureCount }
        let milliseconds = results.reduce(0) { $0 + $1.milliseconds }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="nowflow" tests="\#(tests)" failures="\#(failures)" time="\#(seconds(milliseconds))">"#,
        ]
        for result in results { lines += result.testSuiteLines() }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// How many steps failed or did not hold.
    private var failureCount: Int {
        steps.filter { $0.status == .failed || $0.status == .assertionFailed }.count
    }

    /// The run's `<testsuite>` element.
    private func testSuiteLines() -> [String] {
        let failures = failureCount
        let skipped = steps.filter { $0.status == .skipped }.count
        var lines = [
            #"  <testsuite name="\#(Self.escape(job))" tests="\#(steps.count)" failures="\#(failures)" skipped="\#(skipped)" time="\#(Self.seconds(milliseconds))" file="\#(Self.escape(file))">"#
        ]
        if !outputs.isEmpty {
            lines.append("    <properties>")
            for (name, value) in outputs {
                lines.append(#"      <property name="\#(Self.escape(name))" value="\#(Self.escape(value.text))"/>"#)
            }
            lines.append("    </properties>")
        }
        for step in steps {
            let open =
                #"    <testcase classname="\#(Self.escape(job))" name="\#(Self.escape(step.label))" time="\#(Self.seconds(step.milliseconds))""#
            switch step.status {
            case .passed:
                lines.append(open + "/>")
            case .skipped:
                lines.append(open + ">")
                lines.append(#"      <skipped message="\#(Self.escape(step.message))"/>"#)
                lines.append("    </testcase>")
            case .failed, .assertionFailed:
                let type = step.status == .failed ? "error" : "assertion"
                lines.append(open + ">")
                lines.append(
                    #"      <failure type="\#(type)" message="\#(Self.escape(step.message))">\#(Self.escape(step.message))</failure>"#
                )
                lines.append("    </testcase>")
            }
        }
        if !records.isEmpty {
            let (left, cleanedUp) = touchedRecordLines()
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
