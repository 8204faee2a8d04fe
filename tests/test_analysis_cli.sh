#!/usr/bin/env bash
# dejarik analyse-game and dejarik rollout as a user runs them: usage errors (a malformed
# record, a game index out of range, a record of unknown rules) exit 2 with one line on
# stderr and nothing on stdout; an analysis prints its tables and writes JSON and SVG; a
# rollout prints its table, the same on one thread and two.
#
# Usage: test_analysis_cli.sh path/to/dejarik path/to/dejarik-arena
set -u

tool=${1:?usage: $0 path/to/dejarik path/to/dejarik-arena}
arena=${2:?usage: $0 path/to/dejarik path/to/dejarik-arena}
source "$(dirname "$0")/cli_checks.sh"

# expect PATTERN ARGS...: exit code 0 and PATTERN (grep -E) on stdout.
expect() {
    local pattern=$1
    shift
    checks=$((checks + 1))
    run "$@"
    if [[ $rc -ne 0 ]]; then
        fail "[$*] exit code $rc: $(head -c 300 "$tmp/err")"
    elif ! grep -qE -- "$pattern" "$tmp/out"; then
        fail "[$*] stdout lacks /$pattern/:"$'\n'"$(head -c 1500 "$tmp/out")"
    fi
}

# Two short games of the greedy and random baselines, one in each seat, and a holochess one.
"$arena" --engine builtin=greedy --engine builtin=random --pairs 1 --seed 4 --quiet \
    --records "$tmp/games.dgn" >/dev/null || fail "dejarik-arena could not write records"
"$arena" --engine builtin=greedy --engine builtin=random --pairs 1 --seed 4 --quiet \
    --ruleset holochess --records "$tmp/holo.dgn" >/dev/null ||
    fail "dejarik-arena could not write records"

expect_usage_error "--records" analyse-game
expect_usage_error "cannot read .*missing.dgn: No such file" analyse-game --records "$tmp/missing.dgn"
expect_usage_error "--game 3: .* holds 2 records" analyse-game --records "$tmp/games.dgn" --game 3
expect_usage_error "--game 0" analyse-game --records "$tmp/games.dgn" --game 0
expect_usage_error "only one of --game and --all" analyse-game --records "$tmp/games.dgn" \
    --game 1 --all
head -c 300 "$tmp/games.dgn" >"$tmp/cut.dgn"
expect_usage_error "line" analyse-game --records "$tmp/cut.dgn"
sed 's/^\[Rules "kelly/[Rules "chess/' "$tmp/games.dgn" >"$tmp/chess.dgn"
expect_usage_error "chess" analyse-game --records "$tmp/chess.dgn"
sed 's/^\[Rules "kelly Dice=pools/[Rules "kelly Dice=d7/' "$tmp/games.dgn" >"$tmp/d7.dgn"
expect_usage_error "d7" analyse-game --records "$tmp/d7.dgn" --game 2
# An event that is not legal where it stands.
sed '0,/^1\. /s/^1\. [^ ]*/1. a-a/' "$tmp/games.dgn" >"$tmp/illegal.dgn"
expect_usage_error "record 1" analyse-game --records "$tmp/illegal.dgn"
expect_usage_error "only one of --depth and --movetime" analyse-game --records \
    "$tmp/games.dgn" --depth 2 --movetime 10

expect "player +decisions" analyse-game --records "$tmp/games.dgn" --all --depth 1 \
    --json "$tmp/a.json" --svg "$tmp/a.svg"
expect "^game 2: " analyse-game --records "$tmp/games.dgn" --all --depth 1
expect "residual" analyse-game --records "$tmp/holo.dgn" --game 2 --movetime 5
# Records of every ruleset.
for ruleset in dalsian-classic dalsian; do
    "$arena" --engine builtin=greedy --engine builtin=random --pairs 1 --seed 2 --quiet \
        --ruleset "$ruleset" --records "$tmp/$ruleset.dgn" >/dev/null ||
        fail "dejarik-arena could not write $ruleset records"
    expect "^2 greedy +[0-9]+ .* [a-z-]+\$" analyse-game --records \
        "$tmp/$ruleset.dgn" --game 2 --depth 1
done
checks=$((checks + 1))
if [[ $(grep -c '"type":"summary"' "$tmp/a.json") -ne 2 ]] ||
   [[ $(grep -c '"type":"decision"' "$tmp/a.json") -lt 4 ]]; then
    fail "--json: expected 2 summaries and decisions: $(head -c 500 "$tmp/a.json")"
fi
checks=$((checks + 1))
if ! grep -q '^<svg ' "$tmp/a.svg" || ! grep -q '<polyline' "$tmp/a.svg" ||
   ! grep -q '</svg>' "$tmp/a.svg"; then
    fail "--svg: no plot in $(head -c 300 "$tmp/a.svg")"
fi

expect_usage_error "--games" rollout --startpos
expect_usage_error "--seed must not be negative" rollout --startpos --games 1 --seed -1
expect_usage_error "'b1-b2'" rollout --startpos --games 2 --candidates "b1-b2"
expect_usage_error "only one of --candidates and --all" rollout --startpos --games 2 \
    --candidates c3-b3 --all
expect_usage_error "--games" rollout --startpos --games 0
expect_usage_error "--threads" rollout --startpos --games 2 --threads 0
expect_usage_error "ruleset" rollout --ruleset chess --games 2

expect "^ +1  \(engine\) " rollout --ruleset dalsian --startpos --games 2 --depth 1 --truncate 4
expect "^ +1  c3-b3 .* [0-9]+ +[0-9]+ +[0-9]+ +2\$" rollout --startpos --games 2 --depth 1 \
    --candidates "c3-b3 c4-a" --truncate 6
cp "$tmp/out" "$tmp/one.txt"
expect "^ +2  c4-a " rollout --startpos --games 2 --depth 1 --candidates "c3-b3 c4-a" \
    --truncate 6 --threads 2
checks=$((checks + 1))
if ! diff <(grep -v playouts/s "$tmp/one.txt") <(grep -v playouts/s "$tmp/out") >/dev/null; then
    fail "rollout: --threads 2 gave other numbers than one thread"
fi

finish
