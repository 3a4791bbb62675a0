import Foundation
import TestSupport
import Testing

/// `nowflow run` of a job whose `auth.oauth_jwt` key comes from the environment, on the embedded instance (an
/// `oauth_jwt` application that a first job registers): the client secret and the private key appear in no
/// output, report or dry-run diff, in any form, even when a step writes them into a record.
@Suite struct OAuthJWTMaskingTests {
    static let setup = """
        name: Setup
        steps:
          - id: cert
            create: { table: sys_certificate, fields: { name: jobs, pem_certificate: "${env.CERTIFICATE}" } }
          - id: app
            create: { table: oauth_jwt, fields: { name: Jobs, client_id: jobs, client_secret: "${env.CLIENT_SECRET}" } }
          - create:
              table: jwt_verifier_map
              fields: { name: jobs, oauth_jwt: "${steps.app.sys_id}", kid: jobs-key, sys_certificate: "${steps.cert.sys_id}" }
        """

    static let job = """
        name: Signed
        auth:
          oauth_jwt:
            client_id: jobs
            client_secret: "${env.CLIENT_SECRET}"
            private_key: "${env.JWT_KEY}"
            kid: jobs-key
            user: beth.anglin
        steps:
          - id: made
            create: { table: incident, fields: { short_description: "key ${env.JWT_KEY}", description: "secret ${env.CLIENT_SECRET}" } }
          - assert: { that: "steps.made.sys_id == ''", message: "made with ${env.JWT_KEY} and ${env.CLIENT_SECRET}" }
            continue_on_error: true
        """

    static let secret = #"Cl1ent "S3cret"/+%&"#

    @Test func theKeyAndTheSecretAppearInNoOutputOrReportInAnyForm() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let signer = try JWTSigner(name: "jobs")
        defer { signer.removeFiles() }
        try Self.setup.write(to: directory.appendingPathComponent("setup.yaml"), atomically: true, encoding: .utf8)
        try Self.job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let environment = [
            "CERTIFICATE": signer.certificatePEM, "CLIENT_SECRET": Self.secret, "JWT_KEY": signer.privateKeyPEM,
        ]
        let registered = try ToolInvocation.run(["run", "setup.yaml"], in: directory, environment: environment)
        #expect(registered.status == 0, "\(registered.stderr)")
        var outputs: [String: String] = [:]
        for (name, arguments) in [
            ("dry", ["--dry-run"]), ("dry json", ["--dry-run", "--output", "json"]), ("verbose", ["--verbose"]),
            ("json", ["--output", "json", "--report", "json:r.json", "--report", "junit:r.xml"]),
        ] {
            let result = try ToolInvocation.run(
                ["run", "job.yaml"] + arguments, in: directory, environment: environment)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            outputs["\(name) stdout"] = result.stdout
            outputs["\(name) stderr"] = result.stderr
        }
        var refused = environment
        let stranger = try JWTSigner(name: "stranger")
        defer { stranger.removeFiles() }
        refused["JWT_KEY"] = stranger.privateKeyPEM
        let refusal = try ToolInvocation.run(["run", "job.yaml"], in: directory, environment: refused)
        #expect(refusal.status == 3)
        #expect(refusal.stderr.contains("invalid_grant (the assertion's signature cannot be verified"))
        outputs["refused stdout"] = refusal.stdout
        outputs["refused stderr"] = refusal.stderr
        outputs["json report"] = try String(contentsOf: directory.appendingPathComponent("r.json"), encoding: .utf8)
        outputs["junit report"] = try String(contentsOf: directory.appendingPathComponent("r.xml"), encoding: .utf8)
        let body = signer.privateKeyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }
        let forms =
            [
                signer.privateKeyPEM, String(signer.privateKeyPEM.dropLast()),
                signer.privateKeyPEM.replacingOccurrences(of: "\n", with: "\\n"),
                body.joined(), Self.secret, #"Cl1ent \"S3cret\"/+%&"#, "S3cret",
                try #require(Self.secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics)),
            ] + body.filter { $0.count >= 16 }.map(String.init)
        for (name, text) in outputs {
            for form in forms { #expect(!text.contains(form), "\(name) shows \(form)") }
        }
        #expect(
            try #require(outputs["dry stdout"]).contains(#"{"description":"secret ***","short_description":"key ***"#))
        #expect(try #require(outputs["verbose stderr"]).contains("POST /oauth_token.do"))
    }

    @Test func validateSaysWhereAMissingKeyFileIsNamed() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = Self.job.replacingOccurrences(
            of: #"private_key: "${env.JWT_KEY}""#, with: "private_key_file: keys/jobs-key.pem")
        try job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let result = try ToolInvocation.run(["validate", "--offline", "job.yaml"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stdout + result.stderr
                == "job.yaml:6:23: error: auth.oauth_jwt.private_key_file: no such file 'keys/jobs-key.pem' "
                + "(\(directory.path)/keys/jobs-key.pem)\n")
    }
}
