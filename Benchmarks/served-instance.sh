# Sourced (`. Benchmarks/served-instance.sh`) by the benchmarks that run against `nowflow serve` (paginate.sh,
# foreach.sh, attachments.sh), once BIN and PASSWORD are set. It makes a scratch folder WORK, removed on exit, and
# defines:
#   start_server [serve options...]   a server on a free port over $WORK/bench.db; sets SERVER (its pid) and URL
#   stop_server                       stops it
#   pysnow_venv                       the virtualenv Benchmarks/.venv with pysnow (PyPI), made once
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
