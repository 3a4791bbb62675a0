#!/bin/sh
# The local instance's benchmark (issue 3, item 11): requests per second over HTTP for a 100-record page of
# active=true^priority<=2^ORDERBYDESCsys_created_on and for get-by-sys_id on 100,000 incidents, against the same
# queries run directly in SQLite in the same run, with the ratio; and get-by-sys_id again while one more client
# keeps a slow query running (issue 11), beside the quiet figure.
#
# Run from the package root:   Benchmarks/instance.sh [--records 100000] [--seconds 5] [--connections 8]
# It builds in release and uses wrk when installed (apt-get install -y wrk), else concurrent URLSession loops.
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product InstanceBenchmark
exec "$(swift build -c release --show-bin-path)/InstanceBenchmark" "$@"
