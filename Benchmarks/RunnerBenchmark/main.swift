// The job runner's benchmark (issue 5, item 10), in one run:
// 1. `nowflow validate` on a 500-step job, cold: the whole process, against `nowflow --help` (the process alone).
// 2. The interpreter's overhead: a 1,000-step job (250 create, update, get, delete cycles) on the in-process local
//    instance, against the same 1,000 calls made directly through NowTableService; the ratio is the overhead.
// 3. An update by query of 1,000 records through the runner (with its second opinion: the dictionary read, the
//    records read with the fields the query names and checked against it), against the same query and 1,000
//    updates by sys_id made directly through NowTableService.
// Run it with Benchmarks/runner.sh, which builds in release first.
//
// `--only CASE` runs one side alone, without timings, for instruction counts (`valgrind --tool=callgrind`): the
// cases are steps-direct, steps-runner, bulk-direct, bulk-runner and none (the setup alone: the instance and the
// 1,000 records of the update by query, which every case makes); a case's work is its process less `--only none`'s.
import Foundation
import LocalInstance
import NowData
import NowFlow

/// The whole benchmark. The main thread waits for it on a semaphore rather than in an async main (`dispatch_main`),
/// so that it runs under valgrind 3.19, whose `sigsuspend` writes into libdispatch's read-only signal mask and crashes.
func benchmark() async throws {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard let tool = arguments.first else {
        print("usage: RunnerBenchmark PATH-TO-nowflow [--rounds 5] [--only CASE]")
        exit(1)
    }
    let rounds = arguments.firstIndex(of: "--rounds").flatMap { Int(arguments[$0 + 1]) } ?? 5
    let only = arguments.firstIndex(of: "--only").map { $0 + 1 < arguments.count ? arguments[$0 + 1] : "" }
    let caseNames = ["steps-direct", "steps-runner", "bulk-direct", "bulk-runner", "none"]
    if let only, !caseNames.contains(only) {
        print("error: no case '\(only)'; the cases are \(caseNames.joined(separator: ", "))")
        exit(1)
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("runner-benchmark-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    /// The median of `rounds` timings of `body`.
    func median(_ body: () async throws -> Void) async rethrows -> Duration {
        var times: [Duration] = []
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            try await body()
            times.append(ContinuousClock.now - start)
        }
        return middle(times)
    }

    /// The median of `times` (zero for none: a side `--only` left out).
    func middle(_ times: [Duration]) -> Duration {
        times.isEmpty ? .zero : times.sorted()[times.count / 2]
    }

    /// The CPU time the process has used so far, on every thread: the runner's or the direct calls', and the in-process
    /// instance's. Other processes on the machine do not add to it, so it moves less with the load than the wall clock.
    func cpuTime() -> Duration {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }

    func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    // MARK: - 1. validate, cold

    var lines = ["name: Five hundred steps", "vars:", "  table: incident", "  summary: benchmark", "steps:"]
    for index in 0..<125 {
        lines += [
            "  - id: c\(index)",
            "    create: { table: \"${vars.table}\", fields: { short_description: \"${vars.summary} \(index)\", urgency: 2 } }",
            "  - id: g\(index)",
            "    get: { table: incident, sys_id: \"${steps.c\(index).sys_id}\", fields: [number, state] }",
            "  - when: \"steps.g\(index).record.state == 1 && len(steps.g\(index).record.number) > 3\"",
            "    update: { table: incident, sys_id: \"${steps.c\(index).sys_id}\", fields: { state: 2 } }",
            "  - assert: { that: \"steps.c\(index).sys_id != ''\", message: \"no sys_id for \(index)\" }",
        ]
    }
    let validatePath = directory.appendingPathComponent("validate-500.yaml").path
    try lines.joined(separator: "\n").write(toFile: validatePath, atomically: true, encoding: .utf8)

    func runTool(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            print("nowflow \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
            exit(1)
        }
    }
    let validate = only != nil ? .zero : try await median { try runTool(["validate", "--offline", validatePath]) }
    let help = only != nil ? .zero : try await median { try runTool(["--help"]) }

    // MARK: - 2. interpreter overhead

    let cycles = 250
    var job = ["name: A thousand steps", "steps:"]
    for index in 0..<cycles {
        job += [
            "  - id: c\(index)",
            "    create: { table: incident, fields: { short_description: \"cycle \(index)\", urgency: 2 } }",
            "  - update: { table: incident, sys_id: \"${steps.c\(index).sys_id}\", fields: { state: 2 } }",
            "  - get: { table: incident, sys_id: \"${steps.c\(index).sys_id}\" }",
            "  - delete: { table: incident, sys_id: \"${steps.c\(index).sys_id}\" }",
        ]
    }
    let thousand = try JobFile.parse(job.joined(separator: "\n"), file: "thousand.yaml")
    let instance = try LocalInstance(options: LocalInstance.Options(seedDemoData: false, log: { _ in }))
    defer { instance.close() }
    let url = URL(string: "http://127.0.0.1") ?? URL(fileURLWithPath: "/")
    let options = RunOptions(
        instanceURL: url, transport: instance.transport, authentication: .basic(user: "admin", password: "admin"),
        retryPolicy: .none)
    let service = NowTableService(
        configuration: NowServiceConfiguration(
            instanceURL: url, authentication: .basic(user: "admin", password: "admin"), transport: instance.transport,
            retryPolicy: .none))

    struct Created: Decodable {
        struct Record: Decodable { var sys_id: String }
        var result: Record
    }

    /// The 1,000 calls made directly through NowTableService.
    func directCalls() async throws {
        for index in 0..<cycles {
            let data = try await service.createRecord(
                with: ["short_description": .string("cycle \(index)"), "urgency": .int(2)], in: "incident")
            let sysID = try JSONDecoder().decode(Created.self, from: data).result.sys_id
            _ = try await service.updateRecord(sysId: sysID, in: "incident", with: ["state": .int(2)])
            _ = try await service.record(with: sysID, from: "incident")
            try await service.deleteRecord(sysId: sysID, from: "incident")
        }
    }

    // Rounds alternate between the two so that any drift of the instance (its database grows and shrinks) is shared.
    var directTimes: [Duration] = []
    var runnerTimes: [Duration] = []
    var directCPU: [Duration] = []
    var runnerCPU: [Duration] = []
    var failed = false
    for _ in 0..<rounds where only == nil || only?.hasPrefix("steps-") == true {
        var start = ContinuousClock.now
        var cpuStart = cpuTime()
        if only != "steps-runner" { try await directCalls() }
        directTimes.append(ContinuousClock.now - start)
        directCPU.append(cpuTime() - cpuStart)
        start = ContinuousClock.now
        cpuStart = cpuTime()
        if only != "steps-direct" {
            let result = await JobRunner(job: thousand, options: options).run()
            if result.status != .passed { failed = true }
        }
        runnerTimes.append(ContinuousClock.now - start)
        runnerCPU.append(cpuTime() - cpuStart)
    }
    let direct = middle(directTimes)
    let interpreted = middle(runnerTimes)
    if failed {
        print("the 1,000-step job did not pass")
        exit(1)
    }

    // MARK: - 3. an update by query of 1,000 records

    let bulk = 1000
    for index in 0..<bulk {
        _ = try await service.createRecord(
            with: ["short_description": .string("bulk update"), "urgency": .int(3), "description": .string("row \(index)")],
            in: "incident")
    }
    let bulkQuery = "short_description=bulk update^active=true"

    /// The query and the 1,000 updates by sys_id, made directly.
    func directBulk(urgency: Int) async throws {
        let configuration = FetchConfiguration(
            filter: Filter(query: bulkQuery), limit: bulk + 1,
            readConfiguration: FieldReadConfiguration(includeFields: ["sys_id"]))
        let page = try JSONValue(json: try await service.records(from: "incident", configuration: configuration))
        guard case .array(let records)? = page["result"], records.count == bulk else {
            print("the direct query did not find \(bulk) records")
            exit(1)
        }
        for record in records {
            guard let sysID = record["sys_id"]?.string else { continue }
            _ = try await service.updateRecord(sysId: sysID, in: "incident", with: ["urgency": .int(urgency)])
        }
    }

    func bulkJob(urgency: Int) throws -> Job {
        try JobFile.parse(
            """
            name: An update by query
            steps:
              - update: { table: incident, query: "\(bulkQuery)", max: \(bulk), fields: { urgency: \(urgency) } }
            """, file: "bulk.yaml")
    }

    var bulkDirectTimes: [Duration] = []
    var bulkRunnerTimes: [Duration] = []
    var bulkDirectCPU: [Duration] = []
    var bulkRunnerCPU: [Duration] = []
    // Each pass writes an urgency the records do not hold yet (1, 2, 3, 1, ...), so that every update is a real write.
    for round in 0..<rounds where only == nil || only?.hasPrefix("bulk-") == true {
        var start = ContinuousClock.now
        var cpuStart = cpuTime()
        if only != "bulk-runner" { try await directBulk(urgency: 1 + (2 * round) % 3) }
        bulkDirectTimes.append(ContinuousClock.now - start)
        bulkDirectCPU.append(cpuTime() - cpuStart)
        let job = try bulkJob(urgency: 1 + (2 * round + 1) % 3)
        start = ContinuousClock.now
        cpuStart = cpuTime()
        if only != "bulk-direct" {
            let result = await JobRunner(job: job, options: options).run()
            if result.status != .passed {
                print("the update by query did not pass: \(result.error ?? "")")
                exit(1)
            }
        }
        bulkRunnerTimes.append(ContinuousClock.now - start)
        bulkRunnerCPU.append(cpuTime() - cpuStart)
    }
    let bulkDirect = middle(bulkDirectTimes)
    let bulkRunner = middle(bulkRunnerTimes)

    func format(_ duration: Duration) -> String { String(format: "%9.1f ms", milliseconds(duration)) }
    /// `direct / runner` medians of CPU time, and their ratio.
    func cpuLine(_ direct: [Duration], _ runner: [Duration]) -> String {
        let (d, r) = (middle(direct), middle(runner))
        return "\(format(d).trimmingCharacters(in: .whitespaces)) / \(format(r).trimmingCharacters(in: .whitespaces)), "
            + String(format: "%.2fx", milliseconds(r) / milliseconds(d))
    }
    if let only {
        print("ran \(only), \(rounds) round\(rounds == 1 ? "" : "s")")
    } else {
        print(
            """
            medians of \(rounds) rounds
            nowflow validate, 500-step job (whole process)   \(format(validate))
            nowflow --help (process start, reference)        \(format(help))
            validate / --help                                \(String(format: "%9.2fx", milliseconds(validate) / milliseconds(help)))

            1,000 steps (250 create/update/get/delete cycles) on the in-process local instance
            NowTableService calls made directly             \(format(direct))
            the same calls through nowflow's runner          \(format(interpreted))
            runner / direct                                  \(String(format: "%9.2fx", milliseconds(interpreted) / milliseconds(direct)))   (aim: under 1.2x)
            CPU time, direct / runner                        \(cpuLine(directCPU, runnerCPU))

            an update by query of 1,000 incidents on the in-process local instance
            query + 1,000 updates by sys_id made directly    \(format(bulkDirect))
            the update step through the runner (checked)    \(format(bulkRunner))
            runner / direct                                  \(String(format: "%9.2fx", milliseconds(bulkRunner) / milliseconds(bulkDirect)))   (aim: within 1.1x)
            CPU time, direct / runner                        \(cpuLine(bulkDirectCPU, bulkRunnerCPU))
            """)
    }
}

let finished = DispatchSemaphore(value: 0)
Task.detached {
    do {
        try await benchmark()
    } catch {
        print("error: \(error)")
        exit(1)
    }
    finished.signal()
}
finished.wait()
