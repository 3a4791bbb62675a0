# Sourced by the scripts beside it: builds nowflow, starts `nowflow serve --tls` on a fresh database and stops it on
# exit. Not a command of its own.
#
#   source "$(dirname "$0")/serve.bash"
#   peers_build                       # sets $binary (NOWFLOW_BINARY skips the build)
#   peers_workdir NAME                # sets $work, a new temporary directory
#   peers_serve [serve options...]    # sets $url (https://127.0.0.1:PORT), $ca, $password; NOWFLOW_SERVE_OPTIONS
#                                     # adds options (word-split)
#   peers_client_certificate          # before peers_serve: a client CA and certificate for mutual TLS
#   peers_map_certificate             # after it: the certificate logs in as admin
#   peers_result NAME passed|failed [why]
#   peers_summary                     # prints the closing 'N passed, N failed' of peers_result lines, exits with it
#
# The server's HOME is $work/home, so the certificate authority `serve --tls` makes lands in
# $work/home/.nowflow/tls/ca.pem and is new on every run; the database is $work/instance.sqlite and the server's
# log $work/serve.log. The admin password is random and never printed.

peers_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
peers_passed=0
peers_failed=0

peers_build() {
    if [ -n "${NOWFLOW_BINARY:-}" ]; then
        binary="$NOWFLOW_BINARY"
    else
        "$peers_root/scripts/ensure-system-packages" openssl curl || exit 1
        swift build --package-path "$peers_root" --product nowflow 2>&1 | tail -3 >&2
        binary="$(swift build --package-path "$peers_root" --show-bin-path)/nowflow"
    fi
}

peers_workdir() {
    work="$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")"
}

peers_servers=()
peers_stop() {
    local pid
    for pid in "${peers_servers[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    peers_servers=()
}
trap peers_stop EXIT

peers_serve() {
    password="peer-$RANDOM$RANDOM$RANDOM"
    mkdir -p "$work/home"
    printf '%s\n' "$password" >"$work/admin-password"
    # shellcheck disable=SC2086 # the options are meant to be split into words
    HOME="$work/home" "$binary" serve --tls --port 0 --db "$work/instance.sqlite" \
        --password-file "$work/admin-password" "${peers_serve_client_ca[@]}" "$@" ${NOWFLOW_SERVE_OPTIONS:-} >"$work/serve.log" 2>&1 &
    peers_servers+=($!)
    url=""
    for _ in $(seq 1 300); do
        url="$(sed -n 's/^nowflow serve: listening on \(https:[^ ]*\).*/\1/p' "$work/serve.log")"
        [ -n "$url" ] && break
        kill -0 "${peers_servers[-1]}" 2>/dev/null || { cat "$work/serve.log" >&2; exit 1; }
        sleep 0.1
    done
    [ -n "$url" ] || { echo "nowflow serve did not start" >&2; cat "$work/serve.log" >&2; exit 1; }
    url="${url%/}"
    ca="$work/home/.nowflow/tls/ca.pem"
    [ -f "$ca" ] || { echo "nowflow serve --tls made no $ca" >&2; exit 1; }
}

# peers_client_certificate: before peers_serve, makes a client CA ($work/client-ca.pem) and a certificate it
# issued ($work/client.pem, $work/client-key.pem), and adds `--tls-client-ca` to the next peers_serve.
peers_serve_client_ca=()
peers_client_certificate() {
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=peers client CA" \
        -keyout "$work/client-ca-key.pem" -out "$work/client-ca.pem" 2>/dev/null &&
        openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=admin" \
            -keyout "$work/client-key.pem" -out "$work/client.csr" 2>/dev/null &&
        openssl x509 -req -in "$work/client.csr" -CA "$work/client-ca.pem" -CAkey "$work/client-ca-key.pem" \
            -CAcreateserial -days 2 -out "$work/client.pem" 2>/dev/null ||
        { echo "openssl could not make a client certificate" >&2; exit 1; }
    peers_serve_client_ca=(--tls-client-ca "$work/client-ca.pem")
}

# peers_map_certificate: after peers_serve, maps $work/client.pem to admin with a sys_user_certificate record.
peers_map_certificate() {
    local fingerprint admin
    fingerprint="$(openssl x509 -in "$work/client.pem" -noout -fingerprint -sha256 | cut -d= -f2)"
    admin="$(curl -sS --fail --cacert "$ca" -u "admin:$password" \
        "$url/api/now/table/sys_user?sysparm_query=user_name=admin&sysparm_fields=sys_id" |
        sed -n 's/.*"sys_id":"\([0-9a-f]*\)".*/\1/p')"
    [ -n "$admin" ] || { echo "cannot read admin's sys_id" >&2; exit 1; }
    curl -sS --fail --cacert "$ca" -u "admin:$password" -H "Content-Type: application/json" -o /dev/null \
        -d "{\"name\":\"peers client\",\"user\":\"$admin\",\"fingerprint\":\"$fingerprint\"}" \
        "$url/api/now/table/sys_user_certificate" || { echo "cannot map the client certificate" >&2; exit 1; }
}

# peers_result NAME passed|failed [why]: one line of the per-test summary.
peers_result() {
    if [ "$2" = passed ]; then
        peers_passed=$((peers_passed + 1))
        printf '%-48s passed\n' "$1"
    else
        peers_failed=$((peers_failed + 1))
        printf '%-48s FAILED%s\n' "$1" "${3:+: $3}"
    fi
}

peers_summary() {
    echo "$peers_passed passed, $peers_failed failed"
    [ "$peers_failed" -eq 0 ]
}
