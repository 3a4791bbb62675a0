// The local instance over HTTP against the same queries run directly in SQLite, in one run (issue 3, item 11).
// Run it with Benchmarks/instance.sh, which builds in release first.
import Foundation
import LocalInstance
import NowData

let arguments = CommandLine.arguments.dropFirst()
func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: "--\(name)"), let given = Int(arguments[arguments.index(after: index)])
    else { return value }
    return given
}
let recordCount = option("records", default: 100_000)
let seconds = option("seconds", default: 5)
let connections = option("connections", default: 8)

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("instance-benchmark-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let databasePath = directory.appendingPathComponent("bench.db").path
let password = "benchmark"
let options = LocalInstance.Options(
    databasePath: databasePath, adminPassword: password, seedDemoData: false, log: { _ in })

// The instance creates its tables; the records go straight into SQLite.
try LocalInstance(options: options).close()
let raw = try RawDatabase(path: databasePath)
let seedStart = ContinuousClock.now
let sysIDs = try IncidentSeeder.seed(recordCount, into: raw)
print("seeded \(recordCount) incidents in \(ContinuousClock.now - seedStart)")

let instance = try LocalInstance(options: options)
let listener = try HTTPListener { request in instance.reply(to: request) }
let base = "http://127.0.0.1:\(listener.port)"
let authorization = "Basic " + Data("admin:\(password)".utf8).base64EncodedString()
let pagePath = "/api/now/table/incident?sysparm_query=active%3Dtrue%5Epriority%3C%3D2%5EORDERBYDESCsys_created_on"
    + "&sysparm_limit=100"
let samples = (0..<1_000).map { _ in sysIDs.randomElement() ?? "" }
let getPaths = samples.map { "/api/now/table/incident/\($0)" }

// Check the answers before timing them.
let check = instance.reply(
    to: NowHTTPRequest(
        method: "GET", path: "/api/now/table/incident",
        queryItems: [
            URLQueryItem(name: "sysparm_query", value: "active=true^priority<=2^ORDERBYDESCsys_created_on"),
            URLQueryItem(name: "sysparm_limit", value: "100"),
        ],
        headers: ["Authorization": authorization]))
guard case .respond(let page, _) = check, page.statusCode == 200 else {
    throw BenchmarkFailure(description: "the page query did not answer 200: \(check)")
}
print("page answer: \(page.body.count) bytes, X-Total-Count \(page.headers["X-Total-Count"] ?? "none")")

/// Runs `body` repeatedly for `seconds` on this thread; returns the calls per second.
func rate(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let end = clock.now + .seconds(seconds)
    var calls = 0
    while clock.now < end {
        try body()
        calls += 1
    }
    return Double(calls) / Double(seconds)
}

let condition = #"WHERE "active" = 1 AND "priority" <= 2"#
let pageSelect = try raw.prepare(#"SELECT * FROM "incident" \#(condition) ORDER BY "sys_created_on" DESC LIMIT 100"#)
let pageCount = try raw.prepare(#"SELECT COUNT(*) FROM "incident" \#(condition)"#)
let getSelect = try raw.prepare(#"SELECT * FROM "incident" WHERE "sys_id" = ?"#)
let rawPageOnly = try rate { try pageSelect.readAll() }
let rawPage = try rate {
    try pageSelect.readAll()
    try pageCount.readAll()
}
let rawGet = try rate {
    getSelect.bind([samples.randomElement()])
    try getSelect.readAll()
}
for statement in [pageSelect, pageCount, getSelect] { statement.finalize() }

let httpPage = try await HTTPLoad.measure(
    base: base, paths: [pagePath], authorization: authorization, connections: connections, seconds: seconds)
let httpGet = try await HTTPLoad.measure(
    base: base, paths: getPaths, authorization: authorization, connections: connections, seconds: seconds)
listener.stop()
instance.close()
try? FileManager.default.removeItem(at: directory)

func format(_ value: Double) -> String { String(format: "%10.0f", value) }
print("""

    \(recordCount) incidents; HTTP measured with \(httpPage.tool); SQLite on one connection, one thread
    query                                   HTTP req/s   SQLite q/s   SQLite/HTTP
    page of 100 (select + count)            \(format(httpPage.requestsPerSecond))   \(format(rawPage))   \
    \(String(format: "%6.2fx", rawPage / httpPage.requestsPerSecond))
    page of 100 (select only in SQLite)     \(format(httpPage.requestsPerSecond))   \(format(rawPageOnly))   \
    \(String(format: "%6.2fx", rawPageOnly / httpPage.requestsPerSecond))
    get by sys_id                           \(format(httpGet.requestsPerSecond))   \(format(rawGet))   \
    \(String(format: "%6.2fx", rawGet / httpGet.requestsPerSecond))
    """)
