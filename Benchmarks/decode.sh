#!/usr/bin/env bash
# Builds the decode benchmark in release mode and runs it: 100,000 incident-like rows (about 100 MB) decoded
# through a wrapper struct, at the path `result` with JSONDecoder, at the path `result` with Coder.default.decode
# (simdjson's fast path), and through JSONSerialization plus re-encoding; for information a plain JSONDecoder()
# and the simdjson parse into the tape alone. Cases can be picked: decode.sh 3000 1 coder tape (see main.swift).
# Usage: Benchmarks/decode.sh [rows] [runs]   (defaults: 100000 3)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product DecodeBenchmark
"$(swift build -c release --show-bin-path)/DecodeBenchmark" "$@"
