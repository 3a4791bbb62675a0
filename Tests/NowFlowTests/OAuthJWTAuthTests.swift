import Foundation
import NowData
import TestSupport
import Testing

@testable import LocalInstance
@testable import NowFlow

/// A job's `auth.oauth_jwt` against the local instance's `oauth_jwt` application (in process): the run signs its
/// assertions with a key that the `openssl` command made and the instance verifies with the key's certificate; the
/// key, the secret and the file's problems are said with their place in the file and never shown.
@Suite struct OAuthJWTAuthTests {
    private static let admin = "Basic " + Data("admin:admin".utf8).base64EncodedString()
    private static let secret = "J0bs-Cl1ent-S3cret"

    /// Inserts a record as the admin; its sys_id.
    private static func insert(_ instance: LocalInstance, _ table: String, _ fields: [String: String]) async throws
        -> String
    {
        let response = try await instance.transport.send(
            NowHTTPRequest(
                method: "POST", path: "/api/now/table/\(table)",
                headers: HTTPHeaders([("Authorization", admin), ("Content-Type", "application/json")]),
                body: try JSONSerialization.data(withJSONObject: fields)))
        #expect(response.statusCode == 201)
        return try #require(try JSONValue(json: response.body)["result"]?["sys_id"]?.string)
    }

    /// An instance with demo data (its clock `ahead` of the real time) and the application `jobs` whose verifier
    /// map `jobs-key` holds the certificate of `signer`.
    private static func instance(trusting signer: JWTSigner, ahead: TimeInterval = 0) async throws -> LocalInstance {
        let instance = try LocalInstance(
            options: LocalInstance.Options(log: { _ in }), now: { Date().addingTimeInterval(ahead) })
        let certificate = try await insert(
            instance, "sys_certificate", ["name": "jobs", "pem_certificate": signer.certificatePEM])
        let application = try await insert(
            instance, "oauth_jwt", ["name": "Jobs", "client_id": "jobs", "client_secret": secret])
        _ = try await insert(
            instance, "jwt_verifier_map",
            ["name": "jobs", "oauth_jwt": application, "kid": "jobs-key", "sys_certificate": certificate])
        return instance
    }

    /// The run of `text` as the file `job.yaml` of `directory`, on `instance` with no credentials but the job's.
    private static func run(
        _ text: String, in directory: URL, on instance: LocalInstance, environment: [String: String] = [:]
    ) async throws -> RunResult {
        let job = try JobFile.parse(text, file: directory.appendingPathComponent("job.yaml").path)
        var options = RunOptions.inProcess(on: instance)
        options.authentication = .none
        options.environment = environment
        return await JobRunner(job: job, options: options).run()
    }

    private static func job(_ key: String) -> String {
        """
        name: JWT
        auth:
          oauth_jwt:
            client_id: jobs
            client_secret: "${env.CLIENT_SECRET}"
            \(key)
            kid: jobs-key
            user: itil
        steps:
          - id: made
            create: { table: incident, fields: { short_description: signed in by JWT } }
          - assert: "steps.made.record.sys_created_by == 'itil'"
        """
    }

    @Test func aJobSignsInWithItsKeyFileOrItsKeyTextAndActsAsTheUser() async throws {
        let signer = try JWTSigner(name: "jobs")
        defer { signer.removeFiles() }
        let instance = try await Self.instance(trusting: signer)
        defer { instance.close() }
        let environment = ["CLIENT_SECRET": Self.secret, "JWT_KEY": signer.privateKeyPEM]
        for key in ["private_key_file: jobs-key.pem", #"private_key: "${env.JWT_KEY}""#] {
            let result = try await Self.run(
                Self.job(key), in: signer.directory, on: instance, environment: environment)
            #expect(result.status == .passed, "\(key): \(result.error ?? "")")
            let report = RunReport(results: [result], nowflowVersion: "0.1.0").jsonText()
            for shown in [Self.secret] + JobPrivateKey.maskedForms(of: signer.privateKeyPEM) {
                #expect(!report.contains(shown))
            }
        }
    }

    @Test func aKeyTheInstanceDoesNotTrustFailsTheFirstStepWithTheInstancesReason() async throws {
        let signer = try JWTSigner(name: "jobs")
        let stranger = try JWTSigner(name: "jobs")
        defer {
            signer.removeFiles()
            stranger.removeFiles()
        }
        let instance = try await Self.instance(trusting: signer)
        defer { instance.close() }
        let result = try await Self.run(
            Self.job("private_key_file: jobs-key.pem"), in: stranger.directory, on: instance,
            environment: ["CLIENT_SECRET": Self.secret])
        #expect(result.status == .failed)
        #expect(
            result.error
                == "step 1 'made' (create): access token error: no access token could be obtained: bad response 400 "
                + "from POST /oauth_token.do: invalid_grant (the assertion's signature cannot be verified: the "
                + "signature does not verify with the key of its verifier map)")
    }

    @Test func anAssertionTheInstanceFindsExpiredFailsTheFirstStepWithTheInstancesReason() async throws {
        let signer = try JWTSigner(name: "jobs")
        defer { signer.removeFiles() }
        let instance = try await Self.instance(trusting: signer, ahead: 600)
        defer { instance.close() }
        let result = try await Self.run(
            Self.job("private_key_file: jobs-key.pem"), in: signer.directory, on: instance,
            environment: ["CLIENT_SECRET": Self.secret])
        #expect(result.status == .failed)
        #expect(
            result.error
                == "step 1 'made' (create): access token error: no access token could be obtained: bad response 400 "
                + "from POST /oauth_token.do: invalid_grant (the assertion has expired (exp))")
    }

    /// What reading `text` as `directory`'s `job.yaml` finds wrong, or `valid`.
    private static func diagnostics(_ text: String, in directory: URL) -> String {
        do {
            _ = try JobFile.parse(text, file: directory.appendingPathComponent("job.yaml").path)
            return "valid"
        } catch {
            return error.description
        }
    }

    private static func openssl(_ arguments: [String]) throws {
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/openssl"), arguments)
        #expect(result.status == 0, "openssl \(arguments): \(result.stderr)")
    }

    @Test func eachProblemOfAKeyFileIsSaidWhereTheFileNamesIt() throws {
        let signer = try JWTSigner(name: "jobs")
        defer { signer.removeFiles() }
        let folder = signer.directory.path
        try Self.openssl(
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", folder + "/ec.pem"])
        try Self.openssl(
            ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", folder + "/small.pem"])
        try Self.openssl(
            ["pkey", "-in", folder + "/jobs-key.pem", "-aes256", "-passout", "pass:x", "-out", folder + "/encrypted.pem"])
        try signer.certificatePEM.write(toFile: folder + "/jobs.crt", atomically: true, encoding: .utf8)
        try signer.publicKeyPEM.write(toFile: folder + "/public.pem", atomically: true, encoding: .utf8)
        try String(repeating: "A", count: 65_537).write(toFile: folder + "/big.pem", atomically: true, encoding: .utf8)
        try "not a key\n".write(toFile: folder + "/text.pem", atomically: true, encoding: .utf8)
        try "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n".write(
            toFile: folder + "/damaged.pem", atomically: true, encoding: .utf8)
        let files = [
            "missing.pem", "keys/../ec.pem", "small.pem", "encrypted.pem", "jobs.crt", "public.pem", "text.pem",
            "damaged.pem", ".", "/dev/zero", "big.pem", "jobs-key.pem",
        ]
        let rendered = files.map { Self.diagnostics(Self.job("private_key_file: \($0)"), in: signer.directory) }
        #expect(
            rendered.joined(separator: "\n") == """
                \(folder)/job.yaml:6:23: error: auth.oauth_jwt.private_key_file: no such file 'missing.pem' (\(folder)/missing.pem)
                \(folder)/job.yaml:6:23: error: auth.oauth_jwt.private_key_file: the file 'keys/../ec.pem' (\(folder)/ec.pem) is an EC key: the JWT bearer grant signs with RS256, which takes an RSA key
                \(folder)/job.yaml:6:23: error: auth.oauth_jwt.private_key_file: the file 'small.pem' (\(folder)/small.pem) is an RSA key of 1024 bits: the instance takes keys of 2048 bits or more
                \(folder)/job.yaml:6:23: error: auth.oauth_jwt.private_key_file: the file 'encrypted.pem' (\(folder)/encrypted.pem) is an encrypted private key: give it unencrypted (openssl pkey -in KEY -out PLAIN)
                \(folder)/job.yaml:6:23: error: auth.oauth_jwt.private_key_file: the file 'jobs.crt' (\(folder)/jobs.crt) is a certificate, not a private key: the instance's sys_certificate holds the certificate, the client its private key
                \(folder)/job.yaml:6:23: error: auth.oauth_jwt.private_key_file: the file 'public.pem' (\(folder)/public.pem) is a public key, not a private key: the instance's sys_certificate holds the certificate, the client its private key
                \(folder)/job.yaml:6:23: error: auth.oauth_jwt.private_key_file: the file 'text.pem' (\(folder)/text.pem) holds no PEM block (-----BEGIN PRIVATE KEY-----)
                \(folder)/job.yaml:6:23: error: auth.oauth_jwt.private_key_file: the file 'damaged.pem' (\(folder)/damaged.pem) holds a PEM block that is not a readable private key
                \(folder)/job.yaml:6:23: error: auth.oauth_jwt.private_key_file: '.' (\(folder)) is a directory, not a file
                \(folder)/job.yaml:6:23: error: auth.oauth_jwt.private_key_file: '/dev/zero' is not a regular file
                \(folder)/job.yaml:6:23: error: auth.oauth_jwt.private_key_file: 'big.pem' (\(folder)/big.pem) has 65537 bytes, more than a PEM key file (65536)
                valid
                """)
    }

    @Test func theKeysOfTheGrantAreCheckedWithTheirPlaces() throws {
        let signer = try JWTSigner(name: "jobs")
        defer { signer.removeFiles() }
        let folder = signer.directory.path
        let both = """
            name: JWT
            auth:
              oauth_jwt:
                client_id: jobs
                client_secret: "${env.CLIENT_SECRET}"
                private_key_file: jobs-key.pem
                private_key: "${env.JWT_KEY}"
                key_id: jobs-key
            steps:
              - query: { table: incident }
            """
        let none = """
            name: JWT
            auth:
              oauth_jwt: { client_id: jobs, client_secret: "${env.CLIENT_SECRET}", kid: jobs-key, user: itil }
            steps:
              - query: { table: incident }
            """
        let text = """
            name: JWT
            auth:
              oauth_jwt: { client_id: jobs, client_secret: s, private_key: "MII...", kid: jobs-key, user: itil }
            steps:
              - query: { table: incident }
            """
        #expect(
            [both, none, text].map { Self.diagnostics($0, in: signer.directory) }.joined(separator: "\n") == """
                \(folder)/job.yaml:4:5: error: auth.oauth_jwt needs kid: (the key id of the application's JWT verifier map)
                \(folder)/job.yaml:4:5: error: auth.oauth_jwt needs user:
                \(folder)/job.yaml:7:18: error: auth.oauth_jwt takes private_key_file: or private_key:, not both
                \(folder)/job.yaml:8:5: error: unknown key 'key_id' in auth.oauth_jwt; expected client_id, client_secret, private_key_file, private_key, kid or user
                \(folder)/job.yaml:3:14: error: auth.oauth_jwt needs private_key_file: (a PEM file, relative to this file) or private_key: (the PEM text, as ${env.NAME})
                \(folder)/job.yaml:3:64: error: auth.oauth_jwt.private_key: the text given holds no PEM block (-----BEGIN PRIVATE KEY-----)
                """)
    }

    @Test func aKeyTextFromTheEnvironmentIsCheckedWhenTheRunStarts() async throws {
        let signer = try JWTSigner(name: "jobs")
        defer { signer.removeFiles() }
        let instance = try await Self.instance(trusting: signer)
        defer { instance.close() }
        let folder = signer.directory.path
        var errors: [String] = []
        for environment in [
            ["CLIENT_SECRET": Self.secret], ["CLIENT_SECRET": Self.secret, "JWT_KEY": signer.certificatePEM],
        ] {
            let result = try await Self.run(
                Self.job(#"private_key: "${env.JWT_KEY}""#), in: signer.directory, on: instance,
                environment: environment)
            #expect(result.status == .failed)
            errors.append(result.error ?? "")
        }
        #expect(
            errors == [
                "before the first step: auth.oauth_jwt.private_key (\(folder)/job.yaml:6:18): env.JWT_KEY: the environment variable JWT_KEY is not set",
                "before the first step: auth.oauth_jwt.private_key (\(folder)/job.yaml:6:18): the text given is a certificate, not a private key: the instance's sys_certificate holds the certificate, the client its private key",
            ])
    }

    @Test func aProfileTakesTheGrantWithItsKeyFileUnderTheConfigFilesFolder() throws {
        let signer = try JWTSigner(name: "jobs")
        defer { signer.removeFiles() }
        let config = signer.directory.appendingPathComponent("config.yaml").path
        let profile = """
            profiles:
              integration:
                url: https://dev12345.service-now.com
                auth:
                  oauth_jwt: { client_id: jobs, client_secret: "${env.S}", private_key_file: KEY, kid: jobs-key, user: itil }
            """
        try profile.replacingOccurrences(of: "KEY", with: "jobs-key.pem").write(
            toFile: config, atomically: true, encoding: .utf8)
        let loaded = try #require(try InstanceProfile.load(path: config)["integration"])
        let resolved = try #require(try loaded.authentication(environment: ["S": Self.secret]))
        #expect(
            "\(resolved.authentication)"
                == "jwtBearer(clientID: jobs, clientSecret: <redacted>, privateKeyPEM: <redacted>, keyID: jobs-key, "
                + "subject: itil)")
        #expect(resolved.secrets.contains(signer.privateKeyPEM) && resolved.secrets.contains(Self.secret))
        try profile.replacingOccurrences(of: "KEY", with: "keys/jobs-key.pem").write(
            toFile: config, atomically: true, encoding: .utf8)
        #expect {
            _ = try InstanceProfile.load(path: config)
        } throws: { error in
            "\(error)" == "\(config):5:82: error: auth.oauth_jwt.private_key_file: no such file 'keys/jobs-key.pem' "
                + "(\(signer.directory.path)/keys/jobs-key.pem)"
        }
    }
}
