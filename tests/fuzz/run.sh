#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan, coverage in every library they use)
# and runs each for a while.
#   tests/fuzz/run.sh [seconds per target, default 60] [build dir, default build-fuzz]
set -euo pipefail
seconds=${1:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${2:-$root/build-fuzz}

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DDEJARIK_FUZZ=ON -DDEJARIK_NATIVE=OFF \
  -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all" \
  > "$build.cmake.log"
cmake --build "$build" --target fuzz-line fuzz-dfen -j2 > "$build.build.log" 2>&1 ||
  { tail -n 30 "$build.build.log"; exit 1; }

corpus=$build/corpus
# Seeds: the checked-in corpus (tests/fuzz/corpus: real protocol lines, and DFENs with events
# of the reference positions, whose first byte picks the rule set), which every build's
# ctest also replays (fuzz-corpus-line, fuzz-corpus-dfen); what libFuzzer finds stays here.
for target in line dfen; do
  mkdir -p "$corpus/$target"
  cp "$root/tests/fuzz/corpus/$target/"* "$corpus/$target/"
done

for target in line dfen; do
  echo "== fuzz-$target for ${seconds}s"
  "$build/tests/fuzz-$target" -max_total_time="$seconds" -max_len=512 -print_final_stats=1 \
    "$corpus/$target" > "$build/fuzz-$target.log" 2>&1 || status=$?
  grep -v -e '# Uses:' -e 'recommended dictionary' "$build/fuzz-$target.log" | tail -n 12
  if [[ ${status:-0} != 0 ]]; then
    echo "fuzz-$target found a problem (exit ${status}); the reproducer is in the current directory"
    exit 1
  fi
done
