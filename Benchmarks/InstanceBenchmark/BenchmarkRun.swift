import Foundation
import LocalInstance
import NowData

/// One benchmark run: seeds the incidents, starts the listener, times the HTTP requests and the SQLite statements,
/// and prints the comparison.
struct BenchmarkRun {
    let recordCount: Int
    let seconds: Int
    let connections: Int

    /// The run for `--records N --seconds S --connections C` (defaults 100,000, 5 and 8).
    init(arguments: [String]) throws {
        /// The positive whole number after `--name`, or `value` when the option is absent.
        func option(_ name: String, default value: Int) throws -> Int {
            guard let index = arguments.firstIndex(of: "--\(name)") else { return value }
            guard index + 1 < arguments.count, let given = Int(arguments[index + 1]), given > 0 else {
                throw BenchmarkFailure(description: "--\(name) expects a positive whole number")
            }
            return given
        }
        recordCount = try option("records", default: 100_000)
        seconds = try option("seconds", default: 5)
        connections = try option("connections", default: 8)
    }

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("instance-benchmark-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let databasePath = directory.appendingPathComponent("bench.db").path
        let password = "benchmark"
        let options = LocalInstance.Options(
            databasePath: databasePath, adminPassword: password, seedDemoData: false, log: { _ in })

        // The instance creates its tables; the records go straight into SQLite.
        try LocalInstance(options: options).close()
        let raw = try RawDatabase(path: databasePath)
        // The instance's connection settings that change how reads go: a memory-mapped file.
        try raw.execute("PRAGMA mmap_size=268435456")
        let seedStart = ContinuousClock.now
        let sysIDs = try IncidentSeeder.seed(recordCount, into: raw)
        print("seeded \(recordCount) incidents in \(ContinuousClock.now - seedStart)")

        let instance = try LocalInstance(options: options)
        defer { instance.close() }
        let listener = try HTTPListener { request in instance.reply(to: request) }
        defer { listener.stop() }
        let base = "http://127.0.0.1:\(listener.port)"
        let authorization = "Basic " + Data("admin:\(password)".utf8).base64EncodedString()
        let pagePath =
            "/api/now/table/incident?sysparm_query=active%3Dtrue%5Epriority%3C%3D2%5EORDERBYDESCsys_created_on"
            + "&sysparm_limit=100"
        let samples = (0..<1_000).map { _ in sysIDs.randomElement() ?? "" }
        let getPaths = samples.map { "/api/now/table/incident/\($0)" }

        /// The page request in process, with or without the count.
        func pageRequest(count: Bool) -> NowHTTPRequest {
            NowHTTPRequest(
                method: "GET", path: "/api/now/table/incident",
                queryItems: [
                    URLQueryItem(name: "sysparm_query", value: "active=true^priority<=2^ORDERBYDESCsys_created_on"),
                    URLQueryItem(name: "sysparm_limit", value: "100"),
                    URLQueryItem(name: "sysparm_no_count", value: count ? "false" : "true"),
                ],
                headers: ["Authorization": authorization])
        }
        /// Answers `request` in process; throws unless the answer is a 200.
        func answer(_ request: NowHTTPRequest) throws -> NowHTTPResponse {
            guard case .respond(let response, _) = instance.reply(to: request), response.statusCode == 200 else {
                throw BenchmarkFailure(description: "\(request.method) \(request.path) did not answer 200")
            }
            return response
        }

        // Check the answers before timing them.
        let page = try answer(pageRequest(count: true))
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

        // The statements the instance runs for these requests: the same condition with bound values, the same
        // order (ties broken by insertion order, as documented) and paging.
        let condition = #"WHERE "active" = ? AND "priority" <= ?"#
        let pageSelect = try raw.prepare(
            #"SELECT * FROM "incident" \#(condition) ORDER BY "sys_created_on" DESC, rowid LIMIT ? OFFSET ?"#)
        let pageCount = try raw.prepare(#"SELECT count(*) FROM "incident" \#(condition)"#)
        let getSelect = try raw.prepare(
            #"SELECT * FROM "incident" WHERE "sys_id" = ? ORDER BY rowid LIMIT ? OFFSET ?"#)
        let rawPageOnly = try rate {
            pageSelect.bind([1, 2, 100, 0])
            try pageSelect.readAll()
        }
        let rawPage = try rate {
            pageSelect.bind([1, 2, 100, 0])
            try pageSelect.readAll()
            pageCount.bind([1, 2])
            try pageCount.readAll()
        }
        let rawGet = try rate {
            getSelect.bind([samples.randomElement(), 1, 0])
            try getSelect.readAll()
        }
        for statement in [pageSelect, pageCount, getSelect] { statement.finalize() }

        let inProcessPage = try rate { _ = try answer(pageRequest(count: true)) }
        let inProcessPageNoCount = try rate { _ = try answer(pageRequest(count: false)) }
        let inProcessGet = try rate {
            _ = try answer(
                NowHTTPRequest(
                    method: "GET", path: "/api/now/table/incident/\(samples.randomElement() ?? "")",
                    headers: ["Authorization": authorization]))
        }

        let httpPage = try await HTTPLoad.measure(
            base: base, paths: [pagePath], authorization: authorization, connections: connections, seconds: seconds)
        let httpPageNoCount = try await HTTPLoad.measure(
            base: base, paths: [pagePath + "&sysparm_no_count=true"], authorization: authorization,
            connections: connections, seconds: seconds)
        let httpGet = try await HTTPLoad.measure(
            base: base, paths: getPaths, authorization: authorization, connections: connections, seconds: seconds)
        // The same gets while another client keeps a slow query running: a sort of every incident through two
        // dot-walks (the reads run on connections of their own, so the gets should barely notice it).
        let slowQuery = SlowQueryLoop(
            base: base,
            path: "/api/now/table/incident?sysparm_query=ORDERBYcaller_id.manager.name%5EORDERBYshort_description"
                + "&sysparm_limit=1&sysparm_no_count=true",
            authorization: authorization)
        slowQuery.start()
        let httpGetBesideSlow = try await HTTPLoad.measure(
            base: base, paths: getPaths, authorization: authorization, connections: connections, seconds: seconds)
        let slowQueries = slowQuery.stop()
        let besideRatio = String(format: "%.2f", httpGetBesideSlow.requestsPerSecond / httpGet.requestsPerSecond)

        func columns(_ cells: [String]) -> String {
            cells[0].padding(toLength: 36, withPad: " ", startingAt: 0)
                + cells.dropFirst().map { String(repeating: " ", count: max(0, 14 - $0.count)) + $0 }.joined()
        }
        func row(_ name: String, http: Double, inProcess: Double, sqlite: Double) -> String {
            columns(
                [name] + [http, inProcess, sqlite].map { String(format: "%.0f", $0) }
                    + [String(format: "%.2fx", sqlite / http)])
        }
        print(
            """

            \(recordCount) incidents. HTTP: \(httpPage.tool). In process: LocalInstance.reply(to:) on one thread.
            SQLite: the same statements on one connection, one thread (the Table API counts the matches for
            X-Total-Count unless sysparm_no_count=true, so the page row runs the page SELECT and the COUNT).
            \(columns(["query", "HTTP req/s", "in-process/s", "SQLite q/s", "SQLite/HTTP"]))
            \(row("page of 100", http: httpPage.requestsPerSecond, inProcess: inProcessPage, sqlite: rawPage))
            \(row("page of 100, sysparm_no_count=true", http: httpPageNoCount.requestsPerSecond,
                  inProcess: inProcessPageNoCount, sqlite: rawPageOnly))
            \(row("get by sys_id", http: httpGet.requestsPerSecond, inProcess: inProcessGet, sqlite: rawGet))
            \(row("get by sys_id, a slow query running", http: httpGetBesideSlow.requestsPerSecond,
                  inProcess: inProcessGet, sqlite: rawGet))
            (the slow query answered \(slowQueries) times during its row; get by sys_id beside it: \(besideRatio)x the quiet rate)
            """)
    }
}
