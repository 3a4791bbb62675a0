internal import CCurl
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request on its way through libcurl: its easy handle, the response as it arrives, and the continuation
/// that receives the outcome.
///
/// Between ``CurlEngine/submit(_:)`` and its finish only the engine's thread touches it; any thread may ask for it
/// to be cancelled.
final class CurlTransfer: @unchecked Sendable {
    /// The largest body size taken from a `Content-Length` header to reserve memory up front.
    private static let largestReservation = 64 << 20

    let handle: UnsafeMutableRawPointer
    private var requestHeaders: UnsafeMutablePointer<curl_slist>?
    private var responseHeaders: [(String, String)] = []
    private var body = Data()
    private var continuation: CheckedContinuation<Result<CurlResponse, CurlError>, Never>?
    /// Set when the caller cancels; the engine then ends the transfer.
    let isCancelled = Atomic(false)

    /// A transfer of `request`, whose outcome goes to `continuation`.
    init(_ request: CurlRequest, continuation: CheckedContinuation<Result<CurlResponse, CurlError>, Never>)
        throws(CurlError)
    {
        guard let handle = curl_easy_init() else {
            throw .failed("libcurl could not start a transfer.")
        }
        self.handle = handle
        self.continuation = continuation
        let context = Unmanaged.passUnretained(self).toOpaque()
        ccurl_setopt_pointer(handle, CURLOPT_URL, request.url.absoluteString)
        ccurl_setopt_pointer(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(request.timeout))
        // Whatever compression libcurl can undo (a real instance compresses its JSON).
        ccurl_setopt_pointer(handle, CURLOPT_ACCEPT_ENCODING, "")
        ccurl_setopt_pointer(handle, CURLOPT_PRIVATE, context)
        ccurl_setopt_callback(handle, CURLOPT_WRITEFUNCTION, Self.receiveBody)
        ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        ccurl_setopt_callback(handle, CURLOPT_HEADERFUNCTION, Self.receiveHeader)
        ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        switch request.method.uppercased() {
        case "GET": ccurl_setopt_long(handle, CURLOPT_HTTPGET, 1)
        case "HEAD": ccurl_setopt_long(handle, CURLOPT_NOBODY, 1)
        default: ccurl_setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, request.method)
        }
        if let body = request.body {
            ccurl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            if body.isEmpty {
                // Not copied: the empty constant string, which lives as long as the program.
                ccurl_setopt_pointer(handle, CURLOPT_POSTFIELDS, UnsafeRawPointer(("" as StaticString).utf8Start))
            } else {
                _ = body.withUnsafeBytes { ccurl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
            }
        }
        // No `Expect: 100-continue` round trip before a body.
        for line in request.headers.map({ "\($0.name): \($0.value)" }) + ["Expect:"] {
            requestHeaders = curl_slist_append(requestHeaders, line)
        }
        ccurl_setopt_pointer(handle, CURLOPT_HTTPHEADER, requestHeaders)
        if !request.reusesConnection {
            ccurl_setopt_long(handle, CURLOPT_FRESH_CONNECT, 1)
            ccurl_setopt_long(handle, CURLOPT_FORBID_REUSE, 1)
        }
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(requestHeaders)
    }

    /// Resumes the caller with the outcome libcurl reported: the response, or the error `code` stands for.
    func finish(_ code: CURLcode) {
        guard code == CURLE_OK else {
            resume(with: .failure(Self.error(code)))
            return
        }
        var statusCode = 0
        ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &statusCode)
        resume(with: .success(CurlResponse(statusCode: statusCode, headers: responseHeaders, body: body)))
    }

    /// Resumes the caller with ``CurlError/cancelled``.
    func finishCancelled() {
        resume(with: .failure(.cancelled))
    }

    private func resume(with outcome: Result<CurlResponse, CurlError>) {
        continuation?.resume(returning: outcome)
        continuation = nil
    }

    /// The transfer a libcurl callback's context points to.
    private static func transfer(_ context: UnsafeMutableRawPointer?) -> CurlTransfer? {
        context.map { Unmanaged<CurlTransfer>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let receiveBody: ccurl_data_callback = { data, size, count, context in
        guard let data, let transfer = transfer(context) else { return 0 }
        transfer.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: size * count)
        return size * count
    }

    /// Takes one header line; a status line starts a new response (after a `100 Continue`, say).
    private static let receiveHeader: ccurl_data_callback = { data, size, count, context in
        guard let data, let transfer = transfer(context) else { return 0 }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            transfer.responseHeaders = []
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            transfer.responseHeaders.append((name, value))
            if name.caseInsensitiveCompare("Content-Length") == .orderedSame, let length = Int(value), length > 0 {
                transfer.body.reserveCapacity(min(length, largestReservation))
            }
        }
        return size * count
    }

    /// The error of a failed transfer, as URLSession would report it where it has an equivalent, so that retries
    /// and messages do not depend on the transport.
    static func error(_ code: CURLcode) -> CurlError {
        let urlCode: URLError.Code
        switch code {
        case CURLE_COULDNT_CONNECT: urlCode = .cannotConnectToHost
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: urlCode = .cannotFindHost
        case CURLE_OPERATION_TIMEDOUT: urlCode = .timedOut
        case CURLE_GOT_NOTHING, CURLE_WEIRD_SERVER_REPLY: urlCode = .badServerResponse
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE: urlCode = .networkConnectionLost
        case CURLE_SSL_CONNECT_ERROR: urlCode = .secureConnectionFailed
        case CURLE_PEER_FAILED_VERIFICATION: urlCode = .serverCertificateUntrusted
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL: urlCode = .badURL
        default:
            return .failed("libcurl: \(String(cString: curl_easy_strerror(code))).")
        }
        return .network(urlCode)
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}
