#!/bin/sh
# `nowflow validate` (issue 14) on job files of 1, 10 and 50 MB, against libyaml's own event parse of the same files
# (Benchmarks/ValidateBenchmark/yaml-events.c, compiled here), in one run: the whole process each time, the best of
# RUNS runs. Aim: validate within 3x libyaml at every size, and its time growing linearly with the size.
# `--offline`: the file's own checks, against libyaml's parse; the name check would add opening the embedded
# instance (about 35 ms, the same at every size: the generated steps' tables are templated, so not checked).
#
# Run from the package root:   Benchmarks/validate.sh [RUNS]      (default 3; needs cc and libyaml-dev)
set -eu
cd "$(dirname "$0")/.."
runs="${1:-3}"
swift build -c release --product nowflow
bin="$(swift build -c release --show-bin-path)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/yaml-events" Benchmarks/ValidateBenchmark/yaml-events.c -lyaml
# nowflow's directory (~/.nowflow) in the temporary one.
HOME="$work"
export HOME

# The best of $runs wall-clock times of a command, in milliseconds with one decimal (whole milliseconds would move
# the 1 MB ratio by a sixth: libyaml takes about 6 ms there).
best() {
    best_us=""
    i=0
    while [ "$i" -lt "$runs" ]; do
        start=$(date +%s%N)
        "$@" > /dev/null
        end=$(date +%s%N)
        us=$(( (end - start) / 1000 ))
        if [ -z "$best_us" ] || [ "$us" -lt "$best_us" ]; then best_us=$us; fi
        i=$((i + 1))
    done
    awk -v us="$best_us" 'BEGIN { printf "%.1f", us / 1000 }'
}

start_ms=$(best "$bin/nowflow" --version)
echo "nowflow's process start (nowflow --version): $start_ms ms"
printf '%-6s %10s %10s %12s %10s %8s\n' size bytes steps libyaml validate ratio
for mb in 1 10 50; do
    file="$work/job-$mb.yaml"
    awk -v mb="$mb" -f Benchmarks/ValidateBenchmark/job.awk > "$file"
    bytes=$(wc -c < "$file")
    steps=$("$bin/nowflow" validate --offline "$file" | sed -n 's/.*, \([0-9]*\) steps).*/\1/p')
    yaml_ms=$(best "$work/yaml-events" "$file")
    validate_ms=$(best "$bin/nowflow" validate --offline "$file")
    ratio=$(awk -v a="$validate_ms" -v b="$yaml_ms" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }')
    printf '%-6s %10s %10s %10s ms %7s ms %8s\n' "${mb}MB" "$bytes" "$steps" "$yaml_ms" "$validate_ms" "$ratio"
done
