import Foundation
import FuzzSupport
@testable import LocalInstance
import NowData

/// The local instance a fuzz target sends its requests to: in a scratch directory removed at exit (its database
/// and attachment files), no demo data but a few records, `admin`/`admin`, the OAuth client `fuzz`/`secret`,
/// cheap password hashes and no login lockout (a lockout would end the fuzzing of every login).
public final class FuzzInstance: Sendable {
    /// `Authorization` of the instance's administrator.
    public static let adminAuthorization = "Basic YWRtaW46YWRtaW4="
    /// The sys_id of the incident every target's instance holds (and of its attachment).
    public static let incidentID = "0000000000000000000000000000f001"

    let instance: LocalInstance
    let web: WebInterface

    /// A new instance in a scratch directory (removed at exit), with three users and two incidents.
    public init() {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nowflow-fuzz-\(getpid())", isDirectory: true)
        try? FileManager.default.removeItem(at: directory)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            scratchDirectory = strdup(directory.path)
            atexit {
                if let scratchDirectory { try? FileManager.default.removeItem(atPath: String(cString: scratchDirectory)) }
            }
            instance = try LocalInstance(
                options: .init(
                    databasePath: directory.appendingPathComponent("instance.db").path, seedDemoData: false,
                    oauthClients: ["fuzz": "secret"], statementBudget: .seconds(2), log: { _ in },
                    passwordIterations: 1, loginFailureLimit: Int.max))
        } catch {
            fatalError("cannot open the fuzz targets' instance: \(error)")
        }
        web = WebInterface(instance: instance)
        for (path, body) in Self.records {
            let response = instance.reply(
                to: NowHTTPRequest(
                    method: "POST", path: path,
                    headers: ["Authorization": Self.adminAuthorization, "Content-Type": "application/json"],
                    body: Data(body.utf8)))
            guard case .respond(let answer, _) = response, answer.statusCode == 201 else {
                fatalError("cannot seed the fuzz targets' instance with \(path) \(body): \(response)")
            }
        }
    }

    /// What the targets' instance holds besides its administrator.
    static let records = [
        ("/api/now/table/sys_user", #"{"user_name":"beth","first_name":"Beth","user_password":"beth","time_zone":"Europe/Paris","date_format":"dd/MM/yyyy"}"#),
        ("/api/now/table/sys_user", #"{"user_name":"carl","first_name":"Carl","active":"false"}"#),
        ("/api/now/table/incident", #"{"sys_id":"\#(incidentID)","short_description":"Printer on fire","priority":"1","opened_at":"2026-01-05 08:00:00","caller_id":"beth","state":"2"}"#),
        ("/api/now/table/incident", #"{"short_description":"Mail down","priority":"3","active":"true","category":"network"}"#),
    ]

    /// The answer to `request` through the entry point of `nowflow serve`'s listener: the web views, then the
    /// instance (after the listener's own removal of the headers only it may set); checked well-formed.
    @discardableResult
    public func answer(_ request: NowHTTPRequest) -> NowHTTPResponse? {
        var request = request
        request.headers.removeAll(named: BodySpooling.digestHeader)
        request.headers.removeAll(named: BodySpooling.receivedBodyHeader)
        request.headers.removeAll(named: HTTPListener.clientCertificateHeader)
        return respond(request)
    }

    /// `request` answered as ``answer(_:)`` answers it, with the listener's headers left in (set by a body receiver).
    func respond(_ request: NowHTTPRequest) -> NowHTTPResponse? {
        let reply = web.response(to: request).map { LocalInstanceReply.respond($0, after: .zero) } ?? instance.reply(to: request)
        guard case .respond(let response, _) = reply else { return nil }
        Self.check(response, to: request)
        return response
    }

    /// `request` with a multipart body `body`, received as the listener receives an attachment upload (the form
    /// taken apart as it arrives, in chunks of the sizes `chunkSizes` gives in turn), then answered.
    @discardableResult
    public func upload(_ request: NowHTTPRequest, body: UnsafeRawBufferPointer, chunkSizes: [Int]) -> NowHTTPResponse? {
        let contentType = request.headers["Content-Type"] ?? ""
        guard let receiver = instance.attachments.receiver(method: request.method, path: request.path, contentType: contentType)
        else { return answer(request) }
        var request = request
        request.headers.removeAll(named: BodySpooling.digestHeader)
        request.headers.removeAll(named: BodySpooling.receivedBodyHeader)
        request.headers.removeAll(named: HTTPListener.clientCertificateHeader)
        var offset = 0
        var turn = 0
        while offset < body.count {
            let size = max(1, chunkSizes.isEmpty ? body.count : chunkSizes[turn % chunkSizes.count])
            let end = min(body.count, offset + size)
            receiver.receive(UnsafeRawBufferPointer(rebasing: body[offset..<end]))
            offset = end
            turn += 1
        }
        defer { receiver.discard() }
        if let refused = receiver.finish(&request) {
            Self.check(refused, to: request)
            return refused
        }
        return respond(request)
    }

    /// Traps unless `response` is a well-formed answer: a status from 100 to 499 (a 500 is the instance failing on
    /// what it was sent), header names and values without line breaks or NUL, a JSON body that parses.
    static func check(_ response: NowHTTPResponse, to request: NowHTTPRequest) {
        func fail(_ what: String) -> Never {
            let body = String(decoding: response.body.prefix(2000), as: UTF8.self)
            fatalError("\(what): \(request.method) \(request.path) \(request.queryItems) → \(response.statusCode) \(body)")
        }
        guard (100...499).contains(response.statusCode) else { fail("status \(response.statusCode)") }
        for (name, value) in response.headers {
            if (name + value).utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
                fail("header line break in \(name): \(value)")
            }
        }
        let type = response.headers["Content-Type"] ?? ""
        if type.contains("json"), !response.body.isEmpty, (try? JSONValue(json: response.body)) == nil {
            fail("a body that is not JSON under \(type)")
        }
    }
}

/// The scratch directory to remove at exit (read by a C function pointer, which captures nothing).
nonisolated(unsafe) private var scratchDirectory: UnsafeMutablePointer<CChar>?
