#!/bin/sh
# NowTableService's paginator against references (issue 4, item 9): 100,000 incidents paged from `nowflow serve`
# over loopback, 1,000 a page, three ways in the same run:
#   - curl, fetching the same pages raw (the limit of the server and the network path);
#   - PaginateBenchmark: NowTableService's Paginator<[Model]> over its default transport (libcurl), decoding every
#     page with Coder.default, once more with Paginator<Data> (raw pages: the transport and paginator without
#     decoding), and once more decoded over URLSessionTransport (for information);
#   - pysnow (PyPI), the same pages as its users fetch them by default (buffered: each page's JSON parsed at once
#     into dictionaries of strings), and with stream=True (its ijson parser), in a virtualenv this script makes.
# It prints records per second for each, the ratios, and PaginateBenchmark's peak memory for 10,000 and 100,000
# records (it should stay flat: the caller's page and at most two fetched ahead are held).
#
# Run from the package root:   Benchmarks/paginate.sh [RECORDS]        (default 100000)
# Needs curl, sqlite3 and python3 with venv; pip fetches pysnow once into Benchmarks/.venv.
set -eu
cd "$(dirname "$0")/.."
RECORDS="${1:-100000}"
PAGE=1000
PASSWORD=benchmark

swift build -c release --product nowflow
swift build -c release --product PaginateBenchmark
BIN="$(swift build -c release --show-bin-path)"

. Benchmarks/served-instance.sh
pysnow_venv

start_server

# The instance made its tables (and demo data); replace the incidents with RECORDS generated ones.
sqlite3 "$WORK/bench.db" >/dev/null <<SQL
PRAGMA busy_timeout = 10000;
BEGIN;
DELETE FROM "incident";
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $RECORDS)
INSERT INTO "incident" ("sys_id", "number", "short_description", "description", "state", "active", "impact",
    "urgency", "priority", "category", "opened_at", "sys_created_on", "sys_updated_on", "sys_created_by",
    "sys_updated_by", "sys_mod_count", "sys_class_name")
SELECT printf('be%030x', i), printf('INC%07d', 100001 + i), 'Benchmark incident ' || i,
    'Generated for the paginate benchmark', i % 3 + 1, 1, i % 3 + 1, (i / 3) % 3 + 1, i % 5 + 1, 'software',
    datetime(1767225600 + i * 60, 'unixepoch'), datetime(1767225600 + i * 60, 'unixepoch'),
    datetime(1767225600 + i * 60, 'unixepoch'), 'admin', 'admin', 0, 'incident'
FROM n;
COMMIT;
SQL
echo "seeded $RECORDS incidents at $URL"

now() { date +%s.%N; }
# The server's CPU time so far (user + system), in seconds.
server_cpu() { awk -v tick="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / tick }' "/proc/$SERVER/stat"; }
LAST=$(( (RECORDS - 1) / PAGE * PAGE ))

fetch_with_curl() {
    curl -s -f -u "admin:$PASSWORD" -H "Accept: application/json" -o /dev/null \
        "$URL/api/now/table/incident?sysparm_limit=$PAGE&sysparm_offset=[0-$LAST:$PAGE]"
}
# One untimed pass first, so that curl, timed first, does not pay alone for the server's cold caches.
fetch_with_curl
start=$(now)
server_start=$(server_cpu)
fetch_with_curl
curl_seconds=$(echo "$(now) - $start" | bc -l)
curl_server_cpu=$(echo "$(server_cpu) - $server_start" | bc -l)

server_start=$(server_cpu)
swift_line="$("$BIN/PaginateBenchmark" --url "$URL" --password "$PASSWORD" --page-size "$PAGE")"
swift_server_cpu=$(echo "$(server_cpu) - $server_start" | bc -l)
swift_cpu=$(echo "$swift_line" | sed -n 's/.*cpu_seconds=\([0-9.]*\).*/\1/p')
swift_seconds=$(echo "$swift_line" | sed -n 's/.* seconds=\([0-9.]*\).*/\1/p')
swift_peak=$(echo "$swift_line" | sed -n 's/.*peak_rss_mb=\([0-9.]*\).*/\1/p')
raw_line="$("$BIN/PaginateBenchmark" --url "$URL" --password "$PASSWORD" --page-size "$PAGE" --raw)"
raw_seconds=$(echo "$raw_line" | sed -n 's/.* seconds=\([0-9.]*\).*/\1/p')
urlsession_line="$("$BIN/PaginateBenchmark" --url "$URL" --password "$PASSWORD" --page-size "$PAGE" --urlsession)"
urlsession_seconds=$(echo "$urlsession_line" | sed -n 's/.* seconds=\([0-9.]*\).*/\1/p')
small_line="$("$BIN/PaginateBenchmark" --url "$URL" --password "$PASSWORD" --page-size "$PAGE" --max-records 10000)"
small_peak=$(echo "$small_line" | sed -n 's/.*peak_rss_mb=\([0-9.]*\).*/\1/p')

# pysnow as its users call it: `.all()` on a buffered response (requests' JSON parser, one page in memory, as
# ours), and once more with `stream=True` (its incremental ijson parser: less memory, much slower) for information.
run_pysnow() {
    Benchmarks/.venv/bin/python - "$URL" "$PASSWORD" "$RECORDS" "$PAGE" "$1" <<'PY'
import sys, time
import pysnow
url, password, records, page = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
stream = sys.argv[5] == "stream"
client = pysnow.Client(host=url.split("://", 1)[1], user="admin", password=password, use_ssl=False)
incidents = client.resource(api_path="/table/incident")
start = time.monotonic()
count = 0
for offset in range(0, records, page):
    for record in incidents.get(query={}, limit=page, offset=offset, stream=stream).all():
        count += 1
assert count == records, f"pysnow read {count} records"
print(f"{time.monotonic() - start:.3f}")
PY
}
python_seconds="$(run_pysnow buffered)"
python_stream_seconds="$(run_pysnow stream)"

echo "$swift_line"
awk -v n="$RECORDS" -v c="$curl_seconds" -v s="$swift_seconds" -v p="$python_seconds" -v r="$raw_seconds" \
    -v ps="$python_stream_seconds" -v cs="$curl_server_cpu" -v ss="$swift_server_cpu" -v sc="$swift_cpu" \
    -v small="$small_peak" -v large="$swift_peak" -v u="$urlsession_seconds" 'BEGIN {
    printf "curl            %8.0f records/s  (%.3f s)\n", n / c, c
    printf "NowTableService %8.0f records/s  (%.3f s)\n", n / s, s
    printf "  raw pages     %8.0f records/s  (%.3f s, Paginator<Data>: no decoding)\n", n / r, r
    printf "  URLSession    %8.0f records/s  (%.3f s, decoded, over URLSessionTransport)\n", n / u, u
    printf "pysnow          %8.0f records/s  (%.3f s, buffered: its default)\n", n / p, p
    printf "  stream=True   %8.0f records/s  (%.3f s, its ijson streaming parser)\n", n / ps, ps
    printf "NowTableService time / curl time:   %.2fx (aim: at most 1.5x); raw pages / curl: %.2fx\n", s / c, r / c
    printf "pysnow time / NowTableService time: %.2fx (aim: at least 5x); pysnow stream=True: %.2fx\n", p / s, ps / s
    printf "peak memory: %.1f MB for 10,000 records, %.1f MB for %d records\n", small, large, n
    printf "CPU time: server %.2f s under curl; NowTableService %.2f s and server %.2f s under it\n", cs, sc, ss
    printf "  (client and server share the cores: on a machine with two free cores the decoded run takes about\n"
    printf "  the larger of the two; on a loaded one, closer to their sum)\n"
}'
