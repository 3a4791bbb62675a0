import Foundation
import Testing

/// The top level of `nowflow`: choosing a subcommand, and the usage it prints otherwise.
@Suite struct CommandDispatchTests {
    static let usage = """
        usage: nowflow run JOB.yaml... [--instance local|URL|PROFILE] [--var name=value]... [--vars-file FILE]... [--dry-run]
                           [--report junit:PATH|json:PATH]... [--output text|json] [--tz ZONE] [--verbose] [--quiet]
                           [--tags TAG,...]... [--skip-tags TAG,...]... [--fail-fast] [--offline] [--refresh-schema]
                           [--detailed-exitcode] [--annotations github|gitlab|none] [--rate N/s|N/h] [--shard K/N]
               nowflow validate JOB.yaml... [--instance local|URL|PROFILE] [--offline] [--strict] [--refresh-schema]
               nowflow repl [JOB.yaml] [--instance local|URL|PROFILE] [--keep-going]
               nowflow serve [--host ADDR] [--port N] [--db PATH] [--schema FILE] [--user NAME] [--password PW]
                             [--password-file FILE] [--latency MS] [--fail-rate R] [--fail-first N] [--fail-status 429|500|503]
                             [--retry-after S] [--drop-rate R] [--lost-response-rate R] [--invalid-query-no-rows]
                             [--oauth-client ID:SECRET]... [--oauth-client-file FILE] [--api-key-file FILE]
                             [--attachment-max-size MB] [--header-timeout S] [--login-failure-limit N] [--lockout-time S]
                             [--allowed-host NAME]... [--tls] [--tls-name NAME]... [--tls-cert FILE] [--tls-key FILE]
                             [--tls-port N] [--tls-client-ca FILE] [--time-zone ZONE] [--profile pdi] [--rate-rules]
                             [--rate-window S] [--semaphore N] [--semaphore-queue N] [--session-queue N] [--api-quota S]
                             [--batch-quota S]
               nowflow report merge SHARD.json... [--report junit:PATH|json:PATH]...
               nowflow completion bash|zsh|fish

        """

    @Test func helpPrintsTheUsageOnStandardOutput() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(["--help"], in: directory)
        #expect(result.status == 0)
        #expect(result.stdout == Self.usage)
    }

    @Test(arguments: [
        ([], "nowflow: no command given"),
        (["frob"], "nowflow: unknown command 'frob'"),
        (["rnu", "job.yaml"], "nowflow: unknown command 'rnu'; did you mean 'run'?"),
    ])
    func aMissingOrUnknownCommandIsAUsageError(_ arguments: [String], _ message: String) throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(arguments, in: directory)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == message + "\nsee 'nowflow --help'\n")
    }
}
