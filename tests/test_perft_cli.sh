#!/usr/bin/env bash
# dejarik-perft as a user runs it: usage errors exit 2 with one line on stderr and nothing on
# stdout; the output follows PROTOCOL.md "Perft output" exactly (divide lines, a blank line,
# the total; at depth 0 only the blank line and "Nodes searched: 1").
#
# Usage: test_perft_cli.sh path/to/dejarik-perft
set -u

tool=${1:?usage: $0 path/to/dejarik-perft}
source "$(dirname "$0")/cli_checks.sh"

# expect_output EXPECTED ARGS...: exit code 0 and exactly this stdout.
expect_output() {
    local expected=$1
    shift
    checks=$((checks + 1))
    run "$@"
    if [[ $rc -ne 0 ]]; then
        fail "[$*] exit code $rc: $(cat "$tmp/err")"
    elif [[ $(cat "$tmp/out"; echo .) != "$expected"$'\n'. ]]; then
        fail "[$*] stdout differs:"$'\n'"$(cat "$tmp/out")"$'\n'"--- expected:"$'\n'"$expected"
    fi
}

melee='S/Hk...mN....l/tG.........g 1 2 0 1'

# --- usage errors -------------------------------------------------------------------------
expect_usage_error 'bogus' --startpos --depth 1 --bogus
expect_usage_error 'depth' --startpos --depth
expect_usage_error 'depth' --startpos --depth abc
expect_usage_error 'depth' --startpos --depth -1
expect_usage_error 'depth must be from 0 to 30' --startpos --depth 31
expect_usage_error 'depth' --startpos
expect_usage_error 'startpos' --depth 1
expect_usage_error 'startpos' --startpos --dfen "$melee" --depth 1
expect_usage_error 'chess' --ruleset chess --startpos --depth 1
expect_usage_error 'Foo' --option Foo=1 --startpos --depth 1
expect_usage_error 'Name=Value' --option Dice --startpos --depth 1
expect_usage_error 'd12' --option Dice=d12 --startpos --depth 1
expect_usage_error 'CentreWin' --option CentreWin=99 --startpos --depth 1
expect_usage_error 'positional' --startpos --depth 1 extra

# --- bad positions and events -------------------------------------------------------------
expect_usage_error 'DFEN cells' --dfen './.........../.GHSN..mltk. 1 2 0 1' --depth 1
expect_usage_error 'DFEN side' --dfen './............/.GHSN..mltk. 3 2 0 1' --depth 1
expect_usage_error 'DFEN turn' --dfen './............/.GHSN..mltk. 1 2 0 0' --depth 1
expect_usage_error 'DFEN holds' --ruleset dalsian-classic \
    --dfen 'N/..k........./...G....mt.. 1 2 0 9 3/0' --depth 1
expect_usage_error 'fields' --dfen 'nonsense' --depth 1
expect_usage_error "'c2-c3' is not legal" --startpos --moves 'c2-c3' --depth 1
expect_usage_error "event 2 'zz' is not an event" --startpos --moves 'c2-b1 zz' --depth 1
expect_usage_error "'kill' is not legal" --dfen './Tn.lL......./........k... 1 2 0 1' \
    --moves 'b1xb2 kill' --depth 1
expect_usage_error 'already over' --dfen 'L/n.........../...S........ 1 2 0 1' \
    --moves 'axb1 kill pass' --depth 1

# --- output format ------------------------------------------------------------------------
expect_output 'Nodes searched: 4611' --startpos --depth 3
expect_output 'Nodes searched: 4611' --startpos --depth 3 --unmake
expect_output 'Nodes searched: 1' --startpos --depth 0
expect_output $'\nNodes searched: 1' --startpos --depth 0 --divide
expect_output $'\nNodes searched: 1' --dfen "$melee" --depth 0 --divide --unmake
expect_output 'Nodes searched: 248' --ruleset holochess --startpos --depth 2
expect_output 'Nodes searched: 9003' --dfen "$melee" --option BlockedPush=kill-on-push --depth 3
expect_output 'Nodes searched: 6808' --dfen "$melee" --option KingOfTheCentre=true --depth 3
expect_output 'Nodes searched: 0' --dfen 'L/n.........../...S........ 1 2 0 1' \
    --moves 'axb1 counterkill' --depth 1
expect_output $'pass: 1\n\nNodes searched: 1' --ruleset dalsian \
    --dfen './t....s....../Hg..mNl....k 1 2 0 1' --depth 2 --divide
expect_output $'c2-a: 1\nc2-b1: 1\nc2-b3: 1\nc2-c12: 1\nc3-b3: 1\nc4-a: 1\nc4-b3: 1\nc4-b5: 1\nc5-b5: 1\nc5-c6: 1\n\nNodes searched: 10' \
    --startpos --depth 1 --divide

# Courtier (RULES §14): its start, a capture choice, its DFEN and option errors.
expect_output 'Nodes searched: 4348' --ruleset courtier --startpos --depth 4
expect_output 'Nodes searched: 4348' --ruleset courtier --startpos --depth 4 --unmake
expect_output $'b9-axb1: 1\nb9-axb3: 1\nb9-axb5: 1\nb9-b8: 1\nb9-b10: 1\nc1-c2: 1\nc1-c12: 1\nc3-c2: 1\nc3-c4: 1\nc5-c4: 1\nc5-c6: 1\nc9-c8: 1\nc9-c10: 1\n\nNodes searched: 13' \
    --ruleset courtier --dfen './u.u.u...U.../U.U.U.w.W.u. 1 1 0 1' --depth 1 --divide
expect_output 'Nodes searched: 10' --ruleset courtier \
    --dfen './u.u.u...U.../U.U.U.w.W.u. 1 1 0 1' --moves 'b9-axb3' --depth 1
expect_usage_error "'b9-a' is not legal" --ruleset courtier \
    --dfen './u.u.u...U.../U.U.U.w.W.u. 1 1 0 1' --moves 'b9-a' --depth 1
expect_usage_error 'two Kings' --ruleset courtier --dfen './............/UUUWUWuuuwuu 1 1 0 1' \
    --depth 1
expect_usage_error 'not a Courtier letter' --ruleset courtier --depth 1 \
    --dfen './............/.GHSN..mltk. 1 2 0 1'
expect_usage_error 'does not apply to Ruleset courtier' --ruleset courtier --option Dice=d20 \
    --startpos --depth 1

# The melee divide of PERFT.md, compared as a set (the order is the engine's), then the
# blank line and the total; --unmake prints the very same bytes.
melee_divide='a-b10: 21
a-b11: 21
a-b3: 20
a-b4: 21
a-b5: 22
a-b8: 20
a-b9: 21
a-c10: 16
a-c11: 16
a-c3: 13
a-c4: 15
a-c5: 16
a-c8: 16
a-c9: 17
axb12: 3
axb2: 4
axb6: 4
b1xb12: 4
b1xb2: 4
b1xc1: 4
b7-b8: 26
b7-c7: 28
b7xb6: 4
c2-b3: 25
c2-c4: 26
c2xb2: 4
c2xc1: 4'
for mode in copy unmake; do
    checks=$((checks + 1))
    extra=()
    [[ $mode == unmake ]] && extra=(--unmake)
    run --dfen "$melee" --depth 2 --divide "${extra[@]}"
    cp "$tmp/out" "$tmp/divide-$mode"
    total=$(wc -l <"$tmp/out")
    if [[ $rc -ne 0 ]]; then
        fail "melee divide ($mode): exit code $rc"
    elif [[ $total -ne 29 ]]; then
        fail "melee divide ($mode): $total lines, expected 27 + blank + total"
    elif [[ $(head -n 27 "$tmp/out" | LC_ALL=C sort) != "$(LC_ALL=C sort <<<"$melee_divide")" ]]; then
        fail "melee divide ($mode) differs from PERFT.md:"$'\n'"$(cat "$tmp/out")"
    elif [[ $(sed -n 28p "$tmp/out") != '' ]]; then
        fail "melee divide ($mode): line 28 is not blank"
    elif [[ $(sed -n 29p "$tmp/out") != 'Nodes searched: 395' ]]; then
        fail "melee divide ($mode): last line is '$(sed -n 29p "$tmp/out")'"
    fi
done
checks=$((checks + 1))
cmp -s "$tmp/divide-copy" "$tmp/divide-unmake" || fail "--unmake divide differs from copy-make"

# The counter-push placement divide, decided by player 2.
expect_output $'a-b3: 20\na-b4: 21\na-b5: 22\na-b8: 20\na-b9: 21\na-b10: 21\na-b11: 21\n\nNodes searched: 146' \
    --dfen "$melee" --moves 'axb2 counterpush' --depth 2 --divide

# The timing goes to stderr, one line, so that stdout stays the protocol format.
checks=$((checks + 1))
run --startpos --depth 2
if [[ $rc -ne 0 || $(wc -l <"$tmp/err") -ne 1 ]] || ! grep -q 'leaves/s' "$tmp/err"; then
    fail "timing line on stderr: rc $rc, '$(cat "$tmp/err")'"
fi

# --- creature files (RULES §16) and set-ups (§15) ----------------------------------------
creatures="$(cd "$(dirname "$0")/../data/creatures" && pwd)"
expect_output 'Nodes searched: 4611' --option "CreatureFile=$creatures/kelly.txt" --startpos --depth 3
expect_output 'Nodes searched: 14923' --option "CreatureFile=$creatures/mirror-raiders.txt" \
    --startpos --depth 3
expect_usage_error 'missing.txt:' --option "CreatureFile=$creatures/missing.txt" --startpos \
    --depth 1
expect_usage_error "'S' on a is not" --option "CreatureFile=$creatures/mirror-raiders.txt" \
    --dfen "$melee" --depth 1
expect_output 'Nodes searched: 5760' --option Setup=arrange --startpos --depth 3
expect_output 'Nodes searched: 5760' --option Setup=arrange --startpos --depth 3 --unmake
expect_output $'setup:gghh: 1\nsetup:ghgh: 1\nsetup:ghhg: 1\nsetup:hggh: 1\nsetup:hghg: 1\nsetup:hhgg: 1\n\nNodes searched: 6' \
    --dfen './............/............/GGHHmmll 1 2 0 1' --depth 1 --divide
expect_output 'Nodes searched: 4200' --dfen './............/............/SGHNmtkl 1 2 0 1' \
    --moves 'setup:ghsn' --depth 3
expect_usage_error 'home cell c3' --dfen './............/..m........./SGHN 1 2 0 1' --depth 1

# --- Rays of Death (docs/rules.md): numbers of tests/test_rays.cpp ---------------------------
expect_output 'Nodes searched: 1688' --option RaysOfDeath=true --startpos --depth 3
expect_output 'Nodes searched: 1688' --option RaysOfDeath=true --startpos --depth 3 --unmake
expect_output 'Nodes searched: 468' --option RaysOfDeath=true --dfen "$melee rays:?/-/-" --depth 2
expect_usage_error 'RaysOfDeath=true' --dfen "$melee rays:a/-/-" --depth 1
expect_usage_error "done must be" --option RaysOfDeath=true --dfen "$melee rays:a/-/x" --depth 1

# --help works and keeps the measurement switch hidden.
checks=$((checks + 1))
run --help
if [[ $rc -ne 0 ]] || ! grep -q -- '--divide' "$tmp/out" || grep -q -- '--unmake' "$tmp/out"; then
    fail "--help: rc $rc"$'\n'"$(cat "$tmp/out")"
fi

finish
