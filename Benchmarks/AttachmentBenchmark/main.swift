// Uploads a file to a running `nowflow serve` with NowAttachmentService.upload(fileURL:) and downloads it back
// with attachment(for:writingTo:) (hash validated), over CurlTransport, and prints the times and the peak memory
// of this process (issue 13). With `--sync`, the page cache's dirty pages are written out before the download (as
// Benchmarks/attachments.sh does before each of curl's transfers). Run it with Benchmarks/attachments.sh, which
// starts the server and runs curl.
import Foundation
import NowData

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
}

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: "--\(name)"), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
guard let urlText = option("url"), let url = URL(string: urlText), let file = option("file"),
    let record = option("record"), let output = option("out")
else {
    throw BenchmarkFailure(
        description: "usage: AttachmentBenchmark --url http://127.0.0.1:PORT --password PW --record SYS_ID --file PATH --out PATH")
}

let configuration = NowServiceConfiguration(
    instanceURL: url, authentication: .basic(user: "admin", password: option("password") ?? "admin"),
    transport: CurlTransport(instanceURL: url, timeout: .seconds(600)), retryPolicy: .none)
let service = NowAttachmentService(configuration: configuration)
let upload = NowAttachmentUploadConfiguration(
    tableName: "incident", recordSysId: record, fileName: URL(fileURLWithPath: file).lastPathComponent,
    contentType: "application/octet-stream", encryptionContext: nil)

func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// The peak resident set of this process so far, in MB (`VmHWM`).
func peakMegabytes() -> Double {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
}

var start = ContinuousClock.now
let metadata = try await service.upload(fileURL: URL(fileURLWithPath: file), configuration: upload) { _, _, _ in }
let uploadSeconds = seconds(since: start)
if arguments.contains("--sync") { sync() }
start = ContinuousClock.now
let downloaded = try await service.attachment(for: metadata.sysId, writingTo: URL(fileURLWithPath: output))
let downloadSeconds = seconds(since: start)
guard downloaded.hash == metadata.hash else { throw BenchmarkFailure(description: "the hashes differ") }
print(
    String(
        format: "attachment=%@ size=%d upload_seconds=%.3f download_seconds=%.3f peak_rss_mb=%.1f",
        metadata.sysId, metadata.sizeInBytes ?? 0, uploadSeconds, downloadSeconds, peakMegabytes()))
