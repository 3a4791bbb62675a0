#!/bin/bash
# The drift test of issue 26 at scale (the suite's DriftTests runs it at 2,000 records): a job updates RECORDS
# locations through `nowflow run` against `nowflow serve`, paging by key, while another client inserts records and
# deletes some of them and some of the seeded ones in the same range; then the same job paging by offset, as the
# control, on a fresh range. Prints, for each, how many records that existed throughout were updated exactly once,
# not at all, or more than once (read from each record's sys_mod_count), and how many records the other client
# inserted and deleted. Keyed paging must show no drift; offset paging shows the drift it suffers.
#
# RUNNERS lists the runners that share the range, each the extra arguments of one `nowflow run`: four shards,
# "--shard 1/4" ... "--shard 4/4", run at once.
#
# Run from the package root:   Benchmarks/drift.sh [RECORDS] [PARALLEL]      (defaults 100000 and 8)
# Needs sqlite3, curl and python3. 100,000 records take some minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
RECORDS="${1:-100000}"
PARALLEL="${2:-8}"
RUNNERS=("--shard 1/4" "--shard 2/4" "--shard 3/4" "--shard 4/4")
PASSWORD=benchmark

swift build -c release --product nowflow
BIN="$(swift build -c release --show-bin-path)"

. Benchmarks/served-instance.sh
start_server

# Seeds RECORDS locations named $1-N with random sys_ids.
seed() {
    sqlite3 "$WORK/bench.db" >/dev/null <<SQL
PRAGMA busy_timeout = 10000;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $RECORDS)
INSERT INTO "cmn_location" ("sys_id", "name", "sys_created_on", "sys_updated_on", "sys_created_by",
    "sys_updated_by", "sys_mod_count", "sys_class_name")
SELECT lower(hex(randomblob(16))), '$1-' || i, datetime(1767225600, 'unixepoch'), datetime(1767225600, 'unixepoch'),
    'admin', 'admin', 0, 'cmn_location'
FROM n;
COMMIT;
SQL
}

# The other client, until $WORK/stop exists: inserts $1-new-N, deletes one it inserted before, and every other
# round one of the seeded records listed in $WORK/doomed (noting it in $WORK/deleted).
mutate() {
    local prefix=$1 round=0 own=() victim
    exec 3<"$WORK/doomed"
    : >"$WORK/deleted"
    : >"$WORK/mutations"
    while [ ! -e "$WORK/stop" ]; do
        round=$((round + 1))
        id=$(curl -s -u "admin:$PASSWORD" -H 'Content-Type: application/json' \
            "$URL/api/now/table/cmn_location?sysparm_fields=sys_id" -d "{\"name\":\"$prefix-new-$round\"}" |
            sed -n 's/.*"sys_id":"\([0-9a-f]*\)".*/\1/p')
        [ -n "$id" ] && { own+=("$id"); echo inserted >>"$WORK/mutations"; }
        if [ ${#own[@]} -gt 3 ]; then
            curl -s -o /dev/null -u "admin:$PASSWORD" -X DELETE "$URL/api/now/table/cmn_location/${own[0]}" &&
                echo deleted >>"$WORK/mutations"
            own=("${own[@]:1}")
        fi
        if [ $((round % 2)) -eq 0 ] && read -r victim <&3; then
            status=$(curl -s -o /dev/null -w '%{http_code}' -u "admin:$PASSWORD" -X DELETE \
                "$URL/api/now/table/cmn_location/$victim")
            [ "$status" = 204 ] && { echo "$victim" >>"$WORK/deleted"; echo deleted >>"$WORK/mutations"; }
        fi
    done
}

drift() {
    local paging=$1 prefix="drift-$1"
    seed "$prefix"
    sqlite3 "$WORK/bench.db" "SELECT sys_id FROM cmn_location WHERE name LIKE '$prefix-%' ORDER BY random() LIMIT $((RECORDS / 10));" >"$WORK/doomed"
    sqlite3 "$WORK/bench.db" "SELECT sys_id FROM cmn_location WHERE name LIKE '$prefix-%';" >"$WORK/originals"
    cat >"$WORK/job-$paging.yaml" <<YAML
name: Drift ($paging)
auth:
  basic: { user: admin, password: $PASSWORD }
steps:
  - id: range
    query: { table: cmn_location, query: "nameSTARTSWITH$prefix-", fields: [sys_id], page_size: 1000, paging: $paging }
  - foreach: steps.range.records
    as: location
    parallel: $PARALLEL
    steps:
      - update: { table: cmn_location, sys_id: "\${location.sys_id}", fields: { street: updated } }
        continue_on_error: true
YAML
    rm -f "$WORK/stop"
    mutate "$prefix" &
    local mutator=$! pids=() index=0 start end
    start=$(date +%s)
    for extra in "${RUNNERS[@]}"; do
        # shellcheck disable=SC2086 # each runner's extra arguments are words
        "$BIN/nowflow" run "$WORK/job-$paging.yaml" --instance "$URL" --offline $extra \
            >"$WORK/run-$paging-$index.out" 2>"$WORK/run-$paging-$index.err" &
        pids+=($!)
        index=$((index + 1))
    done
    for pid in "${pids[@]}"; do wait "$pid" || { echo "a runner failed" >&2; cat "$WORK"/run-"$paging"-*.out; exit 1; }; done
    end=$(date +%s)
    touch "$WORK/stop"
    wait "$mutator"
    sqlite3 "$WORK/bench.db" "SELECT sys_id, sys_mod_count FROM cmn_location WHERE name LIKE '$prefix-%';" >"$WORK/counts"
    python3 - "$WORK" "$paging" $((end - start)) <<'PY'
import sys
work, paging, seconds = sys.argv[1], sys.argv[2], sys.argv[3]
originals = set(open(f"{work}/originals").read().split())
deleted = set(open(f"{work}/deleted").read().split())
counts = dict(line.split("|") for line in open(f"{work}/counts").read().split())
counts = {k: int(v) for k, v in counts.items()}
throughout = originals - deleted
once = sum(1 for s in throughout if counts.get(s) == 1)
missed = sum(1 for s in throughout if counts.get(s, 0) == 0)
twice = sum(1 for s in throughout if counts.get(s, 0) > 1)
others_twice = sum(1 for s, c in counts.items() if s not in originals and c > 1)
mutations = open(f"{work}/mutations").read().split()
print(f"{paging:6}: {len(throughout)} records existed throughout: {once} updated once, {missed} not at all, "
      f"{twice} more than once; records inserted meanwhile updated twice: {others_twice}; "
      f"the other client inserted {mutations.count('inserted')} and deleted {mutations.count('deleted')}; {seconds} s")
if paging == "keyed" and (missed or twice or others_twice):
    sys.exit("keyed paging drifted")
PY
}

drift keyed
drift offset
