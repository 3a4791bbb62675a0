import Foundation
@preconcurrency import Glibc
import LocalInstance
import TestSupport
import Testing

@testable import nowflow

@Suite struct ServeCommandTests {
    @Test func anUnknownOptionIsAUsageErrorOnOneLine() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let unknown = try ToolInvocation.run(["serve", "--verbose"], in: directory)
        #expect(unknown.status == 1)
        #expect(unknown.stdout == "")
        #expect(unknown.stderr == "nowflow serve: unknown option --verbose\nsee 'nowflow serve --help'\n")
        let misspelt = try ToolInvocation.run(["serve", "--pasword-file", "pw.txt"], in: directory)
        #expect(misspelt.status == 1)
        #expect(
            misspelt.stderr
                == "nowflow serve: unknown option --pasword-file; did you mean --password-file?\nsee 'nowflow serve --help'\n")
    }

    @Test func readsEveryOption() throws {
        let settings = try ServeCommand.parse(
            [
                "--host", "127.0.0.2", "--port", "0", "--db", "/tmp/x.db", "--schema", "tables.json", "--user", "root",
                "--password", "pw", "--latency", "250", "--fail-rate", "0.1", "--fail-status", "429",
                "--retry-after", "3", "--drop-rate", "0.05", "--lost-response-rate", "0.02", "--invalid-query-no-rows",
                "--attachment-max-size", "2048", "--header-timeout", "5", "--allowed-host", "proxy.example",
                "--allowed-host=dev.local:8443", "--time-zone", "Europe/Paris",
            ], environment: [:])
        #expect(settings.options.systemTimeZone.identifier == "Europe/Paris")
        #expect(settings.headerTimeout == .seconds(5))
        #expect(settings.allowedHosts == ["proxy.example", "dev.local:8443"])
        #expect(settings.options.attachmentMaxSize == 2048 << 20)
        #expect(settings.host == "127.0.0.2")
        #expect(settings.port == 0)
        #expect(settings.options.databasePath == "/tmp/x.db")
        #expect(settings.options.schemaFile == "tables.json")
        #expect(settings.options.adminUser == "root")
        #expect(settings.options.adminPassword == "pw")
        #expect(settings.options.invalidQueryReturnsNoRows)
        #expect(!settings.usesDefaultPassword)
        #expect(
            settings.options.faults
                == FaultInjection(
                    latency: .milliseconds(250), statusRate: 0.1, status: 429, retryAfterSeconds: 3, dropRate: 0.05,
                    lostResponseRate: 0.02))
    }

    @Test func readsTheTLSOptions() throws {
        #expect(try ServeCommand.parse([], environment: [:]).tls == nil)
        let made = try ServeCommand.parse(
            ["--tls", "--tls-name", "dev.example", "--tls-name", "fd00::1", "--tls-port", "8443", "--tls-client-ca",
             "clients.pem"], environment: [:])
        #expect(
            made.tls
                == ServeCommand.TLS(
                    certificate: .made(names: ["dev.example", "fd00::1"]), port: 8443, clientCAFile: "clients.pem"))
        // A client reaching the server by a name of the certificate sends it as its Host.
        #expect(made.allowedHosts == ["dev.example", "[fd00::1]"])
        let given = try ServeCommand.parse(["--tls-cert", "c.pem", "--tls-key", "k.pem"], environment: [:])
        #expect(given.tls == ServeCommand.TLS(certificate: .files(certificate: "c.pem", key: "k.pem"), port: nil))
        #expect(given.allowedHosts == [])
        #expect(
            ServeCommand.tlsDirectory(environment: ["HOME": "/home/ops"]).path == "/home/ops/.nowflow/tls")
    }

    @Test func takesThePasswordFromTheEnvironmentThenTheDocumentedDefault() throws {
        let fromEnvironment = try ServeCommand.parse(
            ["--db", "/tmp/x.db"], environment: ["NOWFLOW_ADMIN_PASSWORD": "env"])
        #expect(fromEnvironment.options.adminPassword == "env")
        #expect(!fromEnvironment.usesDefaultPassword)
        let byDefault = try ServeCommand.parse(["--db", "/tmp/x.db"], environment: [:])
        #expect(byDefault.options.adminPassword == "admin")
        #expect(byDefault.usesDefaultPassword)
        #expect(byDefault.host == "127.0.0.1")
        #expect(byDefault.port == 8080)
        #expect(byDefault.options.attachmentMaxSize == 1024 << 20)
        #expect(byDefault.headerTimeout == .seconds(30))
        // A PDI's glide.sys.default.tz.
        #expect(byDefault.options.systemTimeZone.identifier == "America/Los_Angeles")
        #expect(
            try ServeCommand.parse([], environment: ["HOME": "/home/ops"]).options.databasePath
                == "/home/ops/.nowflow/local.db")
        #expect(byDefault.options.faults == .none)
    }

    @Test(arguments: [
        (["--port", "70000"], "--port expects a port number 0-65535, got '70000'"),
        (["--fail-rate", "1.5"], "--fail-rate expects a share between 0 and 1, got '1.5'"),
        (["--fail-status", "404"], "--fail-status expects 429, 500 or 503, got '404'"),
        (["--latency", "fast"], "--latency expects milliseconds (a whole number 0-60000), got 'fast'"),
        (
            ["--latency", "9223372036854775807"],
            "--latency expects milliseconds (a whole number 0-60000), got '9223372036854775807'"
        ),
        (["--retry-after", "-1"], "--retry-after expects seconds (a whole number 0-86400), got '-1'"),
        (["--attachment-max-size", "0"], "--attachment-max-size expects megabytes (a whole number 1-1048576), got '0'"),
        (["--header-timeout", "0"], "--header-timeout expects seconds (a whole number 1-3600), got '0'"),
        (["--header-timeout", "3601"], "--header-timeout expects seconds (a whole number 1-3600), got '3601'"),
        (["--header-timeout", "1.5"], "--header-timeout expects seconds (a whole number 1-3600), got '1.5'"),
        (["--retry-after", "86401"], "--retry-after expects seconds (a whole number 0-86400), got '86401'"),
        (["--password", ""], "--password is empty: the admin password must not be empty"),
        (
            ["--host", "0.0.0.0"],
            "--host 0.0.0.0 is reachable from other machines: give --password, --password-file or "
                + "NOWFLOW_ADMIN_PASSWORD"
        ),
        (
            ["--allowed-host", "evil.example, other"],
            "--allowed-host expects a host name or address (such as proxy.example), got 'evil.example, other'"
        ),
        (["--tls-name", "dev.example"], "--tls-name names the certificate that --tls makes: give --tls too"),
        (["--tls-port", "8443"], "--tls-port needs a certificate: give --tls, or --tls-cert and --tls-key"),
        (["--tls-client-ca", "ca.pem"], "--tls-client-ca needs a certificate: give --tls, or --tls-cert and --tls-key"),
        (
            ["--tls-cert", "c.pem"],
            "--tls-cert and --tls-key go together: give the certificate and its private key (PEM)"
        ),
        (
            ["--tls", "--tls-cert", "c.pem", "--tls-key", "k.pem"],
            "--tls makes its own certificate: give either --tls or --tls-cert and --tls-key"
        ),
        (
            ["--tls-cert", "c.pem", "--tls-key", "k.pem", "--tls-name", "a.example"],
            "--tls-name names the certificate that --tls makes, not one given with --tls-cert"
        ),
        (
            ["--tls", "--tls-name", "bad name"],
            "--tls-name expects a DNS name or an IP address (such as dev.example), got 'bad name'"
        ),
        (
            ["--tls", "--tls-name", "-dash.example"],
            "--tls-name expects a DNS name or an IP address (such as dev.example), got '-dash.example'"
        ),
        (["--tls", "--tls-port", "https"], "--tls-port expects a port number 0-65535, got 'https'"),
        (["--tls", "--tls-port", "8080"], "--tls-port 8080 is also the HTTP --port: give two different ports"),
        (
            ["--time-zone", "Mars/Olympus"],
            "--time-zone expects an IANA time zone name (such as Europe/Paris or UTC), got 'Mars/Olympus'"
        ),
        (["--profile", "prod"], "--profile expects pdi, got 'prod'"),
        (["--semaphore", "0"], "--semaphore expects a whole number 1-1000000, got '0'"),
        (
            ["--semaphore-queue", "5"],
            "--semaphore-queue is the queue of --semaphore: give --semaphore N or --profile pdi"
        ),
        (["extra"], "unexpected argument 'extra'"),
        (["--verbose"], "unknown option --verbose"),
    ])
    func refusesBadOptionsWithAClearMessage(arguments: [String], message: String) {
        let error = #expect(throws: UsageError.self) {
            try ServeCommand.parse(["--db", "/tmp/x.db"] + arguments, environment: [:])
        }
        #expect(error?.description == message)
    }

    @Test func theLimitsAreOffByDefaultAndPDIsWithTheProfileEachOptionOverriding() throws {
        let plain = try ServeCommand.parse(["--db", "/tmp/x.db"], environment: [:]).options.limits
        #expect(!plain.isEnforcing)
        let pdi = try ServeCommand.parse(
            ["--db", "/tmp/x.db", "--profile", "pdi", "--semaphore", "8", "--rate-window", "2"], environment: [:]
        ).options.limits
        #expect(pdi.rateRules && pdi.rateWindow == .seconds(2))
        #expect(pdi.concurrentRequests == 8 && pdi.queuedRequests == 50 && pdi.sessionQueue == 10)
        #expect(pdi.apiQuota == .seconds(60) && pdi.batchQuota == .seconds(30))
        let one = try ServeCommand.parse(["--db", "/tmp/x.db", "--session-queue", "3"], environment: [:]).options.limits
        #expect(one.sessionQueue == 3 && !one.rateRules && one.concurrentRequests == nil && one.apiQuota == nil)
    }

    @Test func refusesAnEmptyPasswordFromTheEnvironmentAndAnOpenHostWithoutOne() {
        let empty = #expect(throws: UsageError.self) {
            try ServeCommand.parse(["--host", "0.0.0.0"], environment: ["NOWFLOW_ADMIN_PASSWORD": ""])
        }
        #expect(empty?.description == "NOWFLOW_ADMIN_PASSWORD is empty: the admin password must not be empty")
        let open = #expect(throws: UsageError.self) {
            try ServeCommand.parse(["--host", "192.168.1.5"], environment: [:])
        }
        #expect(
            open?.description
                == "--host 192.168.1.5 is reachable from other machines: give --password, --password-file or "
                + "NOWFLOW_ADMIN_PASSWORD")
    }

    @Test func theBuiltServerRefusesAnEmptyPasswordAtStart() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let started = try ToolInvocation.run(
            ["serve", "--port", "0", "--db", ":memory:", "--password", ""], in: directory)
        #expect(started.status == 1)
        #expect(
            started.stderr
                == "nowflow serve: --password is empty: the admin password must not be empty\nsee 'nowflow serve --help'\n")
    }

    @Test func sigtermEndsTheServerWhileARequestWaitsOutItsLatency() async throws {
        let server = try await ServeProcess(["--db", ":memory:", "--password", "pw", "--latency", "60000"])
        let port = server.port
        // A name=value filter beside sysparm_query: the instance says on stderr that it ignores it, as it handles
        // the request, before the latency.
        let answered = Task.detached {
            try? RawHTTPClient.send(
                "GET", "/api/now/table/incident?sysparm_limit=1&sysparm_query=active=true&active=true",
                headers: ["Authorization": "Basic " + Data("admin:pw".utf8).base64EncodedString()], port: port)
        }
        // The request is in flight (its latency runs for a minute) when the signal arrives.
        #expect(server.waitForError(containing: "name=value filters ignored because sysparm_query is given"))
        server.send(SIGTERM)
        let exit = await server.waitForExit()
        // waitForExit kills the server after 60 seconds: an exit (not a signal) is a stop within the deadline.
        #expect(exit.reason == .exit && exit.status == 0, "stderr: \(exit.standardError)")
        #expect(await answered.value?.status == 200)
    }

    @Test func theBuiltServerClosesConnectionsTricklingTheirHeadersPastHeaderTimeout() async throws {
        // Ten seconds, so that a client sending its headers in two parts 200 ms apart, or at once, is never cut
        // off on a loaded machine; the trickling ones need over 20.
        let server = try await ServeProcess(["--db", ":memory:", "--password", "pw", "--header-timeout", "10"])
        let authorization = "Basic " + Data("admin:pw".utf8).base64EncodedString()
        let headers = Array(
            ("GET /api/now/table/sys_user?sysparm_limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(authorization)"
                + "\r\nConnection: close\r\n\r\n").utf8)
        // Header bytes 200 ms apart: the whole would take over 20 seconds, and the connection is never silent.
        let slow = try (0..<3).map { _ in
            try TricklingClient(port: server.port, chunks: headers.map { [$0] }, interval: .milliseconds(200))
        }
        let reply = try await HTTPTestClient(port: server.port).send(
            "GET", "/api/now/table/sys_user?sysparm_limit=1&sysparm_fields=user_name",
            headers: ["Authorization": authorization])
        #expect(reply.status == 200)
        for client in slow {
            let closed = await client.readToEndAndStop()
            #expect(closed.received == [])
            #expect(closed.sent < headers.count)
        }
        // Headers sent in two parts inside the deadline are answered.
        let unhurried = try TricklingClient(
            port: server.port, chunks: [Array(headers[..<30]), Array(headers[30...])], interval: .milliseconds(200))
        let answer = String(decoding: await unhurried.readToEndAndStop().received, as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
        server.send(SIGTERM)
        #expect(await server.waitForExit().status == 0)
    }

    @Test func answersWithTheInjectedStatusFromTheFlags() async throws {
        let server = try await ServeProcess(
            ["--db", ":memory:", "--password", "pw", "--fail-rate", "1", "--fail-status", "429", "--retry-after", "5"])
        let reply = try await HTTPTestClient(port: server.port).send(
            "GET", "/api/now/table/incident",
            headers: ["Authorization": "Basic " + Data("admin:pw".utf8).base64EncodedString()])
        #expect(reply.status == 429)
        #expect(reply.header("Retry-After") == "5")
        server.send(SIGTERM)
        #expect(await server.waitForExit().status == 0)
    }

    @Test func reportsAPortInUseAndExitsWithStatusOneThenStopsOnSIGINT() async throws {
        let first = try await ServeProcess(["--db", ":memory:", "--password", "pw"])
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let second = try ToolInvocation.run(
            ["serve", "--port", "\(first.port)", "--db", ":memory:", "--password", "pw"], in: directory)
        #expect(second.status == 1)
        #expect(second.stderr == "nowflow serve: cannot listen on 127.0.0.1:\(first.port): Address already in use\n")
        first.send(SIGINT)
        let exit = await first.waitForExit()
        #expect(exit.reason == .exit && exit.status == 0)
    }
}
