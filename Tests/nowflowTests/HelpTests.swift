import Foundation
import Testing

/// `--help` on each subcommand, from the options it declares, and `--version`.
@Suite struct HelpTests {
    private func run(_ arguments: [String]) throws -> ToolInvocation {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        return try ToolInvocation.run(arguments, in: directory)
    }

    @Test func runHelpListsEveryOption() throws {
        let result = try run(["run", "--help"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(
            result.stdout == """
                usage: nowflow run JOB.yaml... [--instance local|URL|PROFILE] [--var name=value]... [--vars-file FILE]...
                                            [--dry-run] [--report junit:PATH] [--report json:PATH] [--output text|json] [--tz ZONE]
                                            [--verbose] [--quiet] [--tags TAG,...] [--skip-tags TAG,...] [--fail-fast]
                                            [--offline] [--refresh-schema] [--detailed-exitcode]

                Runs a job file's steps in order, then its finally steps (also after a failure or Ctrl-C), with a line per
                step on stderr and, on stdout, each step's records or values, the outcome and the records touched. Several
                job files run one after the other. Exit status: 0 passed, 1 usage error, 2 invalid job file or unknown
                name, 3 a step failed, 4 an assertion failed, 5 with --detailed-exitcode a passed run that changed a
                record, 130/143/129 SIGINT/SIGTERM/SIGHUP, 141 stdout or stderr closed (the first job that did not pass).

                options:
                  --instance local|URL|PROFILE   the instance (default: the job's instance:, else local)
                  --var name=value               set a declared variable, of its declared type (repeatable)
                  --dry-run                      run the reads; list the writes and send none
                  --report junit:PATH|json:PATH  write a report (repeatable; the directory must exist)
                  --output text|json             the outcome on stdout as text (default) or JSON
                  --tz ZONE                      the time zone dates are shown in (UTC, local or an IANA name)
                  --verbose                      list each request sent; print every step result and variable
                  --vars-file FILE               set declared variables from a YAML or JSON file (repeatable; later ones win)
                  --tags TAG,...                 run only the steps with one of these tags (or always)
                  --skip-tags TAG,...            skip the steps with one of these tags
                  --fail-fast                    with several job files, run none after the first that does not pass
                  --quiet                        print a line per step only, not the records and values each one gave
                  --offline                      do not check table and field names against the instance
                  --refresh-schema               read the instance's dictionary afresh, not from ~/.nowflow/schema/
                  --detailed-exitcode            exit 5 when the run (or dry run) changed (would change) a record

                """)
    }

    @Test func validateAndReplHelp() throws {
        let validate = try run(["validate", "job.yaml", "-h"])
        #expect(validate.status == 0)
        #expect(
            validate.stdout == """
                usage: nowflow validate JOB.yaml... [--instance local|URL|PROFILE] [--offline] [--strict] [--refresh-schema]

                Checks job files without running them and prints every problem as file:line:column: error: message.
                Also checks table and field names against the dictionary of the instance each job would run on (as run
                does: --instance, else the job's instance:, else NOW_INSTANCE/SN_HOST, else the embedded one), sending
                only reads; a file whose names could not be checked (instance unreachable, credentials refused, dictionary
                not readable) is ok with the reason. Exit status: 0 every file valid, 1 usage error, 2 a file has a
                problem (with --strict, names not checked), 3 an instance cannot be opened.

                options:
                  --instance local|URL|PROFILE  check names against this instance (default: the job's instance:, else local)
                  --offline                     do not check table and field names against an instance
                  --strict                      fail (exit 2) a file whose names could not be checked, as for CI
                  --refresh-schema              read the instance's dictionary afresh, not from ~/.nowflow/schema/

                """)
        let repl = try run(["repl", "--help"])
        #expect(repl.status == 0)
        #expect(
            repl.stdout == """
                usage: nowflow repl [JOB.yaml] [--instance local|URL|PROFILE]

                Runs steps one at a time, interactively, with the job file's variables and steps when one is given.

                options:
                  --instance local|URL|PROFILE  the instance (default: the job's, else local)

                """)
    }

    @Test func versionIsACommand() throws {
        for words in [["--version"], ["version"]] {
            let result = try run(words)
            #expect(result.status == 0)
            #expect(result.stdout == "nowflow 0.1.0\n")
        }
    }
}
