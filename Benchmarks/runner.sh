#!/bin/sh
# The job runner's benchmark (issue 5, item 10): `nowflow validate` on a 500-step job, cold, and the
# interpreter's overhead on a 1,000-step job against the same NowTableService calls made directly, in one run.
#
# Run from the package root:   Benchmarks/runner.sh [--rounds 5]
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product nowflow
swift build -c release --product RunnerBenchmark
bin="$(swift build -c release --show-bin-path)"
exec "$bin/RunnerBenchmark" "$bin/nowflow" "$@"
