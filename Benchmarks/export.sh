#!/bin/bash
# The export benchmark (issue 26): a job that exports every record of a query to a file (`query` with `to:`,
# paged by key, streamed: one page held at a time) against `nowflow serve`, at each size given (100,000 and
# 1,000,000 incidents by default), against curl fetching the same pages (the same keyed URLs, one curl process
# reusing its connection, written to a file) in the same run; records a second for both, and the peak memory
# (max RSS, /usr/bin/time -v) of `nowflow run` at each size, which streaming keeps flat.
#
# Run from the package root:   Benchmarks/export.sh [RECORDS...]      (defaults 100000 1000000)
# Needs sqlite3, curl, python3 and /usr/bin/time. 1,000,000 records take a few minutes and about 1 GB of disk.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(100000 1000000)
PASSWORD=benchmark
PAGE=1000
FIELDS=number,short_description,state,priority,opened_at,sys_id

swift build -c release --product nowflow
BIN="$(swift build -c release --show-bin-path)"

. Benchmarks/served-instance.sh

start_server
QUERY="short_descriptionSTARTSWITHExport benchmark"
cat >"$WORK/export.yaml" <<YAML
name: Export benchmark
auth:
  basic: { user: admin, password: $PASSWORD }
steps:
  - id: export
    query: { table: incident, query: "$QUERY", fields: [$FIELDS], page_size: $PAGE, to: export.jsonl, overwrite: true }
  - assert: "steps.export.count == vars.expected"
vars:
  expected: 0
YAML

# curl's side: the same pages, by the same keys, in one process over one connection.
curl_config() {
    python3 - "$1" "$PAGE" "$QUERY" "$URL" "$FIELDS" "$WORK" <<'PY'
import sys, urllib.parse
records, page, query, url, fields, work = int(sys.argv[1]), int(sys.argv[2]), *sys.argv[3:]
for index in range((records + page - 1) // page):
    keyed = f"{query}^ORDERBYsys_id" if index == 0 else f"{query}^sys_id>ex{index * page - 1:030x}^ORDERBYsys_id"
    encoded = urllib.parse.quote(keyed, safe="")
    print(f'url = "{url}/api/now/table/incident?sysparm_query={encoded}&sysparm_limit={page}'
          f'&sysparm_fields={fields}&sysparm_no_count=true"')
    print(f'output = "{work}/curl-{index}.json"')
PY
}

printf '%-10s %-14s %-14s %-8s %-14s\n' records "nowflow rec/s" "curl rec/s" ratio "nowflow max RSS"
for size in "${SIZES[@]}"; do
    seed_incidents_to "$size" ex 1000001 "Export benchmark"
    curl_config "$size" >"$WORK/curl.conf"
    # Warm the database's pages into memory once for both sides.
    curl -s -u "admin:$PASSWORD" -K "$WORK/curl.conf" >/dev/null
    rm -f "$WORK"/curl-*.json
    start=$(date +%s.%N)
    curl -s -u "admin:$PASSWORD" -K "$WORK/curl.conf"
    end=$(date +%s.%N)
    curl_seconds=$(python3 -c "print($end - $start)")
    rm -f "$WORK"/curl-*.json
    start=$(date +%s.%N)
    /usr/bin/time -v "$BIN/nowflow" run "$WORK/export.yaml" --instance "$URL" --offline --var "expected=$size" \
        >"$WORK/run.out" 2>"$WORK/run.err" || { cat "$WORK/run.out" "$WORK/run.err"; exit 1; }
    end=$(date +%s.%N)
    nowflow_seconds=$(python3 -c "print($end - $start)")
    lines=$(wc -l <"$WORK/export.jsonl")
    [ "$lines" -eq "$size" ] || { echo "export.jsonl has $lines lines, not $size" >&2; exit 1; }
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$WORK/run.err")
    python3 - "$size" "$nowflow_seconds" "$curl_seconds" "$rss" <<'PY'
import sys
size, mine, curl, rss = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
print(f"{size:<10} {size / mine:<14,.0f} {size / curl:<14,.0f} {curl / mine:<8.2f} {rss / 1024:,.1f} MB")
PY
    rm -f "$WORK/export.jsonl"
done
