import Foundation
import Testing

/// `--help` on each subcommand and its usage errors, from the arguments and options it declares, and `--version`.
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
                usage: nowflow run JOB.yaml... [--instance local|URL|PROFILE] [--var name=value]... [--vars-file FILE]... [--dry-run]
                                   [--report junit:PATH|json:PATH]... [--output text|json] [--tz ZONE] [--verbose] [--quiet]
                                   [--tags TAG,...]... [--skip-tags TAG,...]... [--fail-fast] [--offline] [--refresh-schema]
                                   [--detailed-exitcode] [--annotations github|gitlab|none] [--rate N/s|N/h] [--shard K/N]

                Runs a job file's steps in order, then its finally steps (also after a failure or Ctrl-C), with a line per
                step on stderr and, on stdout, each step's records or values, the outcome and the records touched. Several
                job files run one after the other. Exit status: 0 passed, 1 usage or configuration error, 2 invalid job
                file or unknown name, 3 a step failed, 4 an assertion failed, 5 with --detailed-exitcode a passed run that
                changed a record, 130/143/129 SIGINT/SIGTERM/SIGHUP, 141 stdout or stderr closed (the first job that did
                not pass).

                options:
                  --instance local|URL|PROFILE      the instance (default: the job's instance:, else local)
                  --var name=value                  set a declared variable, of its declared type (repeatable)
                  --vars-file FILE                  set declared variables from a YAML or JSON file (repeatable; later ones win)
                  --dry-run                         run the reads; list the writes and send none
                  --report junit:PATH|json:PATH     write a report (repeatable; the directory must exist)
                  --output text|json                the outcome on stdout as text (default) or JSON
                  --tz ZONE                         the time zone dates are shown in (UTC, local or an IANA name)
                  --verbose                         list each request sent; print every step result and variable
                  --quiet                           print only the failed steps and the outcome
                  --tags TAG,...                    run only the steps with one of these tags (or always)
                  --skip-tags TAG,...               skip the steps with one of these tags
                  --fail-fast                       with several job files, run none after the first that does not pass
                  --offline                         do not check table and field names against the instance
                  --refresh-schema                  read the instance's dictionary afresh, not from ~/.nowflow/schema/
                  --detailed-exitcode               exit 5 when the run (or dry run) changed (would change) a record
                  --annotations github|gitlab|none  annotate for a CI (default: github if GITHUB_ACTIONS=true, gitlab if GITLAB_CI=true)
                  --rate N/s|N/h                    send at most N requests a second (or minute, /min, or hour), whatever the job's rate:
                  --shard K/N                       run shard K of N: of each foreach over records, the items whose sys_id hashes to K; the rate / N

                """)
    }

    @Test func reportMergeHelp() throws {
        let result = try run(["report", "merge", "--help"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(
            result.stdout == """
                usage: nowflow report merge SHARD.json... [--report junit:PATH|json:PATH]...

                Joins the JSON reports of a sharded run into one report of the same schema, every shard once (each runner
                ran nowflow run --shard K/N --report json:PATH): written by --report, else printed on stdout. Exit status:
                0 every shard passed, else that of the first shard in shard order that did not (2 invalid, 3 a step
                failed, 4 an assertion failed, 130/143/129/141 a signal), 1 reports that cannot be merged.

                options:
                  --report junit:PATH|json:PATH  write the merged report (repeatable; the directory must exist)

                """)
        // `nowflow report --help` shows the same: merge is report's one subcommand.
        #expect(try run(["report", "-h"]).stdout == result.stdout)
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
                usage: nowflow repl [JOB.yaml] [--instance local|URL|PROFILE] [--keep-going]

                Runs steps one at a time, interactively, with the job file's variables and steps when one is given.

                options:
                  --instance local|URL|PROFILE  the instance (default: the job's, else local)
                  --keep-going                  from a pipe, run the lines after a rejected one (and exit 0 for it)

                """)
    }

    @Test func serveHelpListsEveryOption() throws {
        let result = try run(["serve", "--help"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(
            result.stdout == """
                usage: nowflow serve [--host ADDR] [--port N] [--db PATH] [--schema FILE] [--user NAME] [--password PW]
                                     [--password-file FILE] [--latency MS] [--fail-rate R] [--fail-first N] [--fail-status 429|500|503]
                                     [--retry-after S] [--drop-rate R] [--lost-response-rate R] [--invalid-query-no-rows]
                                     [--oauth-client ID:SECRET]... [--oauth-client-file FILE] [--api-key-file FILE]
                                     [--attachment-max-size MB] [--header-timeout S] [--login-failure-limit N] [--lockout-time S]
                                     [--allowed-host NAME]... [--tls] [--tls-name NAME]... [--tls-cert FILE] [--tls-key FILE]
                                     [--tls-port N] [--tls-client-ca FILE] [--time-zone ZONE] [--profile pdi] [--rate-rules]
                                     [--rate-window S] [--semaphore N] [--semaphore-queue N] [--session-queue N] [--api-quota S]
                                     [--batch-quota S]

                Serves the local instance over HTTP (HTTPS with --tls or --tls-cert) until SIGINT or SIGTERM. The admin
                password is --password, the first line of --password-file, else NOWFLOW_ADMIN_PASSWORD (out of sight of
                ps), else the documented default admin; OAuth clients may also come from NOWFLOW_OAUTH_CLIENTS
                (comma-separated ID:SECRET), and the admin's REST API key (x-sn-apikey) from NOWFLOW_API_KEY, without
                --api-key-file. NOWFLOW_PASSWORD_ITERATIONS sets the rounds of PBKDF2-HMAC-SHA256 of new password hashes
                (default 600000; fewer only for tests). On a loopback --host, a request whose Host header is not
                localhost, a loopback address or an --allowed-host is refused. --tls makes a certificate authority in
                ~/.nowflow/tls once (its ca.pem is the file clients trust) and a server certificate for localhost,
                127.0.0.1, ::1 and each --tls-name.

                options:
                  --host ADDR                the address to listen on (default 127.0.0.1; any other needs a password)
                  --port N                   the port (default 8080; 0 picks a free one); HTTPS with a certificate, unless --tls-port
                  --db PATH                  the SQLite database (default ~/.nowflow/local.db; :memory: keeps nothing)
                  --schema FILE              a dictionary file with extra tables
                  --user NAME                the administrator's user_name (default admin)
                  --password PW              the administrator's password (visible in ps: prefer the file or the environment)
                  --password-file FILE       the administrator's password: the file's first line (not with --password)
                  --latency MS               milliseconds added to every answer (at most 60000)
                  --fail-rate R              the share (0 to 1) of requests answered with --fail-status instead of being handled
                  --fail-first N             answer the first N requests with --fail-status, whatever the rates
                  --fail-status 429|500|503  the status of injected failures (default 503)
                  --retry-after S            the Retry-After seconds of an injected 429 (default 1)
                  --drop-rate R              the share of requests whose connection is closed before they are handled
                  --lost-response-rate R     the share of requests handled, then closed without an answer
                  --invalid-query-no-rows    an invalid query condition matches nothing instead of being ignored
                  --oauth-client ID:SECRET   register an OAuth application acting as the administrator (repeatable)
                  --oauth-client-file FILE   register the OAuth applications of FILE, one ID:SECRET a line
                  --api-key-file FILE        the admin's REST API key: the file's first line (the sys_api_key 'nowflow serve')
                  --attachment-max-size MB   the largest attachment an upload may create, in MB (default 1024)
                  --header-timeout S         seconds a request's headers may take to arrive (default 30), then the connection closes
                  --login-failure-limit N    logins failed in a row that lock a user or client (default 10, an address 5x; 0 never)
                  --lockout-time S           seconds a lock lasts (default 300)
                  --allowed-host NAME        one more Host header name accepted on a loopback --host, such as a proxy's (repeatable)
                  --tls                      serve HTTPS with a certificate made in ~/.nowflow/tls
                  --tls-name NAME            with --tls: one more DNS name or IP address the certificate is for (repeatable)
                  --tls-cert FILE            serve HTTPS with this certificate (PEM) instead of --tls; with --tls-key
                  --tls-key FILE             the private key of --tls-cert (PEM, unencrypted)
                  --tls-port N               with a certificate: serve HTTPS on this port, and HTTP on --port
                  --tls-client-ca FILE       ask HTTPS clients for a certificate these CAs issued; it logs in as the user it names
                  --time-zone ZONE           the system time zone a user without one sees (IANA; default America/Los_Angeles, a PDI's)
                  --profile pdi              emulate a PDI's limits: rate-limit rules, 4 concurrent requests, session queue 10, quotas
                  --rate-rules               enforce the sys_rate_limit_rules records (counted per hour, or per --rate-window)
                  --rate-window S            with rate rules: seconds a rule counts requests in (default 3600, the platform's)
                  --semaphore N              handle at most N requests at once (a PDI: 4); more wait in the queue
                  --semaphore-queue N        with --semaphore: requests that may wait (default 50); one more gets 429
                  --session-queue N          handle one request per JSESSIONID at a time, N waiting (a PDI: 10); more get 202
                  --api-quota S              cancel a Table, Import Set, Aggregate or Attachment API request after S seconds (a PDI: 60)
                  --batch-quota S            cancel a batch request after S seconds (a PDI: 30)

                """)
    }

    @Test(arguments: [
        (["run", "job.yaml", "--dry-rn"], "nowflow run: unknown option --dry-rn; did you mean --dry-run?\nsee 'nowflow run --help'\n"),
        (["validate", "--ofline", "job.yaml"], "nowflow validate: unknown option --ofline; did you mean --offline?\nsee 'nowflow validate --help'\n"),
        (["repl", "--instnace=local"], "nowflow repl: unknown option --instnace; did you mean --instance?\nsee 'nowflow repl --help'\n"),
        (["run", "job.yaml", "--hlep"], "nowflow run: unknown option --hlep; did you mean --help?\nsee 'nowflow run --help'\n"),
    ])
    func anUnknownOptionNamesTheNearestDeclaredOne(_ arguments: [String], _ message: String) throws {
        let result = try run(arguments)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == message)
    }

    @Test func anUnknownOptionWithNoNearNameIsOneLine() throws {
        let result = try run(["run", "job.yaml", "--frobnicate"])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "nowflow run: unknown option --frobnicate\nsee 'nowflow run --help'\n")
    }

    @Test(arguments: [
        (["run", "job.yaml", "--instance"], "nowflow run: option --instance needs a value\nsee 'nowflow run --help'\n"),
        (["serve", "--port"], "nowflow serve: option --port needs a value\nsee 'nowflow serve --help'\n"),
        (["run", "job.yaml", "--dry-run=yes"], "nowflow run: option --dry-run takes no value\nsee 'nowflow run --help'\n"),
    ])
    func aMissingOrUnwantedValueIsOneLine(_ arguments: [String], _ message: String) throws {
        let result = try run(arguments)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == message)
    }

    @Test func versionIsACommand() throws {
        for words in [["--version"], ["version"]] {
            let result = try run(words)
            #expect(result.status == 0)
            #expect(result.stdout == "nowflow 0.1.0\n")
        }
    }
}
