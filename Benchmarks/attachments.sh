#!/bin/sh
# NowAttachmentService against curl on large files (issue 13): a file uploaded to `nowflow serve` and downloaded
# back, for each size (100 MB and 1 GB by default), two ways in the same run:
#   - curl: `-T FILE -X POST` (streamed from the file) to /api/now/attachment/file, then `-o FILE` from
#     /api/now/attachment/{sys_id}/file; once more with `sha256sum` of the copy, as NowData checks the hash;
#   - AttachmentBenchmark: NowAttachmentService.upload(fileURL:) and attachment(for:writingTo:) over CurlTransport
#     (libcurl's read and write callbacks on the files; the download checked against its SHA-256 hash).
# It prints the times, the ratios, and the peak memory (resident set) of each client process and of the server
# (a fresh server per size: its peak covers both clients' uploads and downloads).
#
# Run from the package root:   Benchmarks/attachments.sh [SIZE_MB...]        (default: 100 1024)
# SCRATCH=DIR builds in DIR instead of .build (a release build beside a debug one in use). Needs curl and GNU time.
set -eu
cd "$(dirname "$0")/.."
SIZES="${*:-100 1024}"
PASSWORD=benchmark
SCRATCH="${SCRATCH:-.build}"

swift build -c release --scratch-path "$SCRATCH" --product nowflow
swift build -c release --scratch-path "$SCRATCH" --product AttachmentBenchmark
BIN="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)"

. Benchmarks/served-instance.sh

now() { date +%s.%N; }
# The peak resident set of the server so far, in MB.
server_peak() { awk '/^VmHWM:/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVER/status"; }

for SIZE in $SIZES; do
    rm -rf "$WORK"/*
    start_server --attachment-max-size 4096
    RECORD="$(curl -s -f -u "admin:$PASSWORD" -H 'Content-Type: application/json' \
        -d '{"short_description":"attachment benchmark"}' "$URL/api/now/table/incident" |
        sed -n 's/.*"sys_id":"\([0-9a-f]\{32\}\)".*/\1/p')"
    head -c "$((SIZE * 1048576))" /dev/urandom >"$WORK/file.bin"
    idle_peak="$(server_peak)"

    start=$(now)
    /usr/bin/time -f '%M' -o "$WORK/curl-up.rss" curl -s -f -u "admin:$PASSWORD" -H 'Expect:' \
        -H 'Content-Type: application/octet-stream' -X POST -T "$WORK/file.bin" -o "$WORK/curl-up.json" \
        "$URL/api/now/attachment/file?table_name=incident&table_sys_id=$RECORD&file_name=file.bin"
    curl_up=$(echo "$(now) - $start" | bc -l)
    ATTACHMENT="$(sed -n 's/.*"sys_id":"\([0-9a-f]\{32\}\)".*/\1/p' "$WORK/curl-up.json" | head -1)"
    start=$(now)
    /usr/bin/time -f '%M' -o "$WORK/curl-down.rss" curl -s -f -u "admin:$PASSWORD" -o "$WORK/curl-copy.bin" \
        "$URL/api/now/attachment/$ATTACHMENT/file"
    curl_down=$(echo "$(now) - $start" | bc -l)
    start=$(now)
    sha256sum "$WORK/curl-copy.bin" >/dev/null
    curl_hash=$(echo "$(now) - $start" | bc -l)
    cmp -s "$WORK/file.bin" "$WORK/curl-copy.bin" || { echo "curl's copy differs" >&2; exit 1; }
    rm -f "$WORK/curl-copy.bin"

    /usr/bin/time -f '%M' -o "$WORK/swift.rss" "$BIN/AttachmentBenchmark" --url "$URL" --password "$PASSWORD" \
        --record "$RECORD" --file "$WORK/file.bin" --out "$WORK/swift-copy.bin" >"$WORK/swift.out"
    swift_line="$(cat "$WORK/swift.out")"
    cmp -s "$WORK/file.bin" "$WORK/swift-copy.bin" || { echo "NowAttachmentService's copy differs" >&2; exit 1; }
    swift_up=$(echo "$swift_line" | sed -n 's/.*upload_seconds=\([0-9.]*\).*/\1/p')
    swift_down=$(echo "$swift_line" | sed -n 's/.*download_seconds=\([0-9.]*\).*/\1/p')
    peak="$(server_peak)"
    stop_server

    awk -v size="$SIZE" -v cu="$curl_up" -v cd="$curl_down" -v ch="$curl_hash" -v su="$swift_up" -v sd="$swift_down" \
        -v curl_up_rss="$(cat "$WORK/curl-up.rss")" -v curl_down_rss="$(cat "$WORK/curl-down.rss")" \
        -v swift_rss="$(cat "$WORK/swift.rss")" -v server="$peak" -v idle="$idle_peak" 'BEGIN {
        printf "%d MB\n", size
        printf "  upload:   curl %7.3f s  NowAttachmentService %7.3f s  ratio %.2fx (aim: at most 1.3x)\n", cu, su, su / cu
        printf "  download: curl %7.3f s  NowAttachmentService %7.3f s  ratio %.2fx (hash checked; curl + sha256sum %.3f s: %.2fx)\n", cd, sd, sd / cd, cd + ch, sd / (cd + ch)
        printf "  peak memory: curl %.1f MB (upload), %.1f MB (download); AttachmentBenchmark %.1f MB; server %.1f MB (%.1f MB before the transfers)\n", curl_up_rss / 1024, curl_down_rss / 1024, swift_rss / 1024, server, idle
    }'
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
