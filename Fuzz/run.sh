#!/bin/sh
# Fuzzes the YAML layer, the expression parser and whole job files with libFuzzer (outside CI).
#
#   Fuzz/run.sh [SECONDS]      # each target runs SECONDS (default 600); crashes are saved under Fuzz/Crashes/
#
# Each target is compiled from the module's sources plus an entry file in one swiftc call, with
# -sanitize=fuzzer,address. The job target compiles NowData's sources into the same module (their
# `import NowData` lines dropped in a scratch copy). The corpora start from Fuzz/Corpus (seeded with workflows/ and sample expressions)
# and grow in a scratch copy. A crashing input found here must become a test in Tests/NowFlowTests.
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-600}"
build=.build/fuzz
mkdir -p "$build" Fuzz/Crashes
flags="-sanitize=fuzzer,address -parse-as-library -O -g -I CYAML -lyaml -swift-version 6"

swiftc $flags Sources/NowFlow/YAML/*.swift Fuzz/FuzzYAML.swift -module-name FuzzYAML -o "$build/fuzz-yaml" 2>&1 \
    | grep -v "Cannot export local symbol" || true
swiftc $flags Sources/NowFlow/Expressions/*.swift Fuzz/FuzzExpression.swift -module-name FuzzExpression \
    -o "$build/fuzz-expression" 2>&1 | grep -v "Cannot export local symbol" || true

jobsources="$build/job-sources"
rm -rf "$jobsources"
mkdir -p "$jobsources"
for file in $(find Sources/NowData -name '*.swift') Sources/NowFlow/YAML/*.swift Sources/NowFlow/Expressions/*.swift \
    Sources/NowFlow/Job/*.swift Sources/NowFlow/Job/Steps/*.swift; do
    sed '/^import NowData$/d' "$file" > "$jobsources/$(echo "$file" | tr / _)"
done
swiftc $flags "$jobsources"/*.swift Fuzz/FuzzJob.swift -module-name FuzzJob -o "$build/fuzz-job" 2>&1 \
    | grep -v "Cannot export local symbol" || true

for target in yaml expression job; do
    corpus="$build/corpus-$target"
    mkdir -p "$corpus"
    cp Fuzz/Corpus/$target/* "$corpus/"
    if [ "$target" != expression ]; then cp workflows/*.yaml "$corpus/"; fi
    echo "fuzzing $target for $seconds s"
    "$build/fuzz-$target" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=4096 \
        -artifact_prefix=Fuzz/Crashes/$target- -print_final_stats=1 "$corpus"
done
