#!/bin/sh
# NowAttachmentService against curl on large files (issue 13): a file uploaded to `nowflow serve` and downloaded
# back, for each size (100 MB and 1 GB by default), two ways in the same run:
#   - curl: `-T FILE -X POST` (streamed from the file) to /api/now/attachment/file, then `-o FILE` from
#     /api/now/attachment/{sys_id}/file; plus `sha256sum` of the copy, as NowData checks the hash; and once more
#     hashed as it arrives, `curl | tee FILE | openssl dgst -sha256` (the same check, beside the transfer);
#   - AttachmentBenchmark: NowAttachmentService.upload(fileURL:) and attachment(for:writingTo:) over CurlTransport
#     (libcurl's read and write callbacks on the files; the download checked against its SHA-256 hash);
# and the same file as a multipart form with `curl -F` to /api/now/attachment/upload (the server parses it as it
# arrives), beside curl's raw upload.
#
# Each side runs RUNS times (3 by default), the two sides taking turns to go first, and the best time of each is
# compared. Before every timed transfer the page cache's dirty pages are written out (`sync`), so that neither side
# pays for the writeback of the other's files, and the source file is read once (it is in the cache for both).
# The attachments of a round are deleted before the next. It prints the best times, their ratios, and the peak
# memory (resident set) of each client process (the largest of its runs) and of the server (a fresh server per
# size: its peak covers every upload and download of that size).
#
# Run from the package root:   Benchmarks/attachments.sh [SIZE_MB...]        (default: 100 1024)
# SCRATCH=DIR builds in DIR instead of .build (a release build beside a debug one in use). RUNS=N for N rounds.
# Needs curl, openssl and GNU time.
set -eu
cd "$(dirname "$0")/.."
SIZES="${*:-100 1024}"
RUNS="${RUNS:-3}"
PASSWORD=benchmark
SCRATCH="${SCRATCH:-.build}"

swift build -c release --scratch-path "$SCRATCH" --product nowflow
swift build -c release --scratch-path "$SCRATCH" --product AttachmentBenchmark
BIN="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)"

. Benchmarks/served-instance.sh

now() { date +%s.%N; }
# The peak resident set of the server so far, in MB.
server_peak() { awk '/^VmHWM:/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVER/status"; }
# The smaller of two numbers ("" counts as none).
least() { if [ -z "$1" ]; then echo "$2"; else echo "$1 $2" | awk '{ print ($1 < $2) ? $1 : $2 }'; fi; }
# The larger of two peak memories in kB (GNU time's %M).
most() { if [ -z "$1" ]; then echo "$2"; else echo "$1 $2" | awk '{ print ($1 > $2) ? $1 : $2 }'; fi; }
sys_id() { sed -n 's/.*"sys_id":"\([0-9a-f]\{32\}\)".*/\1/p' "$1" | head -1; }
delete_attachment() { curl -s -f -u "admin:$PASSWORD" -X DELETE "$URL/api/now/attachment/$1" >/dev/null; }

# curl's round: the raw upload, the download (and its sha256sum), the multipart upload. Sets the best times.
curl_round() {
    sync
    start=$(now)
    /usr/bin/time -f '%M' -o "$WORK/rss" curl -s -f -u "admin:$PASSWORD" -H 'Expect:' \
        -H 'Content-Type: application/octet-stream' -X POST -T "$WORK/file.bin" -o "$WORK/curl-up.json" \
        "$URL/api/now/attachment/file?table_name=incident&table_sys_id=$RECORD&file_name=file.bin"
    curl_up="$(least "$curl_up" "$(echo "$(now) - $start" | bc -l)")"
    curl_up_rss="$(most "$curl_up_rss" "$(cat "$WORK/rss")")"
    attachment="$(sys_id "$WORK/curl-up.json")"
    sync
    start=$(now)
    /usr/bin/time -f '%M' -o "$WORK/rss" curl -s -f -u "admin:$PASSWORD" -o "$WORK/curl-copy.bin" \
        "$URL/api/now/attachment/$attachment/file"
    curl_down="$(least "$curl_down" "$(echo "$(now) - $start" | bc -l)")"
    curl_down_rss="$(most "$curl_down_rss" "$(cat "$WORK/rss")")"
    start=$(now)
    sha256sum "$WORK/curl-copy.bin" >/dev/null
    curl_hash="$(least "$curl_hash" "$(echo "$(now) - $start" | bc -l)")"
    cmp -s "$WORK/file.bin" "$WORK/curl-copy.bin" || { echo "curl's copy differs" >&2; exit 1; }
    rm -f "$WORK/curl-copy.bin"
    sync
    start=$(now)
    curl -s -f -u "admin:$PASSWORD" "$URL/api/now/attachment/$attachment/file" | tee "$WORK/curl-copy.bin" |
        openssl dgst -sha256 >/dev/null
    curl_streamed="$(least "$curl_streamed" "$(echo "$(now) - $start" | bc -l)")"
    rm -f "$WORK/curl-copy.bin"
    delete_attachment "$attachment"
    sync
    start=$(now)
    /usr/bin/time -f '%M' -o "$WORK/rss" curl -s -f -u "admin:$PASSWORD" -H 'Expect:' -o "$WORK/curl-form.json" \
        -F table_name=incident -F table_sys_id="$RECORD" -F "uploadFile=@$WORK/file.bin" \
        "$URL/api/now/attachment/upload"
    curl_form="$(least "$curl_form" "$(echo "$(now) - $start" | bc -l)")"
    curl_form_rss="$(most "$curl_form_rss" "$(cat "$WORK/rss")")"
    attachment="$(sys_id "$WORK/curl-form.json")"
    [ "$(sed -n 's/.*"size_bytes":"\([0-9]*\)".*/\1/p' "$WORK/curl-form.json")" = "$((SIZE * 1048576))" ] ||
        { echo "the multipart upload's size differs" >&2; exit 1; }
    delete_attachment "$attachment"
}

# NowAttachmentService's round: one AttachmentBenchmark process uploads and downloads. Sets the best times.
swift_round() {
    sync
    /usr/bin/time -f '%M' -o "$WORK/rss" "$BIN/AttachmentBenchmark" --url "$URL" --password "$PASSWORD" \
        --record "$RECORD" --file "$WORK/file.bin" --out "$WORK/swift-copy.bin" --sync >"$WORK/swift.out"
    swift_line="$(cat "$WORK/swift.out")"
    cmp -s "$WORK/file.bin" "$WORK/swift-copy.bin" || { echo "NowAttachmentService's copy differs" >&2; exit 1; }
    rm -f "$WORK/swift-copy.bin"
    swift_up="$(least "$swift_up" "$(echo "$swift_line" | sed -n 's/.*upload_seconds=\([0-9.]*\).*/\1/p')")"
    swift_down="$(least "$swift_down" "$(echo "$swift_line" | sed -n 's/.*download_seconds=\([0-9.]*\).*/\1/p')")"
    swift_rss="$(most "$swift_rss" "$(cat "$WORK/rss")")"
    delete_attachment "$(echo "$swift_line" | sed -n 's/.*attachment=\([0-9a-f]*\).*/\1/p')"
}

for SIZE in $SIZES; do
    rm -rf "$WORK"/*
    start_server --attachment-max-size 4096
    RECORD="$(curl -s -f -u "admin:$PASSWORD" -H 'Content-Type: application/json' \
        -d '{"short_description":"attachment benchmark"}' "$URL/api/now/table/incident" |
        sed -n 's/.*"sys_id":"\([0-9a-f]\{32\}\)".*/\1/p')"
    head -c "$((SIZE * 1048576))" /dev/urandom >"$WORK/file.bin"
    cat "$WORK/file.bin" >/dev/null
    idle_peak="$(server_peak)"
    curl_up="" curl_down="" curl_hash="" curl_streamed="" curl_form="" swift_up="" swift_down=""
    curl_up_rss="" curl_down_rss="" curl_form_rss="" swift_rss=""
    round=1
    while [ "$round" -le "$RUNS" ]; do
        if [ $((round % 2)) -eq 1 ]; then curl_round; swift_round; else swift_round; curl_round; fi
        round=$((round + 1))
    done
    peak="$(server_peak)"
    stop_server

    awk -v size="$SIZE" -v runs="$RUNS" -v cu="$curl_up" -v cd="$curl_down" -v ch="$curl_hash" -v cs="$curl_streamed" \
        -v cf="$curl_form" \
        -v su="$swift_up" -v sd="$swift_down" -v curl_up_rss="$curl_up_rss" -v curl_down_rss="$curl_down_rss" \
        -v curl_form_rss="$curl_form_rss" -v swift_rss="$swift_rss" -v server="$peak" -v idle="$idle_peak" 'BEGIN {
        printf "%d MB (best of %d runs each)\n", size, runs
        printf "  upload:    curl %7.3f s  NowAttachmentService %7.3f s  ratio %.2fx (aim: at most 1.3x)\n", cu, su, su / cu
        printf "  download:  curl %7.3f s  NowAttachmentService %7.3f s  ratio %.2fx (hash checked; curl + sha256sum %.3f s: %.2fx; curl | tee | openssl dgst %.3f s: %.2fx)\n", cd, sd, sd / cd, cd + ch, sd / (cd + ch), cs, sd / cs
        printf "  multipart: curl -F %7.3f s (%.2fx curl -T: the server parses the form as it arrives)\n", cf, cf / cu
        printf "  peak memory: curl %.1f MB (upload), %.1f MB (download), %.1f MB (-F); AttachmentBenchmark %.1f MB; server %.1f MB (%.1f MB before the transfers)\n", curl_up_rss / 1024, curl_down_rss / 1024, curl_form_rss / 1024, swift_rss / 1024, server, idle
    }'
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
