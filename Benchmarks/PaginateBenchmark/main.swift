// Pages through the incidents of a running `nowflow serve` with NowTableService's paginator over HTTP, decoding
// every page into a Codable model, and prints the records per second and the peak memory (issue 4, item 9).
// Run it with Benchmarks/paginate.sh, which starts the server, seeds it and runs the references.
import Foundation
import NowData
import Synchronization

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
            + "[--page-size 1000] [--max-records N] [--raw] [--urlsession] [--trace]")
}
let password = option("password") ?? ProcessInfo.processInfo.environment["NOWFLOW_ADMIN_PASSWORD"] ?? "admin"
let pageSize = option("page-size").flatMap(Int.init) ?? 1000
let maxRecords = option("max-records").flatMap(Int.init)
let raw = arguments.contains("--raw")
// The default transport is libcurl's; --urlsession measures URLSessionTransport instead.
let urlSession = arguments.contains("--urlsession")

// --trace prints, for each page, when its request was sent, when its response was in and when the caller got it
// (milliseconds from the start), and the caller's wait: where the pipeline overlaps decoding with transfers.
let trace = arguments.contains("--trace")

let clock = ContinuousClock()
let start = clock.now
/// Milliseconds since `origin`.
@Sendable func milliseconds(since origin: ContinuousClock.Instant) -> Double {
    let (seconds, attoseconds) = (ContinuousClock.now - origin).components
    return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
}
/// Per offset: when its request was sent and when its response was in (ms).
let transfers = Mutex<[Int: (sent: Double, arrived: Double)]>([:])
/// The transport: URLSessionTransport with --urlsession, else nil for the service's default (libcurl), as users get
/// it; with --trace, the same wrapped to note each page's transfer.
let transport: (any NowTransport)?
if trace {
    let traced: any NowTransport =
        urlSession ? URLSessionTransport(instanceURL: url) : CurlTransport(instanceURL: url)
    transport = ClosureTransport { [start] request in
        let sent = milliseconds(since: start)
        let response = try await traced.send(request)
        let arrived = milliseconds(since: start)
        if let offset = request.queryValue("sysparm_offset").flatMap(Int.init) {
            transfers.withLock { $0[offset] = (sent, arrived) }
        }
        return response
    }
} else {
    transport = urlSession ? URLSessionTransport(instanceURL: url) : nil
}

let service = NowTableService(
    configuration: NowServiceConfiguration(
        instanceURL: url, authentication: .basic(user: "admin", password: password), transport: transport))
let configuration = FetchConfiguration(limit: pageSize)

/// Per page handed to the caller: when the caller asked for it and when it got it (ms).
var handed: [(asked: Double, got: Double)] = []
var asked = milliseconds(since: start)
var records = 0
var pages = 0
if raw {
    // The transport and paginator alone: pages are counted, not decoded.
    let paginator = service.paginator(from: "incident", configuration: configuration)
    paginator.maxRecords = maxRecords
    for try await page in paginator {
        if trace { handed.append((asked, milliseconds(since: start))) }
        records += min(pageSize, (maxRecords ?? Int.max) - records)
        pages += page.isEmpty ? 0 : 1
        if trace { asked = milliseconds(since: start) }
    }
} else {
    let paginator: Paginator<[BenchmarkIncident]> = service.paginator(from: "incident", configuration: configuration)
    paginator.maxRecords = maxRecords
    for try await page in paginator {
        if trace { handed.append((asked, milliseconds(since: start))) }
        records += page.count
        pages += 1
        if trace { asked = milliseconds(since: start) }
    }
}
let elapsed = clock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18

if trace {
    let times = transfers.withLock { $0 }
    for (index, page) in handed.enumerated() {
        let transfer = times[index * pageSize]
        print(
            String(
                format: "page %3d: request sent %9.1f ms, response in %9.1f ms, asked for %9.1f ms, got %9.1f ms "
                    + "(waited %6.1f ms)",
                index, transfer?.sent ?? -1, transfer?.arrived ?? -1, page.asked, page.got, page.got - page.asked))
    }
}

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
