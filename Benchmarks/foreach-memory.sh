#!/bin/bash
# The streamed foreach's memory (issue 26): a job that updates every record of a query through a `foreach` over
# it (the query paged by key and streamed to the foreach a page at a time; `parallel: 8`) against `nowflow serve`,
# at each size given (100,000 and 1,000,000 incidents by default), printing the peak memory (max RSS,
# /usr/bin/time -v) of `nowflow run` at each and their ratio to the first size's: flat is within 10%. The foreach's
# results are used by nothing, so it lists its first 1,000 items and counts the others (docs/scale.md).
#
# With KEPT=1 the same job also runs with an output that uses `len(steps.update.results)`, so that the foreach
# keeps every item's results, steps and records written: the control, whose memory grows with the count.
#
# Run from the package root:   [KEPT=1] Benchmarks/foreach-memory.sh [RECORDS...]      (defaults 100000 1000000)
# Needs sqlite3, python3 and /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(100000 1000000)
PASSWORD=benchmark

swift build -c release --product nowflow
BIN="$(swift build -c release --show-bin-path)"

. Benchmarks/served-instance.sh

# The job: $1 is the urgency written (each run writes another, so that every update is a real write), $2 extra
# lines (the control's output).
job() {
    cat <<YAML
name: Foreach memory
auth:
  basic: { user: admin, password: $PASSWORD }
steps:
  - id: records
    query: { table: incident, query: "short_descriptionSTARTSWITHForeach memory", fields: [sys_id], page_size: 1000 }
  - id: update
    foreach: steps.records.records
    as: incident
    parallel: 8
    steps:
      - update: { table: incident, sys_id: "\${incident.sys_id}", fields: { urgency: $1 } }
  - assert: "steps.update.count == vars.expected"
vars:
  expected: 0
$2
YAML
}

start_server
run=0
# Runs the job at the current size; prints its max RSS in kB.
measure() {
    run=$((run + 1))
    job $((run % 3 + 1)) "$2" >"$WORK/job.yaml"
    /usr/bin/time -v "$BIN/nowflow" run "$WORK/job.yaml" --instance "$URL" --offline --var "expected=$1" \
        --report "json:$WORK/report.json" >"$WORK/run.out" 2>"$WORK/run.err" \
        || { tail -n 5 "$WORK/run.out" "$WORK/run.err" >&2; exit 1; }
    sed -n 's/.*Maximum resident set size (kbytes): //p' "$WORK/run.err"
}
# The report's job entry: how many items the foreach listed and counted.
listed() {
    python3 - "$WORK/report.json" <<'PY'
import json, sys
job = json.load(open(sys.argv[1]))["jobs"][0]
steps = sum(1 for step in job["steps"] if step["number"].startswith("2["))
print(f"{steps} steps and {len(job['records'])} records listed, {job.get('unlisted', {}).get('items', 0)} items counted")
PY
}

printf '%-10s %-10s %-14s %-8s %s\n' records mode "max RSS" ratio report
first=""
first_kept=""
for size in "${SIZES[@]}"; do
    seed_incidents_to "$size" fm 3000001 "Foreach memory"
    rss=$(measure "$size" "")
    first=${first:-$rss}
    python3 -c "import sys; s, r, f = map(int, sys.argv[1:4]); print(f'{s:<10} {\"counted\":<10} {r / 1024:<11,.1f} MB {r / f:<8.2f}', end=' ')" \
        "$size" "$rss" "$first"
    listed
    if [ "${KEPT:-0}" = 1 ]; then
        rss=$(measure "$size" $'outputs:\n  kept: len(steps.update.results)')
        first_kept=${first_kept:-$rss}
        python3 -c "import sys; s, r, f = map(int, sys.argv[1:4]); print(f'{s:<10} {\"kept\":<10} {r / 1024:<11,.1f} MB {r / f:<8.2f}', end=' ')" \
            "$size" "$rss" "$first_kept"
        listed
    fi
done
echo "ratio: max RSS against the first size's, in the same mode (flat: within 1.10)"
