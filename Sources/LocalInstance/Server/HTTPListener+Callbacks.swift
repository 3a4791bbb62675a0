internal import CGnuTLS
internal import CLazyLibraries
internal import CMicroHTTPD
import Foundation
#if canImport(Glibc)
    @preconcurrency import Glibc
#endif
import NowData

/// libmicrohttpd's callbacks. They are C function pointers, so they capture nothing: the listener's
/// ``ListenerContext`` arrives as `cls` and each request's ``PendingRequest`` lives in the `con_cls` slot.
extension HTTPListener {
    /// Called with a request's target as it arrived, before libmicrohttpd decodes it: allocates the request's state,
    /// which libmicrohttpd then keeps in the `con_cls` slot (and ``requestCompleted`` frees).
    static let requestLineArrived:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
            cls, target, _ in
            let memory = cls.map { Unmanaged<ListenerContext>.fromOpaque($0).takeUnretainedValue().connectionMemory }
            let pending = PendingRequest(
                target: target.map { String(cString: $0) } ?? "",
                connectionMemory: memory ?? HTTPListener.connectionMemory)
            if pending.queryRefusal != nil, let target, let question = strchr(target, Int32(UInt8(ascii: "?"))) {
                // libmicrohttpd parses the query into the connection's memory right after this callback, and
                // when it runs out of it (thousands of parameters, or a long query in a nearly full memory) it
                // closes the connection without an answer. It splits the query at the `?` it found before
                // calling: ending the text just after that `?` leaves it an empty query to parse, and the request
                // is answered with the refusal.
                UnsafeMutablePointer(mutating: question + 1).pointee = 0
            }
            return Unmanaged.passRetained(pending).toOpaque()
        }

    /// Called when a connection opens (starts its clock, kept in the connection's socket context) and when it closes
    /// (stops it).
    static let connectionNotified: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
        guard let cls, let connection, let socketContext else { return }
        let deadlines = Unmanaged<ListenerContext>.fromOpaque(cls).takeUnretainedValue().deadlines
        if code == .CONNECTION_NOTIFY_STARTED {
            guard let clock = deadlines.watch(socket: cmhd_connection_socket(connection)) else { return }
            socketContext.pointee = Unmanaged.passRetained(clock).toOpaque()
        } else if let state = socketContext.pointee {
            socketContext.pointee = nil
            let clock = Unmanaged<ConnectionClock>.fromOpaque(state)
            deadlines.forget(clock.takeUnretainedValue())
            clock.release()
        }
    }

    /// The peer address of `connection` (`127.0.0.1`, `::1`), if it has one.
    private static func clientAddress(of connection: OpaquePointer) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        guard cmhd_client_address(connection, &buffer, socklen_t(buffer.count)) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The clock of `connection`, if it has one.
    private static func clock(of connection: OpaquePointer) -> ConnectionClock? {
        cmhd_socket_context(connection).map { Unmanaged<ConnectionClock>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Called when a request's headers have arrived (admits it), once per body chunk (appends it) and once the body
    /// is complete (answers it).
    static let access: MHD_AccessHandlerCallback = { cls, connection, _, method, _, data, size, slot in
        guard let cls, let connection, let method, let size, let slot, let state = slot.pointee else { return .NO }
        let context = Unmanaged<ListenerContext>.fromOpaque(cls).takeUnretainedValue()
        let pending = Unmanaged<PendingRequest>.fromOpaque(state).takeUnretainedValue()
        let clock = clock(of: connection)
        guard pending.isAdmitted else {
            guard context.tracker.begin() else { return .NO }
            pending.isAdmitted = true
            clock?.awaitBody(grace: context.deadlines.headerTimeout)
            // Two different lengths leave the body's end in doubt (request smuggling): answered before any body.
            let lengths = Set(
                values(of: .HEADER_KIND, on: connection).filter { $0.0.lowercased() == "content-length" }.map {
                    ($0.1 ?? "").trimmingCharacters(in: .whitespaces)
                })
            if lengths.count > 1 { return queue(TableAPIError.conflictingContentLength.response, on: connection) }
            if let spooling = context.spooling {
                if let file = spooling.destination(String(cString: method), pending.path) {
                    // A body that cannot be spooled is held, as any other.
                    _ = pending.spool(to: file, limit: spooling.limit)
                } else {
                    let contentType = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Type")
                    pending.receiver = spooling.receiver(
                        String(cString: method), pending.path, contentType.map { String(cString: $0) } ?? "")
                }
            }
            return .YES
        }
        if size.pointee > 0 {
            clock?.received(size.pointee, atNanosecondsPerByte: context.deadlines.nanosecondsPerBodyByte)
            if let data {
                pending.append(UnsafeRawBufferPointer(start: data, count: size.pointee), limit: context.bodyLimit)
            }
            size.pointee = 0
            return .YES
        }
        // The request is complete: the handler and the answer have no deadline of the listener's.
        clock?.stop()
        if pending.tooLarge {
            if pending.spooled, let spooling = context.spooling { return queue(spooling.tooLarge, on: connection) }
            return queue(TableAPIError.bodyTooLarge(limit: context.bodyLimit).response, on: connection)
        }
        if let refusal = pending.queryRefusal { return queue(refusal.response, on: connection) }
        var request = NowHTTPRequest(
            method: String(cString: method), path: pending.path,
            queryItems: values(of: .GET_ARGUMENT_KIND, on: connection).map { URLQueryItem(name: $0.0, value: $0.1) },
            headers: HTTPHeaders(values(of: .HEADER_KIND, on: connection).map { ($0.0, $0.1 ?? "") }),
            body: pending.body.isEmpty ? nil : pending.body)
        // Only the listener says what a spooled body's digest is, and what a receiver took in.
        request.headers.removeAll(named: BodySpooling.digestHeader)
        request.headers.removeAll(named: BodySpooling.receivedBodyHeader)
        request.headers.removeAll(named: HTTPListener.clientCertificateHeader)
        request.headers.removeAll(named: HTTPListener.schemeHeader)
        request.headers[HTTPListener.schemeHeader] = context.tls == nil ? "http" : "https"
        if context.tls?.trust != nil, let fingerprint = verifiedClientCertificate(of: connection) {
            request.headers[HTTPListener.clientCertificateHeader] = fingerprint
        }
        if let receiver = pending.receiver, let refused = receiver.finish(&request) {
            pending.removeUntakenBody()
            return queue(refused, on: connection)
        }
        if let spooled = pending.finishSpool() {
            if spooled.failed { return queue(TableAPIError.internalFailure.response, on: connection) }
            request.bodyFile = spooled.file
            request.headers[BodySpooling.digestHeader] = spooled.digest
        }
        let reply = ClientAddress.$current.withValue(clientAddress(of: connection)) { context.handler(request) }
        // A spooled body (or received form) the handler did not take goes before the answer does (and with the
        // request, if it never gets this far).
        pending.removeUntakenBody()
        switch reply {
        case .respond(let response, let delay):
            context.tracker.pause(delay)
            return queue(response, on: connection)
        case .dropConnection(let delay):
            context.tracker.pause(delay)
            return .NO
        }
    }

    /// Called when a request is over, answered or not: frees its state, reports an admitted one to the tracker and
    /// starts the deadline of the connection's next request.
    static let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, slot, _ in
        guard let cls, let slot, let state = slot.pointee else { return }
        if let connection {
            let deadlines = Unmanaged<ListenerContext>.fromOpaque(cls).takeUnretainedValue().deadlines
            clock(of: connection)?.awaitHeaders(within: deadlines.headerTimeout)
        }
        let pending = Unmanaged<PendingRequest>.fromOpaque(state)
        slot.pointee = nil
        pending.takeUnretainedValue().removeUntakenBody()
        if pending.takeUnretainedValue().isAdmitted {
            Unmanaged<ListenerContext>.fromOpaque(cls).takeUnretainedValue().tracker.end()
        }
        pending.release()
    }

    /// The SHA-256 fingerprint (lowercase hex) of the certificate the client of a TLS connection presented, when
    /// the listener's client certificate authorities verify it; nil when it presented none or one they do not.
    private static func verifiedClientCertificate(of connection: OpaquePointer) -> String? {
        guard clazy_gnutls_problem() == nil, let session = cmhd_tls_session(connection).map(OpaquePointer.init)
        else { return nil }
        var status: UInt32 = 0
        var count: UInt32 = 0
        guard gnutls_certificate_verify_peers2(session, &status) == 0, status == 0,
            let peers = gnutls_certificate_get_peers(session, &count), count > 0, let data = peers.pointee.data
        else { return nil }
        var hasher = SHA256()
        hasher.update(UnsafeBufferPointer(start: data, count: Int(peers.pointee.size)))
        return hasher.finalizeHex()
    }

    /// The name-value pairs of one kind (headers, query arguments) in the order they arrived, percent-decoded.
    private static func values(of kind: MHD_ValueKind, on connection: OpaquePointer) -> [(String, String?)] {
        let collector = ValueCollector()
        let iterator: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
            guard let cls, let key else { return .YES }
            let collector = Unmanaged<ValueCollector>.fromOpaque(cls).takeUnretainedValue()
            let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
            let text = value.map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self)
            }
            collector.pairs.append((name, text))
            return .YES
        }
        withExtendedLifetime(collector) {
            _ = MHD_get_connection_values_n(
                connection, kind, iterator, Unmanaged.passUnretained(collector).toOpaque())
        }
        return collector.pairs
    }

    /// Sends `response` (status, headers and body in one buffer, or the body from its file, which libmicrohttpd
    /// reads as it sends); MHD computes the framing headers itself.
    private static func queue(_ response: NowHTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let created: OpaquePointer?
        if let file = response.bodyFile {
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            var status = stat()
            guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
                if descriptor >= 0 { close(descriptor) }
                return queue(TableAPIError.internalFailure.response, on: connection)
            }
            // libmicrohttpd closes the descriptor with the response.
            created = MHD_create_response_from_fd64(UInt64(status.st_size), descriptor)
            if created == nil { close(descriptor) }
        } else {
            created = response.body.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(
                    bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
            }
        }
        guard let created else { return .NO }
        defer { MHD_destroy_response(created) }
        for field in response.headers where !framingHeaders.contains(field.name.lowercased()) {
            _ = MHD_add_response_header(created, field.name, field.value)
        }
        return MHD_queue_response(connection, UInt32(clamping: response.statusCode), created)
    }

    private static let framingHeaders: Set<String> = ["content-length", "transfer-encoding"]
}

/// The pairs gathered by one `MHD_get_connection_values_n` call.
private final class ValueCollector {
    var pairs: [(String, String?)] = []
}
