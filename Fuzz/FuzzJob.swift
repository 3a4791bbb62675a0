// libFuzzer entry for whole job files: YAML, then the job model and its checks. Any bytes must give a job or
// diagnostics, never a crash or a hang. Built by Fuzz/run.sh together with NowData and Sources/NowFlow/{YAML,
// Expressions,Job} compiled as one module.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJob(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    do {
        let job = try JobFile.parse(text, file: "fuzz.yaml")
        _ = job.stepCount
    } catch {
        _ = error.description
    }
    return 0
}
