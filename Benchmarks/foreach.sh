#!/bin/sh
# The parallel foreach's benchmark (issue 15): 1,000 updates through a `foreach` against `nowflow serve
# --latency 50` (every answer 50 ms late, as a remote instance's), one after the other and with `parallel: 8` and
# `parallel: 16`, each against its limit in the same run: latency × 1,000 / N (what N requests always in flight
# would take); and, for reference, the same 1,000 updates made by a Python loop over pysnow (PyPI, in the
# virtualenv Benchmarks/paginate.sh makes).
#
# The time of each run is the foreach step's own duration, from the JSON report (the query that lists the
# records before it is not counted). Every run changes every record (urgency 1, 2, 3 in turn, then pysnow's
# work notes), so that each update is a real write.
#
# Run from the package root:   Benchmarks/foreach.sh [LATENCY_MS] [RECORDS]      (defaults 50 and 1000)
# Needs sqlite3 and python3 with venv; pip fetches pysnow once into Benchmarks/.venv.
set -eu
cd "$(dirname "$0")/.."
LATENCY="${1:-50}"
RECORDS="${2:-1000}"
PASSWORD=benchmark

swift build -c release --product nowflow
BIN="$(swift build -c release --show-bin-path)"

. Benchmarks/served-instance.sh
pysnow_venv

start_server --latency "$LATENCY"

seed_incidents_to "$RECORDS" fe 200001 "Foreach benchmark"
echo "seeded $RECORDS incidents at $URL, every answer $LATENCY ms late"

# One job per width; the records are read once (not timed), then updated by the foreach (timed).
job() {
    cat <<YAML
name: Foreach benchmark, parallel $1
auth:
  basic: { user: admin, password: $PASSWORD }
steps:
  - id: records
    query: { table: incident, query: "short_descriptionSTARTSWITHForeach benchmark", fields: [sys_id], page_size: 1000 }
  - id: update
    foreach: steps.records.records
    as: incident
    parallel: $1
    steps:
      - update: { table: incident, sys_id: "\${incident.sys_id}", fields: { urgency: $2 } }
  - assert: "steps.update.count == $RECORDS"
YAML
}
# The foreach's duration in seconds, from a JSON report.
foreach_seconds() {
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print([s for s in r["steps"] if s.get("id")=="update"][0]["duration_ms"]/1000)' "$1"
}
run_width() {
    job "$1" "$2" >"$WORK/job-$1.yaml"
    "$BIN/nowflow" run "$WORK/job-$1.yaml" --instance "$URL" --offline --report "json:$WORK/report-$1.json" \
        >"$WORK/run-$1.out" 2>"$WORK/run-$1.err" || { cat "$WORK/run-$1.out"; exit 1; }
    foreach_seconds "$WORK/report-$1.json"
}
sequential=$(run_width 1 1)
eight=$(run_width 8 2)
sixteen=$(run_width 16 3)

python_seconds="$(Benchmarks/.venv/bin/python - "$URL" "$PASSWORD" <<'PY'
import sys, time
import pysnow
url, password = sys.argv[1], sys.argv[2]
client = pysnow.Client(host=url.split("://", 1)[1], user="admin", password=password, use_ssl=False)
incidents = client.resource(api_path="/table/incident")
sys_ids = [r["sys_id"] for r in incidents.get(query="short_descriptionSTARTSWITHForeach benchmark", fields=["sys_id"], limit=10000).all()]
start = time.monotonic()
for sys_id in sys_ids:
    incidents.update(query={"sys_id": sys_id}, payload={"work_notes": "updated by pysnow"})
print(f"{time.monotonic() - start:.3f}")
PY
)"

awk -v n="$RECORDS" -v l="$LATENCY" -v s1="$sequential" -v s8="$eight" -v s16="$sixteen" -v p="$python_seconds" 'BEGIN {
    limit1 = l * n / 1000; limit8 = limit1 / 8; limit16 = limit1 / 16
    printf "%d updates, %d ms a request\n", n, l
    printf "sequential    %7.2f s  limit %6.2f s  limit/time %.2f  %6.1f updates/s\n", s1, limit1, limit1 / s1, n / s1
    printf "parallel: 8   %7.2f s  limit %6.2f s  limit/time %.2f  %6.1f updates/s  %.1fx sequential\n", s8, limit8, limit8 / s8, n / s8, s1 / s8
    printf "parallel: 16  %7.2f s  limit %6.2f s  limit/time %.2f  %6.1f updates/s  %.1fx sequential\n", s16, limit16, limit16 / s16, n / s16, s1 / s16
    printf "pysnow loop   %7.2f s  (its update reads the record, then writes it: two requests each)  %.1fx parallel: 8\n", p, p / s8
    printf "aim: at least 0.8 of the limit at parallel: 8\n"
}'
