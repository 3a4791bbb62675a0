// The local instance over HTTP against the same queries run directly in SQLite, in one run (issue 3, item 11).
// Run it with Benchmarks/instance.sh, which builds in release first.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

setvbuf(stdout, nil, _IOLBF, 0)
do {
    try await BenchmarkRun(arguments: Array(CommandLine.arguments.dropFirst())).run()
} catch {
    fputs("InstanceBenchmark: \(error)\n", stderr)
    exit(1)
}
