import Foundation
import LocalInstance
import NowData
import Testing

@testable import NowFlow

/// A run notes the page of what changed that the instance names on its answers (`X-Nowflow-Changes`): a served
/// local instance names it over HTTPS as over HTTP; the instance in process, whose pages nothing serves, and a
/// server of the instance's API alone (as a ServiceNow instance is, for this) name none.
@Suite struct ChangesPageTests {
    static let job = """
        name: Made
        steps:
          - id: made
            create: { table: incident, fields: { short_description: "Made over HTTPS" } }
        """

    @Test func aServedInstanceNamesItsPageOverHTTPSAndHTTP() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nowflow-changes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let authority = try LocalCertificateAuthority(directory: folder)
        let server = try LocalInstanceServer(
            tls: authority.identity, tlsPort: 0,
            options: LocalInstance.Options(adminPassword: "pw", seedDemoData: false, log: { _ in }))
        defer { server.stop() }
        let job = try JobFile.parse(Self.job, file: "made.yaml")
        for (address, tls) in [
            (try #require(server.tlsURL), NowTLSSettings(caFile: authority.caFile.path)), (server.url, NowTLSSettings()),
        ] {
            let url = try #require(URL(string: address))
            let options = RunOptions(
                instanceURL: url, transport: CurlTransport(instanceURL: url, tls: tls),
                authentication: .basic(user: "admin", password: "pw"), environment: [:], retryPolicy: .none)
            let result = await JobRunner(job: job, options: options).run()
            #expect(result.status == .passed, "\(address): \(result.error ?? "")")
            #expect(result.changesPage == "/changes.do", "\(address)")
        }
    }

    @Test func theInstanceInProcessAndABareAPIServerNameNone() async throws {
        let instance = try LocalInstance(options: LocalInstance.Options(seedDemoData: false, log: { _ in }))
        defer { instance.close() }
        let job = try JobFile.parse(Self.job, file: "made.yaml")
        let inProcess = await JobRunner(job: job, options: .inProcess(on: instance)).run()
        #expect(inProcess.status == .passed)
        #expect(inProcess.changesPage == nil)

        let listener = try HTTPListener { request in instance.reply(to: request) }
        defer { listener.stop() }
        let url = try #require(URL(string: "http://127.0.0.1:\(listener.port)"))
        let options = RunOptions(
            instanceURL: url, transport: CurlTransport(instanceURL: url),
            authentication: .basic(user: "admin", password: "admin"), environment: [:], retryPolicy: .none)
        let bare = await JobRunner(job: job, options: options).run()
        #expect(bare.status == .passed, "\(bare.error ?? "")")
        #expect(bare.changesPage == nil)
    }
}
