import Foundation
import NowData

/// The tiny-URL API: `POST /api/now/tinyurl` with `{"url": "<a long URL>"}` answers
/// `{"result":"incident_list.do?sysparm_tiny=<key>"}`, and a later request that carries `sysparm_tiny=<key>` is
/// served with the long URL's query parameters, as the platform does for clients whose URL would pass 2,048
/// characters (servicenow.itsm). The URLs are kept in `sys_tiny_url`; the same URL always gets the same key.
extension LocalInstance {
    static let tinyURLPath = "/api/now/tinyurl"

    /// The answer to an authenticated `POST /api/now/tinyurl` (any user may shorten a URL: a tiny URL only stands
    /// for a query, and the request that expands it is checked as any other).
    func tinyURL(_ request: NowHTTPRequest) -> NowHTTPResponse {
        guard request.method.uppercased() == "POST" else {
            return TableAPIError.methodNotSupported(request.method.uppercased()).response
        }
        guard let body = request.body, case .object(let object)? = try? JSONValue(json: body),
            case .string(let url)? = object["url"], let components = URLComponents(string: url)
        else { return TableAPIError.invalidBody.response }
        guard let table = dictionary.table("sys_tiny_url") else { return TableAPIError.unknownResource.response }
        let key = String(SHA256.hex("nowflow-tiny:" + url).prefix(32))
        do {
            try database.write { [store] db in
                guard
                    try store.select(
                        table, where: "\"tiny_url\" = ?", [.text(key)], orderBy: "", limit: 1, offset: 0, db
                    ).isEmpty
                else { return }
                let stamp = Timestamp.string(now())
                try store.insert(
                    table,
                    [
                        "sys_id": key, "tiny_url": key, "data": url, "sys_created_on": stamp,
                        "sys_created_by": "system",
                        "sys_updated_on": stamp, "sys_updated_by": "system", "sys_mod_count": "0",
                        "sys_class_name": table.name,
                    ], db)
            }
        } catch {
            log("local instance: cannot store a tiny URL: \(error)")
            return TableAPIError.internalFailure.response
        }
        let name = components.path.split(separator: "/").last.map(String.init) ?? "home"
        return NowHTTPResponse(
            statusCode: 200, headers: ["Content-Type": "application/json;charset=UTF-8"],
            body: JSONValue.object(["result": .string("\(name)_list.do?sysparm_tiny=\(key)")]).jsonData())
    }

    /// `request` with the query parameters of the URL its `sysparm_tiny` names, when it names a stored one (the
    /// request's other parameters are dropped, as the long URL holds them all); `request` itself otherwise.
    func expandingTinyURL(_ request: NowHTTPRequest) -> NowHTTPRequest {
        guard let key = request.queryItems.first(where: { $0.name == "sysparm_tiny" })?.value,
            let table = dictionary.table("sys_tiny_url")
        else { return request }
        let stored = try? database.read { [store] db in
            try store.select(table, where: "\"tiny_url\" = ?", [.text(key)], orderBy: "", limit: 1, offset: 0, db)
                .first?["data"]
        }
        guard let url = stored ?? nil, let items = URLComponents(string: url)?.queryItems else { return request }
        var expanded = request
        expanded.queryItems = items
        return expanded
    }
}
