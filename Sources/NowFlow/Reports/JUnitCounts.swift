/// The counts of a `<testsuite>` or `<testsuites>` element.
struct JUnitCounts {
    var tests = 0
    var failures = 0
    var errors = 0
    var skipped = 0

    /// `tests="4" failures="1" errors="0" skipped="2"`.
    var attributes: String {
        #"tests="\#(tests)" failures="\#(failures)" errors="\#(errors)" skipped="\#(skipped)""#
    }

    static func + (left: JUnitCounts, right: JUnitCounts) -> JUnitCounts {
        JUnitCounts(
            tests: left.tests + right.tests, failures: left.failures + right.failures, errors: left.errors + right.errors,
            skipped: left.skipped + right.skipped)
    }
}
