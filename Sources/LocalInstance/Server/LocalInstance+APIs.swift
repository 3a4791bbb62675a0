import Foundation
import NowData

/// The REST APIs beside the Table API: attachments (`/api/now/attachment...`), batches (`/api/now/v1/batch`),
/// aggregates (`/api/now/stats/{table}`) and the CMDB Instance API (`/api/now/cmdb/instance/...`), each on an
/// authenticated request.
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
        guard segments != nil || isBatch || statsTable != nil || cmdbRoute != nil else { return nil }
        let userName: String
        do {
            guard let authenticated = try user ?? authenticate(request) else {
                return TableAPIError.notAuthenticated.response
            }
            userName = authenticated
        } catch {
            options.log("local instance: \(request.method) \(request.path) failed: \(error)")
            return TableAPIError.internalFailure.response
        }
        do throws(TableAPIError) {
            if let segments { return try attachments.handle(request, segments: segments, userName: userName) }
            if let cmdbRoute {
                return try CMDBInstanceAPIHandler(tables: handler).handle(request, route: cmdbRoute, userName: userName)
            }
            if let statsTable {
                return try AggregateAPIHandler(tables: handler).handle(
                    request, tableName: statsTable, userName: userName)
            }
            return try batch(request)
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
