import Foundation
import NowData

extension LocalInstance {
    /// The longest path (without the query) the instance parses, in bytes. A longer one gets the platform's HTML
    /// error page instead of a JSON error, as a PDI's web server answers a path it cannot take (PySNC's
    /// `test_nonjson_error` asks for a table named by 23,000 characters); a long query string is fine.
    static let maximumPathLength = 8 * 1024

    /// 400 with the HTML page the platform's web server sends for a request line too long to parse.
    static var requestLineTooLong: NowHTTPResponse {
        let page =
            "<!doctype html><html lang=\"en\"><head><title>HTTP Status 400 – Bad Request</title></head>"
            + "<body><h1>HTTP Status 400 – Bad Request</h1><hr class=\"line\" /><p><b>Type</b> Status Report</p>"
            + "<p><b>Message</b> Request header is too large</p><p><b>Description</b> The server cannot or will not "
            + "process the request due to something that is perceived to be a client error (e.g., malformed "
            + "request syntax, invalid request message framing, or deceptive request routing).</p>"
            + "<hr class=\"line\" /></body></html>"
        return NowHTTPResponse(
            statusCode: 400, headers: ["Content-Type": "text/html;charset=utf-8"], body: Data(page.utf8))
    }
}
