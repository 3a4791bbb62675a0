import Foundation
import NowData

/// The REST APIs beside the Table API: attachments (`/api/now/attachment...`), batches (`/api/now/v1/batch`),
/// aggregates (`/api/now/stats/{table}`), the CMDB Instance API (`/api/now/cmdb/instance/...`), tiny URLs
/// (`/api/now/tinyurl`), the Change Management API (`/api/sn_chg_rest/change...`), the Import Set API
/// (`/api/now/import/...`), the Service Catalog API (`/api/sn_sc/...`), the column dictionary
/// (`/api/now/ui/meta/{table}`) and the JSONv2 processor (`/{table}.do?JSONv2`), each on an authenticated request and
/// through the ``AccessPolicy/Access`` of its user.
extension LocalInstance {
    /// The response when `request` is for one of these APIs; nil when its path is none of theirs. With `user`, the
    /// request is that user's (already authenticated) instead of its credentials'.
    func otherAPIResponse(_ request: NowHTTPRequest, as user: String? = nil) -> NowHTTPResponse? {
        // A Table API path, by far the most frequent, is none of theirs: it need not be split four more times.
        if TableAPIRequest.hasTablePrefix(request.path) { return nil }
        let segments = AttachmentAPIHandler.route(request.path)
        let isBatch = Self.isBatchPath(request.path)
        let statsTable = AggregateAPIHandler.table(in: request.path)
        let cmdbRoute = CMDBInstanceAPIHandler.route(request.path)
        let isTinyURL = request.path == Self.tinyURLPath
        let changeRoute = ChangeManagementAPIHandler.route(request.path)
        let importRoute = ImportSetAPIHandler.route(request.path)
        let catalogRoute = ServiceCatalogAPIHandler.route(request.path)
        let jsonv2Table = JSONv2Handler.table(of: request)
        let metaTable = UIMetaAPIHandler.table(in: request.path)
        guard
            segments != nil || isBatch || statsTable != nil || cmdbRoute != nil || isTinyURL || changeRoute != nil
                || importRoute != nil || catalogRoute != nil || jsonv2Table != nil || metaTable != nil
        else { return nil }
        let access: AccessPolicy.Access
        do {
            guard let granted = try self.access(request, as: user) else {
                return TableAPIError.notAuthenticated(request).response
            }
            access = granted
        } catch {
            options.log("local instance: \(request.method) \(request.path) failed: \(error)")
            return TableAPIError.internalFailure.response
        }
        if let jsonv2Table { return JSONv2Handler(tables: handler).handle(request, table: jsonv2Table, as: access) }
        do throws(TableAPIError) {
            if let segments { return try attachments.handle(request, segments: segments, as: access) }
            if let cmdbRoute {
                return try CMDBInstanceAPIHandler(tables: handler).handle(request, route: cmdbRoute, as: access)
            }
            if let statsTable {
                return try AggregateAPIHandler(tables: handler).handle(request, tableName: statsTable, as: access)
            }
            if isTinyURL { return tinyURL(request) }
            if let changeRoute {
                return try ChangeManagementAPIHandler(tables: handler).handle(request, segments: changeRoute, as: access)
            }
            if let importRoute {
                return try ImportSetAPIHandler(tables: handler).handle(request, route: importRoute, as: access)
            }
            if let metaTable {
                return try UIMetaAPIHandler(tables: handler).handle(request, tableName: metaTable, as: access)
            }
            if let catalogRoute {
                return try ServiceCatalogAPIHandler(catalog: ServiceCatalog(tables: handler)).handle(
                    request, route: catalogRoute, as: access)
            }
            return try batch(request, as: user)
        } catch {
            return error.response
        }
    }

    /// Removes the files of the attachments deleted with their records.
    func sweepAttachments() {
        do {
            try database.write { db in try attachments.content.sweep(db) }
        } catch {
            options.log("local instance: cannot remove the files of deleted attachments: \(error)")
        }
    }
}
