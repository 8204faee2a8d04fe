#!/usr/bin/env bash
# The input and output files of dejarik-arena, dejarik analyse-game and dejarik-tune as the
# fuzzing pass gave them: a folder, a missing file, an endless stream (/dev/zero, one line
# without end) or no file at all is a usage error — exit 2, one stderr line naming the file
# (and the flag) and what is wrong — never empty input, an exception's text or a hang.
#
# Usage: test_files_cli.sh path/to/dejarik-arena path/to/dejarik path/to/dejarik-tune
set -u

tool=${1:?usage: $0 path/to/dejarik-arena path/to/dejarik path/to/dejarik-tune}
engine=${2:?}
tune=${3:?}
source "$(dirname "$0")/cli_checks.sh"

# An endless read would hang the test rather than fail it: each run is given a minute.
run() {
    timeout 60 "$tool" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}

# use BINARY: the tool the next checks run.
use() {
    tool=$1
    toolName=$(basename "$tool")
}

dir="$tmp/folder"
mkdir -p "$dir"
missing="$tmp/missing.dgn"
match=(--engine builtin=greedy --engine builtin=random --pairs 1 --quiet)

use "$1"
for command in calibrate replay; do
    expect_usage_error "cannot read $dir: is a directory" $command "$dir"
    expect_usage_error "record files" $command
    expect_usage_error "/dev/zero: line 1 longer than 1 MiB" $command /dev/zero
done
expect_usage_error "cannot read $dir: is a directory" ends "$dir" --player d1
expect_usage_error "cannot read $missing: No such file" ends "$missing" --player d1
expect_usage_error "/dev/zero: line 1 longer than 1 MiB" ends /dev/zero --player d1
expect_usage_error "cannot read $dir: is a directory" merge --out "$tmp/m.results" "$dir"
expect_usage_error "/dev/zero: line 1 longer than 1 MiB" merge --out "$tmp/m.results" /dev/zero
expect_usage_error "--deals: cannot read $dir: is a directory" "${match[@]}" --deals "$dir"
expect_usage_error "--deals: /dev/zero: line 1 longer" "${match[@]}" --deals /dev/zero
expect_usage_error "--results $dir: is a directory" "${match[@]}" --results "$dir"
expect_usage_error "--results /dev/zero: not a regular file" "${match[@]}" --resume \
    --results /dev/zero
expect_usage_error "--records $dir: is a directory" "${match[@]}" --records "$dir"
expect_usage_error "--log $dir: is a directory" "${match[@]}" --log "$dir"
# A results file that is no regular file is written to, not asked its size.
checks=$((checks + 1))
run "${match[@]}" --results /dev/null
[[ $rc -eq 0 ]] || fail "[--results /dev/null] exit code $rc: $(cat "$tmp/err")"
# Two outputs on one file would write over each other.
expect_usage_error "--results and --records name the same file" "${match[@]}" \
    --results "$tmp/same" --records "$tmp/./same"
# A file that cannot take what is written (a full disk) fails the run or the merge, with
# one line: the data is not silently lost.
for output in --results --records; do
    checks=$((checks + 1))
    run "${match[@]}" $output /dev/full
    if [[ $rc -eq 0 || $(wc -l <"$tmp/err") -ne 1 ]] ||
        ! grep -q "^$toolName: error: cannot write '/dev/full'" "$tmp/err"; then
        fail "[$output /dev/full] exit code $rc: $(cat "$tmp/err")"
    fi
done
run "${match[@]}" --results "$tmp/one.results"
expect_usage_error "cannot write '/dev/full'" merge --out /dev/full "$tmp/one.results"
# The records of an earlier run are not written over without --resume, as its results are not.
run "${match[@]}" --records "$tmp/earlier.dgn"
before=$(cksum <"$tmp/earlier.dgn")
checks=$((checks + 1))
run "${match[@]}" --records "$tmp/earlier.dgn"
if [[ $rc -eq 0 ]] || ! grep -q "records file '$tmp/earlier.dgn' exists: pass --resume" "$tmp/err" ||
    [[ $(cksum <"$tmp/earlier.dgn") != "$before" ]]; then
    fail "[--records over an earlier run's] exit code $rc: $(cat "$tmp/err")"
fi
# A log in a folder that does not exist is refused, not made with its folders.
expect_usage_error "--log: cannot open '$tmp/no/such/log': no folder" "${match[@]}" \
    --log "$tmp/no/such/log"
[[ -e $tmp/no ]] && fail "--log made the folder $tmp/no"
# A name with a line break would cut the results file's engine line.
expect_usage_error "holds a control character" --engine builtin=greedy name=$'a\nb' \
    --engine builtin=random --pairs 1 --quiet
expect_usage_error "byte of no UTF-8 character" --engine builtin=greedy name=$'a\xffb' \
    --engine builtin=random --pairs 1 --quiet
expect_usage_error "holds a control character" --engine builtin=greedy name=$'a\xc2\x85b' \
    --engine builtin=random --pairs 1 --quiet
# Numbers a flag or an engine item cannot take: a usage error, never an overflow.
expect_usage_error "--shard: expected K/N" "${match[@]}" --shard 1/2/3
for flag in --stall-timeout --start-timeout --timemargin; do
    expect_usage_error "$flag must be from" "${match[@]}" "$flag" 9223372036854775807
done
expect_usage_error "movetime: expected milliseconds from 1 to" --engine builtin=random \
    --engine "cmd=$engine" movetime=9223372036854775807 --pairs 1 --quiet
expect_usage_error "tc: expected seconds" --engine builtin=random --engine "cmd=$engine" \
    tc=1e12+0 --pairs 1 --quiet

use "$engine"
expect_usage_error "--log-file: cannot open '$tmp/no/such/log': no folder" \
    --log-file "$tmp/no/such/log"
[[ -e $tmp/no ]] && fail "--log-file made the folder $tmp/no"
expect_usage_error "--records: cannot read $dir: is a directory" analyse-game --records "$dir"
expect_usage_error "--records: cannot read $missing: No such file" analyse-game \
    --records "$missing"
expect_usage_error "--records: /dev/zero: line 1 longer" analyse-game --records /dev/zero

use "$tune"
expect_usage_error "--records: cannot read $dir: is a directory" --out "$tmp/w.txt" \
    --records "$dir"
expect_usage_error "--records: /dev/zero: line 1 longer" --out "$tmp/w.txt" --records /dev/zero

finish
