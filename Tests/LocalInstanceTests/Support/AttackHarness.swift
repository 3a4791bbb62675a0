import Foundation
import NowData
import Testing

@testable import LocalInstance

/// A demo instance (in memory, `admin`/`secret`) attacked in process by three callers beside the admin: a user
/// without roles (`joe.employee`), an ITIL user (`itil`), each given a password by the admin, and an anonymous
/// client.
struct AttackHarness {
    enum Caller: CaseIterable {
        case admin, joe, itil, anonymous

        /// The caller's `Authorization` header; nil for the anonymous client.
        var authorization: String? {
            switch self {
            case .admin: Harness.adminAuth
            case .joe: "Basic " + Data("joe.employee:\(AttackHarness.joePassword)".utf8).base64EncodedString()
            case .itil: "Basic " + Data("itil:\(AttackHarness.itilPassword)".utf8).base64EncodedString()
            case .anonymous: nil
            }
        }
    }

    static let joePassword = "joe-Pa55word"
    static let itilPassword = "itil-Pa55word"

    let harness: Harness
    var instance: LocalInstance { harness.instance }

    init(configure: (inout LocalInstance.Options) -> Void = { _ in }) async throws {
        harness = try Harness(configure: configure)
        for (user, password) in [("joe.employee", Self.joePassword), ("itil", Self.itilPassword)] {
            let set = try await harness.send(
                "PATCH", "/api/now/table/sys_user/\(DemoData.sysID("sys_user", user))",
                body: #"{"user_password":"\#(password)"}"#)
            #expect(set.statusCode == 200)
        }
    }

    /// Sends a request as `caller`, with `headers` besides its credentials (and `Content-Type: application/json`
    /// with a text body, unless `headers` names one).
    func send(
        _ caller: Caller, _ method: String, _ path: String, query: [(String, String)] = [], body: String? = nil,
        headers: [(String, String)] = [], rawBody: Data? = nil
    ) async throws -> NowHTTPResponse {
        var fields = headers
        if let authorization = caller.authorization { fields.append(("Authorization", authorization)) }
        if body != nil, !headers.contains(where: { $0.0.lowercased() == "content-type" }) {
            fields.append(("Content-Type", "application/json"))
        }
        return try await harness.send(method, path, query: query, body: body, headers: fields, rawBody: rawBody)
    }

    /// A raw upload (`POST /api/now/attachment/file`) of `bytes` as `caller`, with the file's own Content-Type,
    /// as PySNC and servicenow.itsm send it.
    func upload(
        _ caller: Caller, table: String, record: String, name: String = "notes.txt",
        contentType: String = "text/plain", bytes: String = "some notes"
    ) async throws -> NowHTTPResponse {
        try await send(
            caller, "POST", "/api/now/attachment/file",
            query: [("table_name", table), ("table_sys_id", record), ("file_name", name)],
            headers: [("Content-Type", contentType)], rawBody: Data(bytes.utf8))
    }

    /// The `sys_id` of a created record or attachment.
    static func sysID(_ response: NowHTTPResponse) throws -> String {
        try #require(try Harness.result(response)["sys_id"] as? String)
    }

    /// The platform's 401 body.
    static let notAuthenticated =
        #"{"error":{"message":"User Not Authenticated","detail":"Required to provide Auth information"},"#
        + #""status":"failure"}"#

    /// The platform's 403 body for a write the ACLs refuse (`Insert`, `Update` or `Delete`).
    static func refusal(_ verb: String) -> String {
        #"{"error":{"message":"Operation Failed","detail":"ACL Exception \#(verb) Failed due to security "#
            + #"constraints"},"status":"failure"}"#
    }

    /// The 403 body for a secret field asked for.
    static func secretField(_ table: String, _ field: String) -> String {
        #"{"error":{"message":"Operation Failed","detail":"\#(table).\#(field) is a password field: no one reads "#
            + #"it, as a value, a group or an aggregate"},"status":"failure"}"#
    }

    /// The 404 body for no record (or one the user may not read).
    static let noRecord =
        #"{"error":{"message":"No Record found","detail":"Record doesn't exist or ACL restricts the record "#
        + #"retrieval"},"status":"failure"}"#
}
