#!/bin/sh
# Fuzzes the YAML layer, the expression parser, whole job files and Coder.default's decoding with libFuzzer
# (outside CI).
#
#   Fuzz/run.sh [SECONDS] [TARGET]   # each target (or TARGET alone: yaml, expression, job, decode) runs SECONDS
#                                    # (default 600); crashes are saved under Fuzz/Crashes/
#
# Each target is compiled from the module's sources plus an entry file in one swiftc call, with
# -sanitize=fuzzer,address. Every target compiles NowData's sources (with its Swift side of simdjson,
# Sources/SimdJSON, and its libcurl transport, Sources/CurlHTTP) into the same module (their `import NowData`,
# `internal import SimdJSON` and `internal import CurlHTTP` lines dropped in a scratch copy): NowFlow's values are
# NowData's JSONValue. NowData's C++ parser (Sources/CJSONTape, on Debian's libsimdjson) is compiled by clang++ and
# its module found through a module map written in the scratch directory, and libcurl's module comes from CCurl/.
# The decode target is differential: whatever Coder.default's simdjson path decodes must equal JSONDecoder's result.
# The corpora start from Fuzz/Corpus (seeded with workflows/ and sample expressions) and grow in a scratch copy;
# a target's Fuzz/TARGET.dict (JSON tokens for decode) is passed as its libFuzzer dictionary.
# A crashing input found here must become a test (Tests/NowFlowTests, or Tests/NowDataTests for decode).
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-600}"
targets="${2:-yaml expression job decode}"
build=.build/fuzz
mkdir -p "$build" Fuzz/Crashes
flags="-sanitize=fuzzer,address -parse-as-library -O -g -I CYAML -lyaml -swift-version 6 -package-name nowflow"

# Compiles Swift sources into the fuzzer of target $1 with the extra swiftc flags $2, dropping their
# `import NowData`, `internal import SimdJSON` and `internal import CurlHTTP` lines.
compile() {
    target="$1"
    extra="$2"
    shift 2
    sources="$build/$target-sources"
    rm -rf "$sources"
    mkdir -p "$sources"
    for file in "$@"; do
        sed -e '/^import NowData$/d' -e '/^internal import SimdJSON$/d' -e '/^internal import CurlHTTP$/d' "$file" \
            > "$sources/$(echo "$file" | tr / _)"
    done
    swiftc $flags $extra "$sources"/*.swift -module-name "Fuzz$target" -o "$build/fuzz-$target" 2>&1 \
        | grep -v "Cannot export local symbol" || true
}

# NowData's C++ parser and the module map that lets Swift import it; NowData's libcurl module (CCurl/).
mkdir -p "$build/cjsontape"
printf 'module CJSONTape {\n    header "%s"\n    export *\n}\n' "$PWD/Sources/CJSONTape/include/CJSONTape.h" \
    > "$build/cjsontape/module.modulemap"
clang++ -std=c++17 -DSIMDJSON_THREADS_ENABLED=1 -fsanitize=fuzzer-no-link,address -O1 -g \
    -I Sources/CJSONTape/include -c Sources/CJSONTape/CJSONTape.cpp -o "$build/cjsontape/CJSONTape.o"
nowdataflags="-I $build/cjsontape $build/cjsontape/CJSONTape.o -lsimdjson -lstdc++ -I CCurl -lcurl"

nowdata=$(find Sources/NowData Sources/SimdJSON Sources/CurlHTTP -name '*.swift')
for target in $targets; do
    case "$target" in
    yaml) compile yaml "$nowdataflags" $nowdata Sources/NowFlow/YAML/*.swift Fuzz/FuzzYAML.swift ;;
    expression) compile expression "$nowdataflags" $nowdata Sources/NowFlow/Expressions/*.swift Fuzz/FuzzExpression.swift ;;
    job)
        compile job "$nowdataflags" $nowdata Sources/NowFlow/YAML/*.swift Sources/NowFlow/Expressions/*.swift Sources/NowFlow/Job/*.swift \
            Sources/NowFlow/Job/Steps/*.swift Sources/NowFlow/Runner/JobDates.swift Fuzz/FuzzJob.swift
        ;;
    decode) compile decode "$nowdataflags" $nowdata Fuzz/FuzzDecode.swift ;;
    *)
        echo "unknown target: $target (yaml, expression, job, decode)" >&2
        exit 2
        ;;
    esac
done

for target in $targets; do
    corpus="$build/corpus-$target"
    mkdir -p "$corpus"
    cp Fuzz/Corpus/$target/* "$corpus/"
    case "$target" in yaml | job) cp workflows/*.yaml "$corpus/" ;; esac
    dictionary=""
    if [ -f "Fuzz/$target.dict" ]; then dictionary="-dict=Fuzz/$target.dict"; fi
    echo "fuzzing $target for $seconds s"
    "$build/fuzz-$target" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=4096 $dictionary \
        -artifact_prefix=Fuzz/Crashes/$target- -print_final_stats=1 "$corpus"
done
