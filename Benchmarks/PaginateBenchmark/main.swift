// Pages through the incidents of a running `nowflow serve` with NowTableService's paginator over HTTP, decoding
// every page into a Codable model, and prints the records per second and the peak memory (issue 4, item 9).
// Run it with Benchmarks/paginate.sh, which starts the server, seeds it and runs the references.
import Foundation
import NowData

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// An incident as a user of the SDK writes it: typed values through `@NowValue` (the Table API sends every value as
/// a string), dates as `Date`, optional fields that may be empty.
struct BenchmarkIncident: SysIdentifiableModel {
    var sysId: String
    var number: String
    var shortDescription: String
    var description: String?
    @NowValue var state: Int
    @NowValue var active: Bool
    @NowValue var impact: Int
    @NowValue var urgency: Int
    @NowValue var priority: Int
    var category: String?
    @NowValue var openedAt: Date?
    @NowValue var sysCreatedOn: Date
    @NowValue var sysUpdatedOn: Date
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
}

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: "--\(name)"), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
guard let urlText = option("url"), let url = URL(string: urlText) else {
    throw BenchmarkFailure(
        description: "usage: PaginateBenchmark --url http://127.0.0.1:PORT [--password PW] "
            + "[--page-size 1000] [--max-records N] [--raw] [--urlsession]")
}
let password = option("password") ?? ProcessInfo.processInfo.environment["NOWFLOW_ADMIN_PASSWORD"] ?? "admin"
let pageSize = option("page-size").flatMap(Int.init) ?? 1000
let maxRecords = option("max-records").flatMap(Int.init)
let raw = arguments.contains("--raw")
// The default transport is libcurl's; --urlsession measures URLSessionTransport instead.
let urlSession = arguments.contains("--urlsession")

let service = NowTableService(
    configuration: NowServiceConfiguration(
        instanceURL: url, authentication: .basic(user: "admin", password: password),
        transport: urlSession ? URLSessionTransport(instanceURL: url) : nil))
let configuration = FetchConfiguration(limit: pageSize)

let clock = ContinuousClock()
let start = clock.now
var records = 0
var pages = 0
if raw {
    // The transport and paginator alone: pages are counted, not decoded.
    let paginator = service.paginator(from: "incident", configuration: configuration)
    paginator.maxRecords = maxRecords
    for try await page in paginator {
        records += min(pageSize, (maxRecords ?? Int.max) - records)
        pages += page.isEmpty ? 0 : 1
    }
} else {
    let paginator: Paginator<[BenchmarkIncident]> = service.paginator(from: "incident", configuration: configuration)
    paginator.maxRecords = maxRecords
    for try await page in paginator {
        records += page.count
        pages += 1
    }
}
let elapsed = clock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18

var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
let peakMegabytes = Double(usage.ru_maxrss) / 1024
let cpuSeconds = [usage.ru_utime, usage.ru_stime].reduce(0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6 }
print(
    String(
        format: "\(raw ? "swift-raw" : "swift")\(urlSession ? "-urlsession" : "") records=%d pages=%d seconds=%.3f records_per_second=%.0f "
            + "peak_rss_mb=%.1f cpu_seconds=%.3f",
        records, pages,
        seconds, Double(records) / seconds, peakMegabytes, cpuSeconds))
