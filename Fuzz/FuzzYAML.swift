// libFuzzer entry for the YAML layer: any bytes must give nodes or a YAMLError, never a crash or a hang.
// Built by Fuzz/run.sh together with NowData and Sources/NowFlow/YAML.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAML(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    if let root = try? YAMLParser.parse(text) {
        _ = root.kindDescription
        _ = root.resolvedScalar
    }
    return 0
}
