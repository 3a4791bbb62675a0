# Sourced (`. Benchmarks/served-instance.sh`) by the benchmarks that run against `nowflow serve` (paginate.sh,
# foreach.sh, foreach-memory.sh, export.sh, drift.sh, attachments.sh), once BIN and PASSWORD are set. It makes a scratch folder WORK, removed on exit, and
# defines:
#   start_server [serve options...]   a server on a free port over $WORK/bench.db; sets SERVER (its pid) and URL
#   stop_server                       stops it
#   pysnow_venv                       the virtualenv Benchmarks/.venv with pysnow (PyPI), made once
#   seed_incidents_to N PREFIX NUMBER TEXT
#                                     adds incidents to $WORK/bench.db straight through SQLite, up to N in all:
#                                     sys_id PREFIX + 30 hex digits of the index (so they sort in index order),
#                                     number INC(NUMBER + index), short description "TEXT index", opened a second
#                                     apart
WORK="$(mktemp -d)"
SERVER=""
stop_server() {
    if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
    SERVER=""
}
cleanup() {
    stop_server
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

start_server() {
    "$BIN/nowflow" serve --port 0 --db "$WORK/bench.db" --password "$PASSWORD" "$@" \
        >"$WORK/serve.out" 2>"$WORK/serve.err" &
    SERVER=$!
    URL=""
    for _ in $(seq 1 100); do
        URL="$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$WORK/serve.out")"
        [ -n "$URL" ] && break
        sleep 0.1
    done
    [ -n "$URL" ] || { cat "$WORK/serve.err"; echo "nowflow serve did not start" >&2; exit 1; }
}

pysnow_venv() {
    if [ ! -x Benchmarks/.venv/bin/python ]; then
        python3 -m venv Benchmarks/.venv
        Benchmarks/.venv/bin/pip install --quiet pysnow
    fi
}

seeded=0
seed_incidents_to() {
    sqlite3 "$WORK/bench.db" >/dev/null <<SQL
PRAGMA busy_timeout = 10000;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT $seeded UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $1)
INSERT INTO "incident" ("sys_id", "number", "short_description", "state", "active", "impact", "urgency",
    "priority", "category", "opened_at", "sys_created_on", "sys_updated_on", "sys_created_by", "sys_updated_by",
    "sys_mod_count", "sys_class_name")
SELECT printf('$2%030x', i), printf('INC%07d', $3 + i), '$4 ' || i, 1, 1, 3, 3, 5, 'software',
    datetime(1767225600 + i, 'unixepoch'), datetime(1767225600, 'unixepoch'), datetime(1767225600, 'unixepoch'),
    'admin', 'admin', 0, 'incident'
FROM n;
COMMIT;
SQL
    seeded=$1
}
