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
/// - `POST /api/now/cmdb/instance/{className}` with `{"attributes": {...}, "source": "ServiceNow"}` (and optional
///   `outbound_relations`, `inbound_relations`): creates the CI in the class, with `discovery_source` the source
///   and `first_discovered`, `last_discovered` now, adds its relations, and answers 200 with the CI as the GET
///   gives it. `source` must be one of `cmdb_ci.discovery_source`'s choices.
/// - `PUT` or `PATCH .../{sys_id}` with `attributes` and `source`: sets the attributes given (neither removes the
///   others), stamps `last_discovered` and answers 200 with the CI; `discovery_source` stays the CI's first source,
///   and the relations are left alone.
/// - `POST .../{sys_id}/relation` with `outbound_relations` and/or `inbound_relations`, arrays of
///   `{"type": rel_type_sys_id, "target": ci_sys_id}` (and `source`, which is not kept): adds the relations that do
///   not exist yet and answers 200 with the CI as the GET gives it.
/// - `DELETE .../{sys_id}/relation/{rel_sys_id}`: removes one of the CI's relations (204, no body).
///
/// Writes go through the Table API (on the class and on `cmdb_rel_ci`), so they take its roles (`itil`), rules
/// and system fields, and an attribute the class does not have is ignored (named in `X-Nowflow-Warning`). What the
/// platform's identification and reconciliation engine adds (matching an existing CI by its identifiers instead of
/// creating another, dependent identification rules) is not done: every POST creates a CI.
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

    /// The answer to a request of the user `access` is for, on `route`.
    func handle(_ request: NowHTTPRequest, route: Route, as access: AccessPolicy.Access) throws(TableAPIError)
        -> NowHTTPResponse
    {
        guard tables.dictionary.table(route.className, extends: "cmdb_ci"),
            let relations = tables.dictionary.table("cmdb_rel_ci"), tables.dictionary.table("cmdb_rel_type") != nil
        else { throw Self.invalidClass(route.className) }
        let method = request.method.uppercased()
        do {
            switch (method, route.sysID, route.relation, route.relationSysID) {
            case ("GET", nil, _, _): return try list(request, route, access: access)
            case ("GET", let sysID?, false, _):
                return try instanceResponse(request, route.className, sysID, access: access, status: 200)
            case ("POST", nil, _, _): return try createCI(request, route.className, relations, access: access)
            case ("PUT", let sysID?, false, _), ("PATCH", let sysID?, false, _):
                return try updateCI(request, route.className, sysID, access: access)
            case ("POST", let sysID?, true, nil):
                return try addRelations(request, route.className, sysID, relations, access: access)
            case ("DELETE", let sysID?, true, let relationSysID?):
                return try deleteRelation(request, sysID, relationSysID, relations, access: access)
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
    private func list(_ request: NowHTTPRequest, _ route: Route, access: AccessPolicy.Access) throws
        -> NowHTTPResponse
    {
        var items = request.queryItems.filter {
            ["sysparm_query", "sysparm_limit", "sysparm_offset"].contains($0.name)
        }
        items.append(URLQueryItem(name: "sysparm_fields", value: "sys_id,name"))
        let response = try tableRequest("GET", "/api/now/table/\(route.className)", items, request, access)
        return NowHTTPResponse(statusCode: 200, headers: tables.jsonHeaders, body: response.body)
    }

    /// The CI with its relations, as the GET of one CI answers it; with `warning`, the write's
    /// `X-Nowflow-Warning`.
    private func instanceResponse(
        _ request: NowHTTPRequest, _ className: String, _ sysID: String, access: AccessPolicy.Access, status: Int,
        warning: String? = nil
    ) throws -> NowHTTPResponse {
        let record = try tableRequest(
            "GET", "/api/now/table/\(className)/\(sysID)",
            [URLQueryItem(name: "sysparm_exclude_reference_link", value: "true")], request, access)
        guard case .object(let envelope) = try JSONValue(json: record.body), let attributes = envelope["result"]
        else { throw TableAPIError.internalFailure }
        let base = request.baseURL
        let (outbound, inbound) = try tables.database.read { db in
            (
                try relations(of: sysID, outbound: true, base: base, db),
                try relations(of: sysID, outbound: false, base: base, db)
            )
        }
        let result: JSONValue = [
            "outbound_relations": .array(outbound), "attributes": attributes, "inbound_relations": .array(inbound),
        ]
        var headers = tables.jsonHeaders
        if let warning { headers.add(name: TableAPIHandler.unknownFieldsHeader, value: warning) }
        return NowHTTPResponse(
            statusCode: status, headers: headers, body: JSONValue.object(["result": result]).jsonData())
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

    /// Creates a CI of the class from the body's `attributes` and `source`, with the body's relations.
    private func createCI(
        _ request: NowHTTPRequest, _ className: String, _ relations: TableDefinition, access: AccessPolicy.Access
    ) throws -> NowHTTPResponse {
        let body = try Self.body(request)
        var attributes = try attributes(body)
        let source = try source(body)
        var sysID = attributes["sys_id"]?.string ?? ""
        if sysID.isEmpty {
            sysID = NowTableService.makeSysID()
            attributes["sys_id"] = .string(sysID)
        }
        let wanted = try wantedRelations(body, of: sysID, required: false)
        let missing = try missingRelations(wanted, of: sysID, relations)
        let stamp = Timestamp.string(tables.now())
        attributes["discovery_source"] = .string(source)
        attributes["first_discovered"] = .string(stamp)
        attributes["last_discovered"] = .string(stamp)
        let created = try tableRequest(
            "POST", "/api/now/table/\(className)", [URLQueryItem(name: "sysparm_fields", value: "sys_id")], request,
            access, body: JSONValue.object(attributes).jsonData())
        try insert(missing, request, access)
        return try instanceResponse(
            request, className, sysID, access: access, status: 200,
            warning: created.headers.value(named: TableAPIHandler.unknownFieldsHeader))
    }

    /// Sets the body's `attributes` on the CI and stamps `last_discovered`; the CI keeps its `discovery_source`.
    private func updateCI(
        _ request: NowHTTPRequest, _ className: String, _ sysID: String, access: AccessPolicy.Access
    ) throws -> NowHTTPResponse {
        let body = try Self.body(request)
        var attributes = try attributes(body)
        _ = try source(body)
        attributes["sys_id"] = nil
        attributes["discovery_source"] = nil
        attributes["last_discovered"] = .string(Timestamp.string(tables.now()))
        let updated = try tableRequest(
            "PATCH", "/api/now/table/\(className)/\(sysID)", [URLQueryItem(name: "sysparm_fields", value: "sys_id")],
            request, access, body: JSONValue.object(attributes).jsonData())
        return try instanceResponse(
            request, className, sysID, access: access, status: 200,
            warning: updated.headers.value(named: TableAPIHandler.unknownFieldsHeader))
    }

    /// Adds the body's relations that the CI does not have yet, then answers with the CI.
    private func addRelations(
        _ request: NowHTTPRequest, _ className: String, _ sysID: String, _ table: TableDefinition,
        access: AccessPolicy.Access
    ) throws -> NowHTTPResponse {
        let body = try Self.body(request)
        let wanted = try wantedRelations(body, of: sysID, required: true)
        // The CI must be of the class; the Table API's GET answers 404 when it is not.
        _ = try tableRequest("GET", "/api/now/table/\(className)/\(sysID)", [], request, access)
        try insert(try missingRelations(wanted, of: sysID, table), request, access)
        return try instanceResponse(request, className, sysID, access: access, status: 200)
    }

    /// A relation as `cmdb_rel_ci` holds it.
    private typealias Relation = (parent: String, child: String, type: String)

    /// The relations of the body's `outbound_relations` (the CI `sysID` is their parent) and `inbound_relations`
    /// (it is their child); with `required`, at least one.
    private func wantedRelations(_ body: JSONObject, of sysID: String, required: Bool) throws -> [Relation] {
        var wanted: [Relation] = []
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
        if required, wanted.isEmpty {
            throw Self.invalidRelations("give 'outbound_relations' or 'inbound_relations'")
        }
        return wanted
    }

    /// The relations of `wanted` that do not exist yet, once each; throws when a type or a target does not exist.
    private func missingRelations(_ wanted: [Relation], of sysID: String, _ table: TableDefinition) throws
        -> [Relation]
    {
        try tables.database.read { db in
            guard let types = tables.dictionary.table("cmdb_rel_type"), let items = tables.dictionary.table("cmdb_ci")
            else { return [] }
            var missing: [Relation] = []
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
    }

    /// Creates `relations` through the Table API on `cmdb_rel_ci`.
    private func insert(_ relations: [Relation], _ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws {
        for relation in relations {
            let body: JSONValue = [
                "parent": .string(relation.parent), "child": .string(relation.child), "type": .string(relation.type),
            ]
            _ = try tableRequest(
                "POST", "/api/now/table/cmdb_rel_ci", [], request, access, body: body.jsonData())
        }
    }

    /// The body's `attributes`: the CI's field values.
    private func attributes(_ body: JSONObject) throws(TableAPIError) -> JSONObject {
        guard case .object(let attributes) = body["attributes"] ?? .null else {
            throw TableAPIError(
                status: 400, message: "Invalid attributes", detail: "give 'attributes', an object of the CI's values")
        }
        return attributes
    }

    /// The body's `source`, one of `cmdb_ci.discovery_source`'s choices (the platform's discovery sources).
    private func source(_ body: JSONObject) throws(TableAPIError) -> String {
        let choices = tables.dictionary.table("cmdb_ci")?.field("discovery_source")?.choices.map(\.value) ?? []
        guard case .string(let source) = body["source"] ?? .null, choices.isEmpty || choices.contains(source) else {
            throw TableAPIError(
                status: 400, message: "Invalid source",
                detail: "give 'source', one of the discovery sources: " + choices.joined(separator: ", "))
        }
        return source
    }

    /// The request's JSON object body; a body that is not `application/json` is refused as the Table API refuses
    /// it (400 without a Content-Type, 415 with another), so that no other site's page can send one.
    private static func body(_ request: NowHTTPRequest) throws(TableAPIError) -> JSONObject {
        try TableAPIHandler.requireJSON(request)
        guard case .object(let body) = (try? JSONValue(json: request.body ?? Data())) ?? .null else {
            throw TableAPIError.invalidBody
        }
        return body
    }

    /// Removes one relation of the CI: 404 when the CI is neither its parent nor its child.
    private func deleteRelation(
        _ request: NowHTTPRequest, _ sysID: String, _ relationSysID: String, _ table: TableDefinition,
        access: AccessPolicy.Access
    ) throws -> NowHTTPResponse {
        let relation = try tables.database.read { db in try tables.store.fetch(table, sysID: relationSysID, db) }
        guard let relation, relation["parent"] == sysID || relation["child"] == sysID else {
            throw TableAPIError.noRecord
        }
        _ = try tableRequest("DELETE", "/api/now/table/cmdb_rel_ci/\(relationSysID)", [], request, access)
        return NowHTTPResponse(statusCode: 204)
    }

    // MARK: - Support

    /// A Table API request made for this one, with its headers (the caller's `Host`, no method override).
    private func tableRequest(
        _ method: String, _ path: String, _ items: [URLQueryItem], _ request: NowHTTPRequest,
        _ access: AccessPolicy.Access, body: Data? = nil
    ) throws -> NowHTTPResponse {
        var inner = NowHTTPRequest(method: method, path: path, queryItems: items, headers: request.headers, body: body)
        inner.headers["X-HTTP-Method-Override"] = nil
        inner.headers["X-no-response-body"] = nil
        if body != nil { inner.headers["Content-Type"] = "application/json" }
        guard let routed = try TableAPIRequest(inner) else { throw TableAPIError.unknownResource }
        return try tables.handle(routed, as: access)
    }


    private static func invalidClass(_ name: String) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Invalid class", detail: "'\(name)' is not a CMDB class (a table extending cmdb_ci)")
    }

    private static func invalidRelations(_ detail: String) -> TableAPIError {
        TableAPIError(status: 400, message: "Invalid relations", detail: detail)
    }
}
