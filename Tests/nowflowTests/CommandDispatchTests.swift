import Foundation
import Testing

/// The top level of `nowflow`: choosing a subcommand, and the usage it prints otherwise.
@Suite struct CommandDispatchTests {
    static let usage = """
        usage: nowflow run JOB.yaml... [--instance local|URL|PROFILE] [--var name=value]... [--vars-file FILE]...
                                    [--dry-run] [--report junit:PATH] [--report json:PATH] [--output text|json] [--tz ZONE]
                                    [--verbose] [--quiet] [--tags TAG,...] [--skip-tags TAG,...] [--fail-fast]
                                    [--offline] [--refresh-schema] [--detailed-exitcode]
               nowflow validate JOB.yaml... [--instance local|URL|PROFILE] [--offline] [--strict] [--refresh-schema]
               nowflow repl [JOB.yaml] [--instance local|URL|PROFILE]
               nowflow serve [--host 127.0.0.1] [--port 8080] [--db PATH] [--schema FILE] [--user admin --password ...]

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
    ])
    func aMissingOrUnknownCommandIsAUsageError(_ arguments: [String], _ message: String) throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(arguments, in: directory)
        #expect(result.status == 1)
        #expect(result.stderr == message + "\n" + Self.usage)
    }
}
