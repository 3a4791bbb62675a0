import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file a response body is written to in whole blocks: every `write(2)` but the last starts and ends on a block
/// boundary, as the C library's `fwrite` does (what the `curl` command writes with). The chunks libcurl hands over
/// come in whatever sizes the socket gave; written as they come, each one would start and end inside a page, which
/// the kernel must zero first (about a tenth of a download's time, measured on ext4). Only the bytes up to the next
/// boundary, and the tail after the last one, are copied to a buffer; the whole blocks between are written from
/// libcurl's own buffer.
final class CurlFileSink {
    /// Why a write failed, as `strerror` words it.
    struct Failure: Error {
        let reason: String
    }

    /// The block: the page size, and ext4's block.
    static let blockSize = 4096

    private var descriptor: Int32
    private let buffer: UnsafeMutableRawBufferPointer
    private var buffered = 0

    /// An empty file at `url` (replacing one there), open for writing.
    init(creating url: URL) throws(Failure) {
        descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(reason: String(cString: strerror(errno))) }
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.blockSize, alignment: Self.blockSize)
    }

    deinit {
        if descriptor >= 0 { closeDescriptor(descriptor) }
        buffer.deallocate()
    }

    /// Appends `bytes`: the whole blocks written at once, the rest buffered.
    func write(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        guard let base = bytes.baseAddress, let storage = buffer.baseAddress else { return }
        var offset = 0
        if buffered > 0 {
            let taken = min(Self.blockSize - buffered, bytes.count)
            memcpy(storage + buffered, base, taken)
            buffered += taken
            offset = taken
            guard buffered == Self.blockSize else { return }
            try writeAll(UnsafeRawBufferPointer(buffer))
            buffered = 0
        }
        let remaining = bytes.count - offset
        let whole = remaining - remaining % Self.blockSize
        if whole > 0 {
            try writeAll(UnsafeRawBufferPointer(start: base + offset, count: whole))
            offset += whole
        }
        if offset < bytes.count {
            memcpy(storage, base + offset, bytes.count - offset)
            buffered = bytes.count - offset
        }
    }

    /// Writes what is buffered and closes the file.
    func close() throws(Failure) {
        guard descriptor >= 0 else { return }
        defer {
            closeDescriptor(descriptor)
            descriptor = -1
        }
        try writeAll(UnsafeRawBufferPointer(rebasing: buffer.prefix(buffered)))
        buffered = 0
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let written = writeDescriptor(descriptor, base + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw Failure(reason: String(cString: strerror(errno))) }
            offset += written
        }
    }
}

/// `close(2)` and `write(2)`, out of reach of the sink's own `close()` and `write(_:)`.
private func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}

private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
