// Decodes 100,000 incident-like rows (about 100 MB, 20 string fields each, inside {"result": [...]}) four ways:
// through a hand-written wrapper struct with JSONDecoder (the reference), at the path `result` with NowData's
// `JSONDecoder.decode(_:from:at:)`, at the path `result` with `Coder.default.decode(_:from:at:)` (simdjson's fast
// path, which every NowTableService operation takes), and through JSONSerialization plus re-encoding of the
// subtree (the naive way); and, for information, with a plain JSONDecoder() and the simdjson parse into the tape
// alone (what `Coder.default.decode` spends before its typed decoding). Prints MB/s for each (best of the runs)
// and the ratios path/wrapper, Coder/wrapper and naive/wrapper. Run it with Benchmarks/decode.sh.
//
// Usage: DecodeBenchmark [ROWS] [RUNS] [CASE...], CASE one of wrapper, path, coder, naive, plain, tape (default:
// all). With some cases left out the ratios that need them are not printed; `valgrind --tool=callgrind` on
// `DecodeBenchmark 3000 1 coder` counts the instructions of one case alone (Benchmarks/README.md).
//
// Times are the CPU time of the decoding thread: decoding runs on one thread, and CPU time does not count the time
// other processes take the cores, so the ratios hold on a busy machine. Wall-clock times are printed too.
import Foundation
import NowData
import SimdJSON

#if canImport(Glibc)
import Glibc
#endif

struct Incident: Decodable, Equatable {
    var sysId, number, shortDescription, description, state, priority, impact, urgency, category, subcategory,
        assignmentGroup, assignedTo, callerId, openedAt, openedBy, sysUpdatedOn, sysUpdatedBy, sysCreatedOn,
        closeCode, closeNotes: String
}

/// The reference: a wrapper written for the envelope.
struct Wrapper: Decodable {
    var result: [Incident]
}

/// The same rows under their JSON names, for a decoder without a key strategy (information only).
struct SnakeCaseIncident: Decodable {
    var sys_id, number, short_description, description, state, priority, impact, urgency, category, subcategory,
        assignment_group, assigned_to, caller_id, opened_at, opened_by, sys_updated_on, sys_updated_by,
        sys_created_on, close_code, close_notes: String
}

struct SnakeCaseWrapper: Decodable {
    var result: [SnakeCaseIncident]
}

/// 100,000 rows of incident-like JSON: 32-hex sys_ids, dates, free text with escaped quotes, newlines and é.
func generateRows(_ count: Int) -> Data {
    var generator = SystemRandomNumberGenerator()
    func hex() -> String {
        String((0..<32).map { _ in "0123456789abcdef".randomElement(using: &generator) ?? "0" })
    }
    func date(_ row: Int) -> String {
        String(format: "2024-%02d-%02d %02d:%02d:%02d", row % 12 + 1, row % 28 + 1, row % 24, row % 60, (row * 7) % 60)
    }
    let words = ["printer", "réseau", "VPN", "\\\"urgent\\\"", "disk", "café", "login", "email", "server", "latency"]
    func text(_ row: Int, _ length: Int) -> String {
        var text = ""
        var index = row
        while text.utf8.count < length {
            text += words[index % words.count] + (index % 9 == 0 ? "\\n" : " ")
            index = (index * 31 + 7) % 1_000_003
        }
        return text
    }
    var json = #"{"result":["#
    json.reserveCapacity(count * 1_100)
    for row in 0..<count {
        if row > 0 { json += "," }
        json += #"{"sys_id":"\#(hex())","number":"INC\#(String(format: "%07d", row))","#
        json += #""short_description":"\#(text(row, 60))","description":"\#(text(row + 1, 200))","#
        json += #""state":"\#(row % 7 + 1)","priority":"\#(row % 5 + 1)","#
        json += #""impact":"\#(row % 3 + 1)","urgency":"\#(row % 3 + 1)","#
        json += #""category":"\#(["inquiry", "software", "hardware", "network"][row % 4])","#
        json += #""subcategory":"\#(text(row + 2, 12))","#
        json += #""assignment_group":"\#(hex())","assigned_to":"\#(hex())","caller_id":"\#(hex())","#
        json += #""opened_at":"\#(date(row))","opened_by":"\#(hex())","sys_updated_on":"\#(date(row + 1))","#
        json += #""sys_updated_by":"admin","sys_created_on":"\#(date(row + 2))","close_code":"Solved (Permanently)","#
        json += #""close_notes":"\#(text(row + 3, 190))"}"#
    }
    json += "]}"
    return Data(json.utf8)
}

/// Writes a line at once, unbuffered, so that progress shows through a pipe too.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The CPU time and the wall-clock time `body` takes, in seconds, with its result.
func measure<R>(_ body: () throws -> R) rethrows -> (cpu: Double, wall: Double, result: R) {
    func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
    let cpuStart = threadCPUTime()
    let wallStart = DispatchTime.now().uptimeNanoseconds
    let result = try body()
    return (threadCPUTime() - cpuStart, Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9, result)
}

let arguments = CommandLine.arguments.dropFirst()
let rowCount = arguments.first.flatMap { Int($0) } ?? 100_000
let runs = arguments.dropFirst().first.flatMap { Int($0) } ?? 3
let caseNames = ["wrapper", "path", "coder", "naive", "plain", "tape"]
let selected = Set(arguments.dropFirst(2))
if let unknown = selected.subtracting(caseNames).first {
    say("error: no case \(unknown); the cases are \(caseNames.joined(separator: ", "))")
    exit(2)
}
let data = generateRows(rowCount)
let megabytes = Double(data.count) / 1_000_000
let decoder = Coder.default.jsonDecoder
say(String(format: "input: %d rows, %.1f MB; decoder: Coder.default; best of %d runs", rowCount, megabytes, runs))

/// One way of decoding the rows: its short name (for the command line), its label, and the work, which returns the
/// rows decoded (or, for the information-only cases, nil after checking what it read).
struct Case {
    let id: String
    let label: String
    let run: () throws -> [Incident]?
}

let cases = [
    Case(id: "wrapper", label: "wrapper struct (reference)") { try decoder.decode(Wrapper.self, from: data).result },
    Case(id: "path", label: "path \"result\"") {
        try decoder.decode([Incident].self, from: data, at: Constants.resultPath)
    },
    Case(id: "coder", label: "Coder.default.decode at \"result\" (simdjson)") {
        try Coder.default.decode([Incident].self, from: data, at: Constants.resultPath)
    },
    Case(id: "naive", label: "JSONSerialization + re-encoding (naive)") {
        let object = try JSONSerialization.jsonObject(with: data)
        guard let result = (object as? [String: Any])?["result"] else { throw NowDataError.cannotParseResponse }
        return try decoder.decode([Incident].self, from: JSONSerialization.data(withJSONObject: result))
    },
    Case(id: "plain", label: "wrapper, JSONDecoder() without key strategy (info)") {
        let count = try JSONDecoder().decode(SnakeCaseWrapper.self, from: data).result.count
        guard count == rowCount else { throw NowDataError.cannotParseResponse }
        return nil
    },
    Case(id: "tape", label: "simdjson parse into the tape alone (info)") {
        // The root object, its key and the array, then per row the object and 20 keys and values.
        guard let tape = JSONTape(data), tape.count == 3 + rowCount * 41 else { throw NowDataError.cannotParseResponse }
        return nil
    },
].filter { selected.isEmpty || selected.contains($0.id) }

var best = Array(repeating: (cpu: Double.infinity, wall: Double.infinity), count: cases.count)
var reference: [Incident]?
for _ in 0..<runs {
    for (index, benchmark) in cases.enumerated() {
        let (cpu, wall, rows) = try measure(benchmark.run)
        best[index] = (min(best[index].cpu, cpu), min(best[index].wall, wall))
        guard let rows else { continue }
        guard rows.count == rowCount, reference.map({ $0 == rows }) ?? true else {
            say("error: \(benchmark.label) decoded different rows")
            exit(1)
        }
        if reference == nil { reference = rows }
    }
}
say("case                                                CPU time      MB/s   wall-clock      MB/s")
for (benchmark, time) in zip(cases, best) {
    let label = benchmark.label.padding(toLength: 50, withPad: " ", startingAt: 0)
    say(label + String(format: " %8.3f s %9.1f %10.3f s %9.1f", time.cpu, megabytes / time.cpu, time.wall, megabytes / time.wall))
}
/// The best times of the cases that ran, by id.
let times = Dictionary(uniqueKeysWithValues: zip(cases.map(\.id), best))
if let wrapper = times["wrapper"] {
    if let path = times["path"] {
        say(String(format: "ratio path/wrapper: %.3f (CPU time; wall-clock %.3f; 1.0 = as fast as the wrapper)",
            wrapper.cpu / path.cpu, wrapper.wall / path.wall))
    }
    if let coder = times["coder"] {
        say(String(format: "ratio Coder/wrapper: %.3f (CPU time; wall-clock %.3f; above 1.0 = faster than the wrapper)",
            wrapper.cpu / coder.cpu, wrapper.wall / coder.wall))
    }
    if let naive = times["naive"] {
        say(String(format: "ratio naive/wrapper: %.3f (CPU time; wall-clock %.3f)", wrapper.cpu / naive.cpu, wrapper.wall / naive.wall))
    }
}
if let tape = times["tape"], let coder = times["coder"] {
    say(String(format: "tape parse alone: %.0f%% of Coder.default.decode's CPU time (the rest is the typed decoding)",
        100 * tape.cpu / coder.cpu))
}
