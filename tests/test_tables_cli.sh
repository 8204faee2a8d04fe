#!/usr/bin/env bash
# dejarik-tb as a user runs it: usage errors exit 2 with one line on stderr and nothing on
# stdout; generate writes a set with a progress line; probe ranks the decisions; verify
# passes on a good file and fails (exit 1) on a corrupted one, which probe names and generate
# then remakes;
# info lists the sets.
#
# Usage: test_tables_cli.sh path/to/dejarik-tb
set -u

tool=${1:?usage: $0 path/to/dejarik-tb}
source "$(dirname "$0")/cli_checks.sh"
root=$tmp/tables

# expect RC PATTERN-FILE PATTERN ARGS...: exit code RC and PATTERN (grep -E) in out or err.
expect() {
    local code=$1 stream=$2 pattern=$3
    shift 3
    checks=$((checks + 1))
    run "$@"
    if [[ $rc -ne $code ]]; then
        fail "[$*] exit code $rc, expected $code: $(head -c 300 "$tmp/err")"
    elif ! grep -qE -- "$pattern" "$tmp/$stream"; then
        fail "[$*] $stream lacks /$pattern/:"$'\n'"$(head -c 1500 "$tmp/$stream")"
    fi
}

sgh='./SGh........./............ 1 2 0 1'

expect_usage_error "no command"
expect_usage_error "unknown command" frobnicate
expect_usage_error "unrecognised option" generate --bogus
expect_usage_error "either --material or --max-pieces" generate --path "$root"
expect_usage_error "either --material or --max-pieces" generate --path "$root" \
    --material "SG v h" --max-pieces 3
expect_usage_error "'X'" generate --path "$root" --material "SX v h"
expect_usage_error "showdown" generate --path "$root" --material "S v h"
expect_usage_error "--max-pieces" generate --path "$root" --max-pieces 6
expect_usage_error "Rays of Death" generate --path "$root" --option RaysOfDeath=true \
    --material "SG v h"
expect_usage_error "Courtier" generate --path "$root" --ruleset courtier --max-pieces 3
expect_usage_error "CreatureFile" generate --path "$root" --max-pieces 3 \
    --option "CreatureFile=$(dirname "$0")/../data/creatures/kelly.txt"
expect_usage_error "--threads" generate --path "$root" --max-pieces 3 --threads 0
expect_usage_error "ruleset" generate --path "$root" --ruleset chess --max-pieces 3
expect_usage_error "--option" generate --path "$root" --option Dice=d7 --max-pieces 3
expect_usage_error "--dfen is required" probe --path "$root"
expect_usage_error "DFEN" probe --path "$root" --dfen "S/n 1 2 0 1"
expect_usage_error "at most 5" probe --path "$root" --dfen './SGHh......../.....kn..... 1 2 0 1'
expect_usage_error "--moves" probe --path "$root" --dfen "$sgh" --moves "b1-c7"
expect_usage_error "--material" verify --path "$root" --material "SG"
expect 1 err "no tables to verify" verify --path "$tmp/no-tables"
# A path no folder can be made under: the one error line, no progress line before it.
expect_usage_error "--path /dev/null: cannot create /dev/null/" generate --path /dev/null \
    --material "SG v n"
[[ -e $root ]] && fail "usage errors created $root"

expect 0 out "generate" --help
expect 0 out "--max-pieces" generate --help
expect 0 out "--dfen" probe --help

# A missing table: exit 1 and what to generate.
expect 1 err 'generate --material "SG v h"' probe --path "$root" --dfen "$sgh"

expect 0 err '\[1/1\] SG v h .*2360 states.*states/s.*residual.*ETA' \
    generate --path "$root" --material "SG v h"
file=$(ls "$root"/*/SGvh.dtb 2>/dev/null)
[[ -f $file ]] || fail "no SGvh.dtb under $root/<fingerprint>/"
[[ $(basename "$(dirname "$file")") =~ ^[0-9a-f]{16}$ ]] || fail "bad fingerprint directory: $file"
expect 0 err "0 to generate" generate --path "$root" --material "h v GS"

# probe: the value, then every decision ranked (as many lines as legal events).
expect 0 out '^value +[-+][0-9]\.[0-9]{4} for player 1' probe --path "$root" --dfen "$sgh"
first=$(awk '/^ +1  /{print $3}' "$tmp/out")
value=$(awk '/^value/{print $2}' "$tmp/out")
[[ -n $first && $first == "$value" ]] || fail "probe: best decision $first, position value $value"
# Its distance is the best decision's (which counts a move as one action, an attack as 0).
distance=$(awk '/^distance/{print $2}' "$tmp/out")
firstDistance=$(awk '/^ +1  /{print $4}' "$tmp/out")
[[ -n $distance && $distance == "$firstDistance" ]] ||
    fail "probe: distance $distance, best decision's $firstDistance"
decisions=$(grep -cE '^ +[0-9]+  ' "$tmp/out")
[[ $decisions -ge 10 ]] || fail "probe listed $decisions decisions"
expect 0 out '^counterkill +0\.[0-9]+ ' probe --path "$root" --dfen "$sgh" --moves "b2xb3"
expect 0 out 'game is over' probe --path "$root" --dfen './Sh........../............ 1 2 0 1'

expect 0 out '^ok +SG v h .*1 sets checked, 0 failures|1 sets checked, 0 failures' \
    verify --path "$root"
expect 0 out '^ok +SG v h' verify --path "$root"
expect 0 out 'SG v h +2360 states' info --path "$root"
expect 0 out '2v1: 1 sets' info --path "$root"

# Corrupt one value byte: verify fails, info says why, generate makes the set again.
printf '\x55' | dd of="$file" bs=1 seek=1000 conv=notrunc status=none
expect 1 out '^FAIL .*checksum' verify --path "$root"
expect 0 out 'unusable: .*checksum' info --path "$root"
# probe names the corrupt file rather than asking to generate a table that is there.
expect 1 err "^dejarik-tb: error: corrupt table file for this position: $file: .*checksum" \
    probe --path "$root" --dfen "$sgh"
expect 0 err 'will be made again' generate --path "$root" --material "SG v h"
expect 0 out '^ok +SG v h' verify --path "$root"

finish
