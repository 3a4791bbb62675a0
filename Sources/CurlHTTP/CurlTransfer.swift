internal import CCurl
import Foundation
import Synchronization
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// libcurl's receive buffer for a body written to a file, and its send buffer for a body read from one
    /// (16 KB and 64 KB by default): fewer, larger system calls and callbacks for a large file.
    private static let fileBufferSize = 1 << 20

    let handle: UnsafeMutableRawPointer
    private var requestHeaders: UnsafeMutablePointer<curl_slist>?
    private var responseHeaders: [(String, String)] = []
    private var body = Data()
    /// The descriptor of the file the body is read from (-1: none), and the file a 2xx answer's body is written
    /// to (opened at its first byte).
    private var bodySource: Int32 = -1
    private let responseFile: URL?
    private let responseFileObserver: (@Sendable (UnsafeRawBufferPointer) -> Void)?
    private var responseSink: CurlFileSink?
    /// Whether the answer's status was looked at (at its first body byte), and a failure to write its file.
    private var sinkChosen = false
    private var sinkFailure: String?
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
        responseFile = request.responseFile
        responseFileObserver = request.responseFileObserver
        let context = Unmanaged.passUnretained(self).toOpaque()
        ccurl_setopt_pointer(handle, CURLOPT_URL, request.url.absoluteString)
        ccurl_setopt_pointer(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(request.timeout))
        if let caFile = request.caFile { ccurl_setopt_pointer(handle, CURLOPT_CAINFO, caFile) }
        if !request.verifiesPeer {
            ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 0)
            ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 0)
        }
        if let certificate = request.clientCertificateFile {
            ccurl_setopt_pointer(handle, CURLOPT_SSLCERT, certificate)
            ccurl_setopt_pointer(handle, CURLOPT_SSLKEY, request.clientKeyFile ?? certificate)
        }
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
        if responseFile != nil { ccurl_setopt_long(handle, CURLOPT_BUFFERSIZE, Self.fileBufferSize) }
        if let file = request.bodyFile {
            bodySource = open(file.path, O_RDONLY | O_CLOEXEC)
            var status = stat()
            guard bodySource >= 0, fstat(bodySource, &status) == 0 else {
                // Fully initialised: deinit cleans the handle (and the descriptor) up.
                throw .failed("cannot read \(file.path): \(String(cString: strerror(errno)))")
            }
            ccurl_setopt_long(handle, CURLOPT_POST, 1)
            ccurl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(status.st_size))
            ccurl_setopt_long(handle, CURLOPT_UPLOAD_BUFFERSIZE, Self.fileBufferSize)
            ccurl_setopt_callback(handle, CURLOPT_READFUNCTION, Self.sendBody)
            ccurl_setopt_pointer(handle, CURLOPT_READDATA, context)
        } else if let body = request.body {
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
        if bodySource >= 0 { close(bodySource) }
        try? responseSink?.close()
    }

    /// Resumes the caller with the outcome libcurl reported: the response, or the error `code` stands for.
    func finish(_ code: CURLcode) {
        guard code == CURLE_OK else {
            var systemError = 0
            ccurl_getinfo_long(handle, CURLINFO_OS_ERRNO, &systemError)
            var proxyStatus = 0
            ccurl_getinfo_long(handle, CURLINFO_HTTP_CONNECTCODE, &proxyStatus)
            resume(
                with: .failure(
                    Self.error(code, systemError: Int32(truncatingIfNeeded: systemError), proxyStatus: proxyStatus)))
            return
        }
        if let sinkFailure {
            resume(with: .failure(.failed(sinkFailure)))
            return
        }
        var statusCode = 0
        ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &statusCode)
        var written: URL?
        if let responseFile, (200..<300).contains(statusCode) {
            do throws(CurlFileSink.Failure) {
                // A 2xx answer without a body (or whose first byte never came) still gives its file.
                if responseSink == nil { responseSink = try CurlFileSink(creating: responseFile) }
                try responseSink?.close()
                responseSink = nil
                written = responseFile
            } catch {
                resume(with: .failure(.failed("cannot write \(responseFile.path): \(error.reason)")))
                return
            }
        }
        resume(
            with: .success(
                CurlResponse(statusCode: statusCode, headers: responseHeaders, body: body, bodyFile: written)))
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
        let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
        if !transfer.sinkChosen {
            transfer.sinkChosen = true
            var statusCode = 0
            ccurl_getinfo_long(transfer.handle, CURLINFO_RESPONSE_CODE, &statusCode)
            if let file = transfer.responseFile, (200..<300).contains(statusCode) {
                do throws(CurlFileSink.Failure) {
                    transfer.responseSink = try CurlFileSink(creating: file)
                } catch {
                    transfer.sinkFailure = "cannot write \(file.path): \(error.reason)"
                    return 0
                }
            }
        }
        if let sink = transfer.responseSink {
            do throws(CurlFileSink.Failure) {
                try sink.write(bytes)
                transfer.responseFileObserver?(bytes)
            } catch {
                transfer.sinkFailure = "cannot write \(transfer.responseFile?.path ?? ""): \(error.reason)"
                return 0
            }
        } else {
            transfer.body.append(contentsOf: bytes)
        }
        return size * count
    }

    /// Reads the body file straight into libcurl's buffer; 0 at its end.
    private static let sendBody: ccurl_data_callback = { buffer, size, count, context in
        guard let buffer, let transfer = transfer(context), transfer.bodySource >= 0 else { return 0 }
        while true {
            let bytes = read(transfer.bodySource, buffer, size * count)
            if bytes < 0, errno == EINTR { continue }
            // A read error ends the body early; libcurl then fails the transfer, as the length is known.
            return max(bytes, 0)
        }
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
            if transfer.responseFile == nil, name.caseInsensitiveCompare("Content-Length") == .orderedSame,
                let length = Int(value), length > 0
            {
                transfer.body.reserveCapacity(min(length, largestReservation))
            }
        }
        return size * count
    }

    /// The error of a failed transfer, as URLSession would report it where it has an equivalent, so that retries
    /// and messages do not depend on the transport; `systemError` is the `errno` of the system call that failed
    /// (0 when none did), `proxyStatus` the status a proxy answered the tunnel's `CONNECT` with (0 when none was
    /// asked): a proxy that refuses the tunnel is said so, not reported as a lost connection, and not retried.
    static func error(_ code: CURLcode, systemError: Int32, proxyStatus: Int = 0) -> CurlError {
        if proxyStatus >= 300 {
            return .failed(
                "the proxy refused the tunnel to the instance: it answered \(proxyStatus) to CONNECT "
                    + "(the proxy comes from HTTPS_PROXY or HTTP_PROXY; NO_PROXY names the hosts reached without one)")
        }
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
        return .network(urlCode, reason: systemError == 0 ? nil : String(cString: strerror(systemError)))
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}
