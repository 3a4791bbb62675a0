internal import CCrypto

/// PEM text in and out of libcrypto, through memory BIOs.
enum PEMText {
    /// What `write` puts into a memory BIO, as text; nil when it fails.
    static func written(by write: (OpaquePointer) -> Int32) -> String? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        let count = bytes.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32($0.count)) }
        guard count == bytes.count else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// What `read` takes from a memory BIO holding `text`; nil when it fails.
    static func read<Value>(_ text: String, with read: (OpaquePointer) -> Value?) -> Value? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { buffer -> Value? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return read(bio)
        }
    }
}
