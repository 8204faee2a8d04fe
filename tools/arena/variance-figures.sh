#!/usr/bin/env bash
# The variance figures of docs/arena.md: one match played with independent dice and with
# duplicate dice (same seed, same deals), and the standard deviation of a pair's score in
# each, plain and luck-adjusted.
#
# Usage: tools/arena/variance-figures.sh PAIRS "ENGINE ITEMS" "ENGINE ITEMS" [ARENA OPTIONS...]
#   e.g. tools/arena/variance-figures.sh 2000 "builtin=greedy seed=1" "builtin=greedy seed=2"
# ARENA (default build/dejarik-arena) names the arena binary.
set -euo pipefail
arena=${ARENA:-build/dejarik-arena}
pairs=$1
first=$2
second=$3
shift 3
declare -A sd adj
for dice in independent duplicate; do
    # shellcheck disable=SC2086 # the engine items are meant to split into words
    out=$("$arena" --engine $first name=A --engine $second name=B --pairs "$pairs" \
        --dice "$dice" --quiet "$@")
    line=$(grep -E '^  A vs B +score' <<<"$out")
    sd[$dice]=$(sed -E 's/.*pair sd ([0-9.]+) -> ([0-9.]+).*/\1/' <<<"$line")
    adj[$dice]=$(sed -E 's/.*pair sd ([0-9.]+) -> ([0-9.]+).*/\2/' <<<"$line")
    score=$(grep -E '^A vs B ' <<<"$out" | awk '{print $9}')
    echo "$dice: score $score, pair sd ${sd[$dice]}, luck-adjusted ${adj[$dice]}"
done
awk -v i="${sd[independent]}" -v d="${sd[duplicate]}" -v a="${adj[duplicate]}" 'BEGIN {
    printf "variance against independent dice: duplicate x%.2f, duplicate + luck-adjusted x%.2f\n",
        (d * d) / (i * i), (a * a) / (i * i)
    printf "interval width: duplicate x%.2f, duplicate + luck-adjusted x%.2f\n", d / i, a / i
}'
