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
mkdir -p "$corpus/line" "$corpus/dfen"
# Seeds: real protocol lines, and DFENs with events of the reference positions (the first
# byte picks the rule set).
printf 'position startpos moves c2-b1\n' > "$corpus/line/1"
printf 'go depth 6 nodes 100 movetime 5 time1 1 time2 2 inc1 3 inc2 4 infinite' > "$corpus/line/2"
printf 'setoption name Clear Hash' > "$corpus/line/3"
printf 'position dfen S/Hk...mN....l/tG.........g 1 2 0 1 moves axb2 counterpush a-b3' > "$corpus/line/4"
printf 'go perft 3' > "$corpus/line/5"
printf 'odds b4xa' > "$corpus/line/6"
printf '\x00S/Hk...mN....l/tG.........g 1 2 0 1|axb2 counterpush a-b3' > "$corpus/dfen/1"
printf '\x01N/..k........./...G....mt.. 1 2 0 9 2/2|a-b1' > "$corpus/dfen/2"
printf '\x02./t....s....../Hg..mNl....k 1 2 0 1|pass pass' > "$corpus/dfen/3"
printf '\x03./L..m.....t../...S..G..k.. 1 2 0 1|b1-b7' > "$corpus/dfen/4"
printf '\x04./Sn........../.....H..t... 1 2 78 79|b1-b12' > "$corpus/dfen/5"

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
