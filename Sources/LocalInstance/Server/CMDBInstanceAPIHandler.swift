import Foundation
import NowData

/// The CMDB Instance API's reads and relations, over `cmdb_ci` (and its classes), `cmdb_rel_ci` and
/// `cmdb_rel_type`, as servicenow.itsm's `configuration_item_relations` modules call it:
///
/// - `GET /api/now/cmdb/instance/{className}`: `{"result":[{"sys_id":...,"name":...}, ...]}`, the class's CIs
///   (with its subclasses'), with `sysparm_query`, `sysparm_limit` and `sysparm_offset`.
/// - `GET /api/now/cmdb/instance/{className}/{sys_id}`: `{"result":{"outbound_relations":[...],
///   "attributes":{...},"inbound_relations":[...]}}`. `attributes` is the record as the Table API renders it with
///   `sysparm_exclude_reference_link=true`; each relation is `{"sys_id":..., "type":{"display_value","link",
///   "value"}, "target":{...}}`, an outbound one for each `cmdb_rel_ci` whose parent is the CI (its child is the
///   target), an inbound one for each whose child is the CI.
/// - `POST .../{sys_id}/relation` with `outbound_relations` and/or `inbound_relations`, arrays of
///   `{"type": rel_type_sys_id, "target": ci_sys_id}` (and `source`, which is not kept): adds the relations that do
///   not exist yet and answers 200 with the CI as the GET gives it.
/// - `DELETE .../{sys_id}/relation/{rel_sys_id}`: removes one of the CI's relations (204, no body).
///
/// Writes go through the Table API on `cmdb_rel_ci`, so they take its roles (`itil`) and system fields. The
/// API's CI writes (POST or PUT/PATCH of a CI with `attributes`) are not offered: 405.
struct CMDBInstanceAPIHandler: Sendable {
    let tables: TableAPIHandler

    /// A routed path of the API.
    struct Route: Equatable {
        var className: String
        var sysID: String?
        /// Whether the path goes on to `/relation`.
        var relation = false
        var relationSysID: String?
    }

    /// The route of a path of the CMDB Instance API (`/api/now[/v1]/cmdb/instance/{className}...`), or nil.
    static func route(_ path: String) -> Route? {
        var parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count >= 5, parts[0] == "api", parts[1] == "now" else { return nil }
        parts.removeFirst(2)
        if parts[0] == "v1" || parts[0] == "v2" { parts.removeFirst() }
        guard (3...6).contains(parts.count), parts[0] == "cmdb", parts[1] == "instance" else { return nil }
        var route = Route(className: parts[2])
        if parts.count >= 4 { route.sysID = parts[3] }
        if parts.count >= 5 {
            guard parts[4] == "relation" else { return nil }
            route.relation = true
        }
        if parts.count == 6 { route.relationSysID = parts[5] }
        return route
    }

    /// The answer to an authenticated request of `userName` on `route`.
    func handle(_ request: NowHTTPRequest, route: Route, userName: String) throws(TableAPIError) -> NowHTTPResponse {
        guard tables.dictionary.table(route.className, extends: "cmdb_ci"),
            let relations = tables.dictionary.table("cmdb_rel_ci"), tables.dictionary.table("cmdb_rel_type") != nil
        else { throw Self.invalidClass(route.className) }
        let method = request.method.uppercased()
        do {
            switch (method, route.sysID, route.relation, route.relationSysID) {
            case ("GET", nil, _, _): return try list(request, route, userName: userName)
            case ("GET", let sysID?, false, _):
                return try instanceResponse(request, route.className, sysID, userName: userName, status: 200)
            case ("POST", let sysID?, true, nil):
                return try addRelations(request, route.className, sysID, relations, userName: userName)
            case ("DELETE", let sysID?, true, let relationSysID?):
                return try deleteRelation(request, sysID, relationSysID, relations, userName: userName)
            default: throw TableAPIError.methodNotSupported(method)
            }
        } catch let error as TableAPIError {
            throw error
        } catch {
            tables.log("local instance: \(method) \(request.path) failed: \(error)")
            throw .internalFailure
        }
    }

    // MARK: - Reads

    /// The class's CIs as `sys_id` and `name`.
    private func list(_ request: NowHTTPRequest, _ route: Route, userName: String) throws -> NowHTTPResponse {
        var items = request.queryItems.filter {
            ["sysparm_query", "sysparm_limit", "sysparm_offset"].contains($0.name)
        }
        items.append(URLQueryItem(name: "sysparm_fields", value: "sys_id,name"))
        let response = try tableRequest("GET", "/api/now/table/\(route.className)", items, request, userName)
        return NowHTTPResponse(statusCode: 200, headers: tables.jsonHeaders, body: response.body)
    }

    /// The CI with its relations, as the GET of one CI answers it.
    private func instanceResponse(
        _ request: NowHTTPRequest, _ className: String, _ sysID: String, userName: String, status: Int
    ) throws -> NowHTTPResponse {
        let record = try tableRequest(
            "GET", "/api/now/table/\(className)/\(sysID)",
            [URLQueryItem(name: "sysparm_exclude_reference_link", value: "true")], request, userName)
        guard case .object(let envelope) = try JSONValue(json: record.body), let attributes = envelope["result"]
        else { throw TableAPIError.internalFailure }
        let base = Self.baseURL(request)
        let (outbound, inbound) = try tables.database.read { db in
            (
                try relations(of: sysID, outbound: true, base: base, db),
                try relations(of: sysID, outbound: false, base: base, db)
            )
        }
        let result: JSONValue = [
            "outbound_relations": .array(outbound), "attributes": attributes, "inbound_relations": .array(inbound),
        ]
        return NowHTTPResponse(
            statusCode: status, headers: tables.jsonHeaders, body: JSONValue.object(["result": result]).jsonData())
    }

    /// The CI's outbound relations (it is the parent) or inbound ones (it is the child), oldest first.
    private func relations(of sysID: String, outbound: Bool, base: String, _ db: SQLiteConnection) throws
        -> [JSONValue]
    {
        guard let table = tables.dictionary.table("cmdb_rel_ci"), let types = tables.dictionary.table("cmdb_rel_type"),
            let items = tables.dictionary.table("cmdb_ci")
        else { return [] }
        let (own, other) = outbound ? ("parent", "child") : ("child", "parent")
        let rows = try tables.store.select(
            table, where: "\"\(own)\" = ?", [.text(sysID)], orderBy: "\"sys_created_on\"", limit: -1, offset: 0,
            db)
        return try rows.map { row in
            let typeID = row["type"] ?? ""
            let targetID = row[other] ?? ""
            let typeName = try tables.store.fetch(types, sysID: typeID, db)?["name"] ?? ""
            let targetName = try tables.store.fetch(items, sysID: targetID, db)?["name"] ?? ""
            return [
                "sys_id": .string(row["sys_id"] ?? ""),
                "type": [
                    "display_value": .string(typeName),
                    "link": .string("\(base)/api/now/table/cmdb_rel_type/\(typeID)"), "value": .string(typeID),
                ],
                "target": [
                    "display_value": .string(targetName),
                    "link": .string("\(base)/api/now/cmdb/instance/cmdb_ci/\(targetID)"), "value": .string(targetID),
                ],
            ]
        }
    }

    // MARK: - Writes

    /// Adds the body's relations that the CI does not have yet, then answers with the CI.
    private func addRelations(
        _ request: NowHTTPRequest, _ className: String, _ sysID: String, _ table: TableDefinition, userName: String
    ) throws -> NowHTTPResponse {
        guard case .object(let body) = (try? JSONValue(json: request.body ?? Data())) ?? .null else {
            throw TableAPIError.invalidBody
        }
        var wanted: [(parent: String, child: String, type: String)] = []
        for (key, outbound) in [("outbound_relations", true), ("inbound_relations", false)] {
            guard let value = body[key] else { continue }
            guard case .array(let entries) = value else { throw Self.invalidRelations("'\(key)' is not an array") }
            for entry in entries {
                guard case .string(let type) = entry.object?["type"] ?? .null,
                    case .string(let target) = entry.object?["target"] ?? .null
                else { throw Self.invalidRelations("each of '\(key)' needs a 'type' and a 'target' sys_id") }
                wanted.append(outbound ? (sysID, target, type) : (target, sysID, type))
            }
        }
        guard !wanted.isEmpty else {
            throw Self.invalidRelations("give 'outbound_relations' or 'inbound_relations'")
        }
        // The CI must be of the class; the Table API's GET answers 404 when it is not.
        _ = try tableRequest("GET", "/api/now/table/\(className)/\(sysID)", [], request, userName)
        let missing: [(parent: String, child: String, type: String)] = try tables.database.read { db in
            guard let types = tables.dictionary.table("cmdb_rel_type"), let items = tables.dictionary.table("cmdb_ci")
            else { return [] }
            var missing: [(parent: String, child: String, type: String)] = []
            for relation in wanted {
                guard try tables.store.fetch(types, sysID: relation.type, db) != nil else {
                    throw Self.invalidRelations(
                        "no relationship type (cmdb_rel_type) has the sys_id '\(relation.type)'")
                }
                let target = relation.parent == sysID ? relation.child : relation.parent
                guard try tables.store.fetch(items, sysID: target, db) != nil else {
                    throw Self.invalidRelations("no configuration item (cmdb_ci) has the sys_id '\(target)'")
                }
                let existing = try tables.store.select(
                    table, where: "\"parent\" = ? AND \"child\" = ? AND \"type\" = ?",
                    [.text(relation.parent), .text(relation.child), .text(relation.type)], orderBy: "", limit: 1,
                    offset: 0, db)
                let repeated = missing.contains {
                    $0.parent == relation.parent && $0.child == relation.child && $0.type == relation.type
                }
                if existing.isEmpty, !repeated { missing.append(relation) }
            }
            return missing
        }
        for relation in missing {
            let body: JSONValue = [
                "parent": .string(relation.parent), "child": .string(relation.child), "type": .string(relation.type),
            ]
            _ = try tableRequest(
                "POST", "/api/now/table/cmdb_rel_ci", [], request, userName, body: body.jsonData())
        }
        return try instanceResponse(request, className, sysID, userName: userName, status: 200)
    }

    /// Removes one relation of the CI: 404 when the CI is neither its parent nor its child.
    private func deleteRelation(
        _ request: NowHTTPRequest, _ sysID: String, _ relationSysID: String, _ table: TableDefinition,
        userName: String
    ) throws -> NowHTTPResponse {
        let relation = try tables.database.read { db in try tables.store.fetch(table, sysID: relationSysID, db) }
        guard let relation, relation["parent"] == sysID || relation["child"] == sysID else {
            throw TableAPIError.noRecord
        }
        _ = try tableRequest("DELETE", "/api/now/table/cmdb_rel_ci/\(relationSysID)", [], request, userName)
        return NowHTTPResponse(statusCode: 204)
    }

    // MARK: - Support

    /// A Table API request made for this one, with its headers (the caller's `Host`, no method override).
    private func tableRequest(
        _ method: String, _ path: String, _ items: [URLQueryItem], _ request: NowHTTPRequest, _ userName: String,
        body: Data? = nil
    ) throws -> NowHTTPResponse {
        var inner = NowHTTPRequest(method: method, path: path, queryItems: items, headers: request.headers, body: body)
        inner.headers["X-HTTP-Method-Override"] = nil
        inner.headers["X-no-response-body"] = nil
        if body != nil { inner.headers["Content-Type"] = "application/json" }
        guard var routed = try TableAPIRequest(inner) else { throw TableAPIError.unknownResource }
        routed.userName = userName
        return try tables.handle(routed)
    }

    /// `http://<Host>` (or `http://localhost`), for the relations' links.
    private static func baseURL(_ request: NowHTTPRequest) -> String {
        "http://" + (request.headers.value(named: "Host").flatMap { $0.isEmpty ? nil : $0 } ?? "localhost")
    }

    private static func invalidClass(_ name: String) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Invalid class", detail: "'\(name)' is not a CMDB class (a table extending cmdb_ci)")
    }

    private static func invalidRelations(_ detail: String) -> TableAPIError {
        TableAPIError(status: 400, message: "Invalid relations", detail: detail)
    }
}
