#!/bin/sh
# Fuzzes the package's parsers of untrusted input with libFuzzer and AddressSanitizer (Fuzz/README.md).
#
#   Fuzz/run.sh [SECONDS] [TARGET...]   # each target (default: all) runs SECONDS (default 600), one at a time;
#                                       # crashes are saved under Fuzz/Crashes/, the corpora grow in
#                                       # .build/fuzz/corpus-TARGET
#   Fuzz/run.sh --smoke [TARGET...]     # CI: each target runs its seed corpus and a fixed number of mutations
#                                       # of it (seed 1), from an empty scratch corpus
#
# TARGET: yaml expression job shortform decode query request multipart batch form dates.
#
# The targets are the executables of the package in Fuzz/ (Fuzz/Package.swift), which depends on the root
# package by path: they are built from the package's own modules, with -sanitize=fuzzer,address on every Swift
# module and -fsanitize=fuzzer-no-link,address on its C and C++ ones, in release with -enable-testing (the
# targets `@testable import` the modules); every target is built at each run. A build that fails stops the
# script with the compiler's error.
# Each target's seeds are Fuzz/Corpus/TARGET (and workflows/ for yaml and job); Fuzz/TARGET.dict, when there is
# one, is its libFuzzer dictionary. A crashing input found here must become a test in the Tests/ target of the
# module it belongs to.
set -eu
# A trap is reported by libFuzzer and AddressSanitizer; the Swift runtime's backtracer, reading memory that
# AddressSanitizer watches, would add a report of its own.
export SWIFT_BACKTRACE=enable=no
# Leaks of the toolchain's own libraries (Fuzz/lsan.supp) are not the package's.
export LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")" && pwd)/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
cd "$(dirname "$0")/.."
all="yaml expression job shortform decode query request multipart batch form dates"
smoke=false
seconds=600
case "${1:-}" in
--smoke)
    smoke=true
    shift
    ;;
'' | *[!0-9]*) ;;
*)
    seconds="$1"
    shift
    ;;
esac
targets="${*:-$all}"
# The runs of each target in --smoke: about 15 s for all of them on the development machine.
smokeRuns=1000
build=.build/fuzz

# The executable of target $1.
product() {
    case "$1" in
    yaml) echo FuzzYAML ;;
    expression) echo FuzzExpression ;;
    job) echo FuzzJob ;;
    shortform) echo FuzzShortForm ;;
    decode) echo FuzzDecode ;;
    query) echo FuzzQuery ;;
    request) echo FuzzRequest ;;
    multipart) echo FuzzMultipart ;;
    batch) echo FuzzBatch ;;
    form) echo FuzzForm ;;
    dates) echo FuzzDates ;;
    *)
        echo "unknown target: $1 ($all)" >&2
        exit 2
        ;;
    esac
}

for target in $targets; do product "$target" >/dev/null; done
# Every target, whichever run: a target that no longer builds is found at the next run of any.
swift build --package-path Fuzz --build-path "$build" -c release \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing -Xswiftc -use-ld=lld \
    -Xcc -fsanitize=fuzzer-no-link,address -Xcxx -fsanitize=fuzzer-no-link,address

mkdir -p Fuzz/Crashes
for target in $targets; do
    seeds="Fuzz/Corpus/$target"
    case "$target" in yaml | job) seeds="$seeds workflows" ;; esac
    dictionary=""
    if [ -f "Fuzz/$target.dict" ]; then dictionary="-dict=Fuzz/$target.dict"; fi
    corpus="$build/corpus-$target"
    if $smoke; then
        corpus="$build/smoke-corpus-$target"
        rm -rf "$corpus"
        limit="-runs=$smokeRuns -seed=1"
        echo "fuzzing $target: its seeds and $smokeRuns runs"
    else
        limit="-max_total_time=$seconds"
        echo "fuzzing $target for $seconds s"
    fi
    mkdir -p "$corpus"
    # shellcheck disable=SC2086 # $limit, $dictionary and $seeds are lists of words
    "$build/release/$(product "$target")" $limit -timeout=10 -rss_limit_mb=2048 -max_len=4096 $dictionary \
        -artifact_prefix="Fuzz/Crashes/$target-" -print_final_stats=1 "$corpus" $seeds
done
