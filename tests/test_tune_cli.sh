#!/usr/bin/env bash
# dejarik-tune as a user runs it: usage errors exit 2 with one line on stderr and nothing on
# stdout; without tables it says how to make them (exit 1); with the kelly sets of three
# creatures (made by dejarik-tb, tests/tune.cmake) it prints its progress and writes a weights
# file that the engine loads.
#
# Usage: test_tune_cli.sh path/to/dejarik-tune kelly-tables-of-3-creatures path/to/dejarik
set -u

tool=${1:?usage: $0 dejarik-tune kelly-tables-of-3-creatures dejarik}
tables=${2:?}
engine=${3:?}
source "$(dirname "$0")/cli_checks.sh"

expect_usage_error "--out" --positions 100
expect_usage_error "--positions" --positions 5 --out "$tmp/w.txt"
expect_usage_error "--threads" --threads 0 --out "$tmp/w.txt"
expect_usage_error "unknown weight boldness" --params calibration,boldness --out "$tmp/w.txt"
expect_usage_error "--ruleset" --ruleset chess --out "$tmp/w.txt"
expect_usage_error "--start" --start "$tmp/none.txt" --out "$tmp/w.txt"
expect_usage_error "--captures" --captures -1 --out "$tmp/w.txt"
expect_usage_error "--capture-depth" --captures 10 --capture-depth 0 --out "$tmp/w.txt"

expect_usage_error "--tables: no directory" --tables "$tmp/none" --out "$tmp/w.txt"
expect_usage_error "Courtier" --ruleset courtier --out "$tmp/w.txt"
# A time no clock can hold is refused, not overflowed.
for seconds in 1e30 inf 1e10; do
    expect_usage_error "--seconds must be above 0 and at most" --seconds "$seconds" \
        --out "$tmp/w.txt"
done
expect_usage_error "not a CreatureFile" --out "$tmp/w.txt" \
    --option "CreatureFile=$(dirname "$0")/../data/creatures/kelly.txt"
expect_usage_error "Rays of Death" --option RaysOfDeath=true --out "$tmp/w.txt"

# An empty tables folder: exit 1 at once, and the command that makes them.
mkdir -p "$tmp/empty"
checks=$((checks + 1))
run --tables "$tmp/empty" --positions 100 --out "$tmp/w.txt"
if [[ $rc -ne 1 ]] || ! grep -q "dejarik-tb generate" "$tmp/err"; then
    fail "[no tables] exit code $rc, expected 1 and a hint: $(cat "$tmp/err")"
fi

checks=$((checks + 1))
run --tables "$tables" --positions 400 --seconds 5 --params calibration,exposure \
    --out "$tmp/w.txt"
if [[ $rc -ne 0 ]]; then
    fail "[fit] exit code $rc: $(cat "$tmp/err")"
elif ! grep -qE "^sampled 400 positions \([0-9]+ fitted, [0-9]+ held out\)" "$tmp/err" ||
    ! grep -q "^pass 1 step 0.1 loss" "$tmp/err" || ! grep -q "^end: loss" "$tmp/err"; then
    fail "[fit] progress lines missing: $(cat "$tmp/err")"
elif [[ -s $tmp/out ]]; then
    fail "[fit] printed on stdout: $(head -c 200 "$tmp/out")"
elif ! grep -q "^calibration " "$tmp/w.txt"; then
    fail "[fit] no weights in the file: $(cat "$tmp/w.txt")"
fi

# A creature set is refused with the tables, not with records, which need none: one line,
# the records' own fault (a record of the standard set under another creature set).
checks=$((checks + 1))
printf '[Event "x"]\n[Round "1.1"]\n[Player1 "a"]\n[Player2 "b"]\n[Rules "kelly"]\n[Deal "./............/.GHSN..mltk. 1 2 0 1"]\n[Result "1/2-1/2"]\n\n1/2-1/2\n' \
    >"$tmp/one.dgn"
run --records "$tmp/one.dgn" --out "$tmp/w.txt" \
    --option "CreatureFile=$(dirname "$0")/../data/creatures/kelly.txt"
if [[ $rc -eq 0 || $rc -gt 2 ]] || [[ $(wc -l <"$tmp/err") -ne 1 ]] ||
    grep -q "CreatureFile" "$tmp/err"; then
    fail "[records under a CreatureFile] exit code $rc: $(cat "$tmp/err")"
fi

# Positions one capture from the tables join the fit, with their own loss lines.
checks=$((checks + 1))
run --tables "$tables" --positions 200 --captures 30 --capture-depth 2 --seconds 5 \
    --params calibration --out "$tmp/w5.txt"
if [[ $rc -ne 0 ]]; then
    fail "[captures] exit code $rc: $(cat "$tmp/err")"
elif ! grep -q "^labelled 30 positions of five creatures by depth-2 searches" "$tmp/err" ||
    ! grep -q "^sampled 230 positions" "$tmp/err" ||
    ! grep -qE "^end: loss [0-9.]+ on the 30 positions of five creatures" "$tmp/err"; then
    fail "[captures] lines missing: $(cat "$tmp/err")"
elif ! grep -q "^# dejarik-tune .*--captures 30 --capture-depth 2" "$tmp/w5.txt"; then
    fail "[captures] the file's first line does not say so: $(head -1 "$tmp/w5.txt")"
fi

checks=$((checks + 1))
if ! "$engine" analyse --depth 1 --eval-file "$tmp/w.txt" >"$tmp/out" 2>"$tmp/err"; then
    fail "[engine] the weights file does not load: $(cat "$tmp/err")"
fi

# SPSA through arena games: usage errors, then three iterations of real games at depth 1
# whose weights file the engine loads.
expect_usage_error "--engine" spsa --out "$tmp/s.txt"
expect_usage_error "--iterations" spsa --engine "$engine" --iterations 0 --out "$tmp/s.txt"
expect_usage_error "--perturbation" spsa --engine "$engine" --perturbation 0 --out "$tmp/s.txt"
expect_usage_error "unknown weight boldness" spsa --engine "$engine" --params boldness \
    --out "$tmp/s.txt"
expect_usage_error "--engine/--each" spsa --engine "$engine" --each depth=x --out "$tmp/s.txt"
expect_usage_error "--engine/--each: tc: expected seconds" spsa --engine "$engine" \
    --each tc=1e12 --out "$tmp/s.txt"
expect_usage_error "Courtier has no weights" spsa --engine "$engine" --ruleset courtier \
    --out "$tmp/s.txt"
checks=$((checks + 1))
run spsa --engine "$tmp/no-engine" --each depth=1 --iterations 2 --out "$tmp/s.txt"
if [[ $rc -ne 1 ]] || [[ $(wc -l <"$tmp/err") -ne 1 ]] ||
    ! grep -q "^dejarik-tune: error: spsa iteration 1: .*fault" "$tmp/err"; then
    fail "[spsa, no engine] exit code $rc, expected 1 and one line: $(cat "$tmp/err")"
fi
checks=$((checks + 1))
run spsa --engine "$engine" --ruleset holochess --each depth=1 --iterations 3 \
    --params holochessCalibration,holochessExposure,holochessMobilityCap --out "$tmp/s.txt"
if [[ $rc -ne 0 ]]; then
    fail "[spsa] exit code $rc: $(cat "$tmp/err")"
elif ! grep -qE "^iteration 3/3 c [0-9.]+ a [0-9.]+ mean result [-+][0-9.]+ luck variance x[0-9.]+ [0-9]+ s: holochessCalibration=[0-9.]+ holochessExposure=[0-9.]+ holochessMobilityCap=[0-9]+$" "$tmp/err"; then
    fail "[spsa] no progress line: $(cat "$tmp/err")"
elif [[ -s $tmp/out ]]; then
    fail "[spsa] printed on stdout: $(head -c 200 "$tmp/out")"
elif ! grep -q "^# dejarik-tune spsa --ruleset holochess --iterations 3 of 3" "$tmp/s.txt"; then
    fail "[spsa] the file's first line: $(head -1 "$tmp/s.txt")"
elif ! "$engine" analyse --depth 1 --eval-file "$tmp/s.txt" >"$tmp/out" 2>"$tmp/err"; then
    fail "[spsa] the weights file does not load: $(cat "$tmp/err")"
fi

finish
