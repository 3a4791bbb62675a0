import Foundation
@preconcurrency import Glibc
import Testing
import TestSupport

/// `nowflow serve` over HTTPS, through the built binary: the certificate authority and server certificate that
/// `--tls` makes once (and keeps), clients of other makes (curl, Python's `ssl` and `urllib`) trusting its CA
/// file and refusing a name the certificate is not for, a certificate given with `--tls-cert`/`--tls-key`, and
/// HTTP and HTTPS served together.
@Suite struct ServeTLSTests {
    static let authorization = "Basic " + Data("admin:pw".utf8).base64EncodedString()
    static let query = "/api/now/table/sys_user?sysparm_limit=1&sysparm_fields=user_name"

    /// Runs `executable` (a path) with `arguments` and `environment` (added to a minimal one); its status, standard
    /// output and standard error.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try ChildProcess.run(
            URL(fileURLWithPath: executable), arguments,
            environment: ["PATH": "/usr/bin:/bin"].merging(environment) { $1 })
    }

    /// The first `python3` on the test's PATH (a TLS client of another make: CPython's `ssl` on OpenSSL).
    static let python: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        return path.split(separator: ":").map { "\($0)/python3" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()

    /// A Python script that reads `url` with urllib trusting only the CA file `ca` (through `SSL_CERT_FILE`, as
    /// Python's default context reads it) while connecting to 127.0.0.1 under the name `name`, and prints the
    /// status and body, or why the certificate was refused.
    static let pythonClient = """
        import base64, http.client, ssl, sys
        name, port, ca, authorization, path = sys.argv[1:6]
        context = ssl.create_default_context()
        class Connection(http.client.HTTPSConnection):
            def connect(self):
                import socket
                raw = socket.create_connection(("127.0.0.1", int(port)))
                self.sock = context.wrap_socket(raw, server_hostname=name)
        try:
            connection = Connection(name, int(port), context=context)
            connection.request("GET", path, headers={"Authorization": authorization})
            answer = connection.getresponse()
            print(answer.status, answer.read().decode())
        except ssl.SSLCertVerificationError as error:
            print("refused:", error.verify_message)
        """

    @Test(.enabled(if: python != nil, "no python3 on PATH"))
    func theMadeCertificateIsTrustedThroughItsCAFileByCurlAndPythonForItsNamesOnly() async throws {
        let home = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let tls = home.appendingPathComponent(".nowflow/tls")
        let ca = tls.appendingPathComponent("ca.pem").path
        let server = try await ServeProcess(
            ["--db", ":memory:", "--password", "pw", "--tls", "--tls-name", "dev.example", "--tls-name", "10.1.2.3"],
            environment: ["HOME": home.path])
        defer { server.send(SIGTERM) }
        #expect(server.tlsPort == server.port)
        #expect(
            server.output(through: "certificate authority") == """
                nowflow serve: listening on https://127.0.0.1:\(server.port) (database :memory:)
                nowflow serve: certificate authority \(ca) (new): trust it with REQUESTS_CA_BUNDLE, SSL_CERT_FILE, \
                NODE_EXTRA_CA_CERTS, curl --cacert or a profile's ca_file

                """)
        // The folder and every file in it are private to their user.
        #expect(try FileManager.default.attributesOfItem(atPath: tls.path)[.posixPermissions] as? Int == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: tls.path).sorted()
        #expect(files == ["ca-key.pem", "ca.pem", "server-key.pem", "server-names.txt", "server.pem"])
        for file in files {
            let mode = try FileManager.default.attributesOfItem(atPath: tls.appendingPathComponent(file).path)[
                .posixPermissions]
            #expect(mode as? Int == 0o600, "\(file)")
        }
        #expect(
            try String(contentsOf: tls.appendingPathComponent("server-names.txt"), encoding: .utf8)
                == "localhost\n127.0.0.1\n::1\ndev.example\n10.1.2.3\n")

        // curl (libcurl on OpenSSL) with --cacert, by address and by a name of the certificate.
        let port = String(server.port)
        let byAddress = try Self.run(
            "/usr/bin/curl", ["-sS", "--cacert", ca, "-H", "Authorization: \(Self.authorization)",
                              "https://127.0.0.1:\(port)\(Self.query)"])
        #expect(byAddress.stdout == #"{"result":[{"user_name":"admin"}]}"#, "\(byAddress.stderr)")
        let byName = try Self.run(
            "/usr/bin/curl", ["-sS", "--cacert", ca, "--resolve", "dev.example:\(port):127.0.0.1", "-H",
                              "Authorization: \(Self.authorization)", "https://dev.example:\(port)\(Self.query)"])
        #expect(byName.stdout == #"{"result":[{"user_name":"admin"}]}"#, "\(byName.stderr)")
        let wrongName = try Self.run(
            "/usr/bin/curl", ["-sS", "--cacert", ca, "--resolve", "wrong.example:\(port):127.0.0.1",
                              "https://wrong.example:\(port)\(Self.query)"])
        #expect(wrongName.status == 60)
        #expect(wrongName.stderr.hasPrefix(
            "curl: (60) SSL: no alternative certificate subject name matches target host name 'wrong.example'\n"))
        // Without the CA file the certificate is not trusted.
        let untrusted = try Self.run("/usr/bin/curl", ["-sS", "https://127.0.0.1:\(port)\(Self.query)"])
        #expect(untrusted.status == 60)

        // Python's ssl and http.client, trusting the CA through SSL_CERT_FILE.
        let python = try #require(Self.python)
        for (name, answer) in [
            ("localhost", #"200 {"result":[{"user_name":"admin"}]}"#),
            ("dev.example", #"200 {"result":[{"user_name":"admin"}]}"#),
            ("10.1.2.3", #"200 {"result":[{"user_name":"admin"}]}"#),
            ("wrong.example", "refused: Hostname mismatch, certificate is not valid for 'wrong.example'."),
        ] {
            let result = try Self.run(
                python, ["-c", Self.pythonClient, name, port, ca, Self.authorization, Self.query],
                environment: ["SSL_CERT_FILE": ca])
            #expect(result.stdout == answer + "\n", "\(name): \(result.stderr)")
        }
        // A Host that is not a name of the certificate is refused as on a plain loopback server.
        let foreign = try Self.run(
            "/usr/bin/curl",
            ["-sS", "--cacert", ca, "-H", "Host: other.example", "-o", "/dev/null", "-w", "%{http_code}",
             "https://127.0.0.1:\(port)\(Self.query)"])
        #expect(foreign.stdout == "400")
    }

    @Test func aSecondStartKeepsTheCAAndIssuesANewServerCertificateOnlyForNewNames() async throws {
        let home = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let tls = home.appendingPathComponent(".nowflow/tls")
        let ca = tls.appendingPathComponent("ca.pem").path
        func start(_ names: [String]) async throws -> (opening: String, ca: Data, server: Data) {
            let server = try await ServeProcess(
                ["--db", ":memory:", "--password", "pw", "--tls"] + names.flatMap { ["--tls-name", $0] },
                environment: ["HOME": home.path])
            let opening = server.output(through: "certificate authority")
            server.send(SIGTERM)
            _ = await server.waitForExit()
            return (
                opening?.split(separator: "\n").last.map(String.init) ?? "",
                try Data(contentsOf: tls.appendingPathComponent("ca.pem")),
                try Data(contentsOf: tls.appendingPathComponent("server.pem"))
            )
        }
        let first = try await start([])
        #expect(first.opening.hasPrefix("nowflow serve: certificate authority \(ca) (new): "))
        let again = try await start([])
        #expect(again.opening.hasPrefix("nowflow serve: certificate authority \(ca) (kept): "))
        #expect(again.ca == first.ca && again.server == first.server)
        let renamed = try await start(["dev.example"])
        #expect(renamed.opening.hasPrefix("nowflow serve: certificate authority \(ca) (kept): "))
        #expect(renamed.ca == first.ca && renamed.server != first.server)
        // A lost CA key makes a new CA, and a new server certificate with it.
        try FileManager.default.removeItem(at: tls.appendingPathComponent("ca-key.pem"))
        let remade = try await start(["dev.example"])
        #expect(remade.opening.hasPrefix("nowflow serve: certificate authority \(ca) (new): "))
        #expect(remade.ca != first.ca && remade.server != renamed.server)
    }

    @Test func servesHTTPAndHTTPSTogetherAndAGivenCertificate() async throws {
        let home = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let tls = home.appendingPathComponent(".nowflow/tls")
        let ca = tls.appendingPathComponent("ca.pem").path
        let both = try await ServeProcess(
            ["--db", ":memory:", "--password", "pw", "--tls", "--tls-port", "0"], environment: ["HOME": home.path])
        let tlsPort = try #require(both.tlsPort)
        #expect(tlsPort != both.port)
        #expect(
            both.listeningLine
                == "nowflow serve: listening on http://127.0.0.1:\(both.port) and https://127.0.0.1:\(tlsPort) "
                + "(database :memory:)")
        let overHTTPS = try Self.run(
            "/usr/bin/curl", ["-sS", "--cacert", ca, "-H", "Authorization: \(Self.authorization)",
                              "https://localhost:\(tlsPort)\(Self.query)"])
        #expect(overHTTPS.stdout == #"{"result":[{"user_name":"admin"}]}"#, "\(overHTTPS.stderr)")
        let overHTTP = try Self.run(
            "/usr/bin/curl",
            ["-sS", "-H", "Authorization: \(Self.authorization)", "http://127.0.0.1:\(both.port)\(Self.query)"])
        #expect(overHTTP.stdout == #"{"result":[{"user_name":"admin"}]}"#, "\(overHTTP.stderr)")
        // The absolute links of an answer (Link, reference links) keep the scheme and host the request came by.
        let links = "/api/now/table/incident?sysparm_limit=1&sysparm_fields=caller_id&sysparm_query=caller_idISNOTEMPTY"
        let bases = [("https://localhost:\(tlsPort)", ["--cacert", ca]), ("http://127.0.0.1:\(both.port)", [])]
        for (base, options) in bases {
            let answer = try Self.run(
                "/usr/bin/curl", ["-sS", "-i", "-H", "Authorization: \(Self.authorization)"] + options + [base + links])
            let urls = answer.stdout.matches(of: /https?:\/\/[^\/"]+\//).map { String($0.output) }
            #expect(urls.count >= 3, "\(answer.stdout)\(answer.stderr)")
            #expect(urls.allSatisfy { $0 == base + "/" }, "\(answer.stdout)")
        }
        // Plain HTTP to the HTTPS port gets no answer (the listener expects a TLS handshake).
        let plainToTLS = try Self.run(
            "/usr/bin/curl", ["-sS", "-m", "10", "http://127.0.0.1:\(tlsPort)\(Self.query)"])
        #expect(plainToTLS.status != 0 && plainToTLS.stdout.isEmpty)
        both.send(SIGTERM)
        _ = await both.waitForExit()

        // The certificate and key made above, given as files: HTTPS alone, on --port.
        let given = try await ServeProcess(
            ["--db", ":memory:", "--password", "pw", "--tls-cert", tls.appendingPathComponent("server.pem").path,
             "--tls-key", tls.appendingPathComponent("server-key.pem").path],
            environment: ["HOME": home.path])
        defer { given.send(SIGTERM) }
        #expect(
            given.listeningLine == "nowflow serve: listening on https://127.0.0.1:\(given.port) (database :memory:)")
        let answer = try Self.run(
            "/usr/bin/curl", ["-sS", "--cacert", ca, "-H", "Authorization: \(Self.authorization)",
                              "https://127.0.0.1:\(given.port)\(Self.query)"])
        #expect(answer.stdout == #"{"result":[{"user_name":"admin"}]}"#, "\(answer.stderr)")
    }

    @Test func aKeyThatIsNotTheCertificatesOrNoPEMIsRefusedAtStartNamingTheFile() async throws {
        let home = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let tls = home.appendingPathComponent(".nowflow/tls")
        let made = try await ServeProcess(
            ["--db", ":memory:", "--password", "pw", "--tls"], environment: ["HOME": home.path])
        made.send(SIGTERM)
        _ = await made.waitForExit()
        let certificate = tls.appendingPathComponent("server.pem").path
        let caKey = tls.appendingPathComponent("ca-key.pem").path
        let wrongKey = try ToolInvocation.run(
            ["serve", "--port", "0", "--db", ":memory:", "--password", "pw", "--tls-cert", certificate, "--tls-key",
             caKey], in: home)
        #expect(wrongKey.status == 1)
        #expect(
            wrongKey.stderr
                == "nowflow serve: the private key in \(caKey) is not the key of the certificate in \(certificate)\n")
        let notAKey = try ToolInvocation.run(
            ["serve", "--port", "0", "--db", ":memory:", "--password", "pw", "--tls-cert", certificate, "--tls-key",
             certificate], in: home)
        #expect(notAKey.stderr == "nowflow serve: \(certificate) holds no unencrypted private key in PEM\n")
        let missing = home.appendingPathComponent("missing.pem").path
        let noFile = try ToolInvocation.run(
            ["serve", "--port", "0", "--db", ":memory:", "--password", "pw", "--tls-cert", missing, "--tls-key", caKey],
            in: home)
        #expect(noFile.stderr == "nowflow serve: cannot read the certificate file \(missing): no such file\n")
        let serverKey = tls.appendingPathComponent("server-key.pem").path
        let notACA = try ToolInvocation.run(
            ["serve", "--port", "0", "--db", ":memory:", "--password", "pw", "--tls", "--tls-client-ca", serverKey],
            in: home)
        #expect(notACA.stderr == "nowflow serve: \(serverKey) holds no X.509 certificate in PEM\n")
    }

    /// `openssl` (the command: the tests make their client certificates with it) run in `directory`; fails the test
    /// when it does.
    static func openssl(_ arguments: [String], in directory: URL) throws -> String {
        let result = try run("/usr/bin/openssl", arguments, environment: ["HOME": directory.path])
        try #require(result.status == 0, "openssl \(arguments.joined(separator: " ")): \(result.stderr)")
        return result.stdout
    }

    /// A new P-256 key and a certificate for `name` issued by `issuer` (`issuer.pem`, `issuer-key.pem`) in
    /// `directory`, as `name.pem` and `name-key.pem`; nil issuer: a self-signed CA.
    static func issue(_ name: String, by issuer: String?, in directory: URL) throws {
        let file = { (suffix: String) in directory.appendingPathComponent(name + suffix).path }
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", file("-key.pem")]
        guard let issuer else {
            _ = try openssl(
                ["req", "-x509"] + key + ["-subj", "/CN=\(name)", "-days", "2", "-out", file(".pem")], in: directory)
            return
        }
        _ = try openssl(["req"] + key + ["-subj", "/CN=\(name)", "-out", file(".csr")], in: directory)
        let ca = { (suffix: String) in directory.appendingPathComponent(issuer + suffix).path }
        _ = try openssl(
            ["x509", "-req", "-in", file(".csr"), "-CA", ca(".pem"), "-CAkey", ca("-key.pem"), "-set_serial",
             String(Int.random(in: 1...1_000_000)), "-days", "2", "-out", file(".pem")], in: directory)
    }

    @Test func aVerifiedClientCertificateLogsInAsItsUserAndAnyOtherGetsThePlatforms401() async throws {
        let home = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let ca = home.appendingPathComponent(".nowflow/tls/ca.pem").path
        let pem = { (name: String) in home.appendingPathComponent(name + ".pem").path }
        let key = { (name: String) in home.appendingPathComponent(name + "-key.pem").path }
        try Self.issue("clients-ca", by: nil, in: home)
        try Self.issue("other-ca", by: nil, in: home)
        try Self.issue("beth", by: "clients-ca", in: home)
        try Self.issue("unknown", by: "clients-ca", in: home)
        // The same name as beth's certificate with another key: another certificate, which no record names.
        try Self.issue("beth-rekeyed", by: "clients-ca", in: home)
        try FileManager.default.copyItem(atPath: pem("beth-rekeyed"), toPath: pem("rekeyed"))
        // Issued by a CA the server does not trust, though its record names the admin.
        try Self.issue("stranger", by: "other-ca", in: home)
        let fingerprint = { (name: String) throws -> String in
            let line = try Self.openssl(["x509", "-in", pem(name), "-noout", "-fingerprint", "-sha256"], in: home)
            return String(line.split(separator: "=").last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let server = try await ServeProcess(
            ["--db", ":memory:", "--password", "pw", "--tls", "--tls-client-ca", pem("clients-ca")],
            environment: ["HOME": home.path])
        defer { server.send(SIGTERM) }
        let base = "https://127.0.0.1:\(server.port)/api/now/table"
        func curl(_ arguments: [String]) throws -> (status: String, body: String) {
            let result = try Self.run(
                "/usr/bin/curl", ["-sS", "--cacert", ca, "-w", "\n%{http_code}", "-H", "Accept: application/json"]
                    + arguments)
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n") + result.stderr)
        }
        let admin = ["-H", "Authorization: \(Self.authorization)"]
        let users = try curl(admin + ["\(base)/sys_user?sysparm_query=user_name=beth.anglin&sysparm_fields=sys_id"])
        let bethID = try #require(users.body.split(separator: "\"").dropFirst(5).first.map(String.init))
        let adminID = try #require(
            try curl(admin + ["\(base)/sys_user?sysparm_query=user_name=admin&sysparm_fields=sys_id"]).body
                .split(separator: "\"").dropFirst(5).first.map(String.init))
        for (name, user) in [("beth", bethID), ("stranger", adminID)] {
            let created = try curl(
                admin + ["-H", "Content-Type: application/json", "-d",
                         #"{"name":"\#(name)","fingerprint":"\#(try fingerprint(name))","user":"\#(user)"}"#,
                         "\(base)/sys_user_certificate"])
            #expect(created.status == "201", "\(created.body)")
        }

        // Beth's certificate logs in as beth.anglin, who creates an incident (itil) but reads no certificate record.
        let beth = ["--cert", pem("beth"), "--key", key("beth")]
        let incident = try curl(
            beth + ["-H", "Content-Type: application/json", "-d", #"{"short_description":"by certificate"}"#,
                    "\(base)/incident?sysparm_fields=sys_created_by,short_description"])
        #expect(incident.status == "201")
        #expect(incident.body == #"{"result":{"sys_created_by":"beth.anglin","short_description":"by certificate"}}"#)
        let mappings = try curl(beth + ["\(base)/sys_user_certificate"])
        #expect(mappings.body == #"{"result":[]}"#)

        // An unknown certificate, one with beth's name and another key, one of an untrusted CA (though its record
        // names the admin), none, and none with a header claiming beth's fingerprint: the platform's 401.
        let refused =
            #"{"error":{"message":"User Not Authenticated","detail":"Required to provide Auth information"},"#
            + #""status":"failure"}"#
        for (case_, arguments) in [
            ("unknown", ["--cert", pem("unknown"), "--key", key("unknown")]),
            ("rekeyed", ["--cert", pem("rekeyed"), "--key", key("beth-rekeyed")]),
            ("stranger", ["--cert", pem("stranger"), "--key", key("stranger")]),
            ("none", []),
            ("forged header", ["-H", "X-Nowflow-Client-Certificate-SHA256: \(try fingerprint("beth"))"]),
        ] {
            let answer = try curl(arguments + ["\(base)/incident?sysparm_limit=1&sysparm_fields=number"])
            #expect(answer.status == "401", "\(case_)")
            #expect(answer.body == refused, "\(case_)")
        }
        // Basic still works beside client certificates.
        #expect(try curl(admin + ["\(base)/sys_user_certificate?sysparm_fields=name"]).status == "200")
    }
}
