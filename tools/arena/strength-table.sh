#!/usr/bin/env bash
# The strength table of docs/arena.md: the engine at a fixed depth against the random,
# greedy and cautious baselines, against itself, and a ladder of depths, each row one
# duplicate match with its interval. Prints markdown rows; keeps results and records in OUT,
# and then prints the calibration of what the engine reported (its ev and wdl) against the
# results of its self-play games (`dejarik-arena calibrate`): per ev bin the games and
# decisions in it, the predicted and the observed score ((ev + 1) / 2 against the game's
# points), and whether the gap is within ±0.05 where the bin holds at least 50 games (the
# goal of issue 10). Self-play is where a calibration means something: the ev is the
# expected result between sound players, and against a baseline the engine scores more
# than that by the baseline's errors.
#
# Usage: tools/arena/strength-table.sh RULESET OUT [PAIRS_BASELINE] [PAIRS_LADDER]
# ENGINE (default build/dejarik) and ARENA (default build/dejarik-arena) name the binaries;
# JOBS (default 2) the games at once; DEPTH (default 4) the depth played against the
# baselines and itself; LADDER (default "1 2 3 4 5") the depths of the ladder; BASELINES=0
# leaves out the rows against the baselines, SELFPLAY=0 the self-play row (SELFPLAY_PAIRS
# pairs, default PAIRS_BASELINE, independent dice), HEADER=0 the table's header, BINS
# (default 10) the number of ev bins, ROWS (default dDEPTH-self) the rows whose records
# are calibrated (a glob), PLAYER (default every engine) the engine calibrated;
# CALIBRATION=0 leaves out the calibration, CALIBRATION_ONLY=1 prints only it (from the
# records already in OUT, OUT/RULESET-ROWS.dgn). OPTIONS_RANDOM, OPTIONS_GREEDY and
# OPTIONS_CAUTIOUS, when set, add a row against that baseline for the engine set to play it
# (`dDEPTH+`: engine items such as "option.Opponent=greedy option.EndingsAgainst=greedy"
# given to the depth-DEPTH engine), and where OUT holds the records of the default row against
# the same baseline, a table of the two set side by side (`dejarik-arena compare`: the
# difference per game, plain and luck-adjusted); ARENA_ARGS are added to every match (e.g.
# "--stall-timeout 900000" for the slow first answers of an exact ending).
set -euo pipefail
ruleset=$1
out=$2
pairsBaseline=${3:-100}
pairsLadder=${4:-100}
engine=${ENGINE:-build/dejarik}
arena=${ARENA:-build/dejarik-arena}
jobs=${JOBS:-2}
depth=${DEPTH:-4}
read -r -a ladder <<<"${LADDER:-1 2 3 4 5}"
mkdir -p "$out"

row() {  # row NAME PAIRS ENGINE-ITEMS ENGINE-ITEMS [DICE]
    local name=$1 pairs=$2 first=$3 second=$4 dice=${5:-duplicate} file
    file="$out/$ruleset-$name"
    rm -f "$file.results" "$file.dgn"
    # shellcheck disable=SC2086 # the engine items are meant to split into words
    "$arena" --ruleset "$ruleset" --engine $first --engine $second --pairs "$pairs" \
        --seed 2026 --dice "$dice" -j "$jobs" --quiet --results "$file.results" \
        --records "$file.dgn" ${ARENA_ARGS:-} >"$file.table"
    awk -v ruleset="$ruleset" '
        $2 == "vs" && NF >= 14 && !done {
            match($0, /\[[0-9.]+, [0-9.]+\]/); ci = substr($0, RSTART, RLENGTH)
            match($0, /[+-][0-9.inf]+ ± [0-9.inf]+/); elo = substr($0, RSTART, RLENGTH)
            printf "| %s | %s vs %s | %s | %s-%s-%s | %s %s | %s |", ruleset, $1, $3, $4, $6, $7,
                $8, $9, ci, elo
            done = 1
        }
        /pair sd/ { match($0, /Elo [+-][0-9.inf]+ ± [0-9.inf]+/); adj = substr($0, RSTART + 4, RLENGTH - 4) }
        END { printf " %s |\n", adj == "" ? "—" : adj }' "$file.table"
}

calibration() {
    local rows=${ROWS:-d$depth-self} player=${PLAYER:-}
    # shellcheck disable=SC2206 # the rows are a glob, meant to expand
    local records=("$out/$ruleset"-$rows.dgn)
    [[ -e ${records[0]} ]] || { echo "no records of $ruleset in $out" >&2; return 1; }
    echo
    echo "Calibration of ${player:-every engine} in $ruleset (${#records[@]} record files in $out):"
    echo
    echo "| ev bin | games | decisions | predicted score | observed score | gap | W/D/L predicted | W/D/L observed |"
    echo "|---|---:|---:|---:|---:|---:|---|---|"
    "$arena" calibrate "${records[@]}" ${player:+--player "$player"} --bins "${BINS:-10}" | awk '
        /^\[/ {
            bin = $1 " " $2; decisions = $3; games = $4
            p = ($5 + 1) / 2; a = ($6 + 1) / 2; gap = p - a
            verdict = games < 50 ? "" : (gap <= 0.05 && gap >= -0.05 ? " ok" : " **off**")
            printf "| %s | %d | %d | %.3f | %.3f | %+.3f%s | %s | %s |\n", bin, games, decisions,
                p, a, gap, verdict, $7, $8
        }
        / decisions in / { summary = $0 }
        END { print ""; print summary }'
}

if [[ ${CALIBRATION_ONLY:-0} != 0 ]]; then
    calibration
    exit
fi
if [[ ${HEADER:-1} != 0 ]]; then
    echo "| ruleset | match | pairs | W-D-L | score [95%] | Elo | luck-adjusted Elo |"
    echo "|---|---|---:|---|---|---|---|"
fi
baseline() {  # baseline NAME: the engine items of the engine's Player NAME
    echo "cmd=$engine name=$1 option.Player=$1 depth=1"
}
if [[ ${BASELINES:-1} != 0 ]]; then
    for name in random greedy cautious; do
        row "d$depth-$name" "$pairsBaseline" "cmd=$engine name=d$depth depth=$depth" \
            "$(baseline "$name")"
    done
    row "greedy-random" "$pairsBaseline" "$(baseline greedy)" "$(baseline random)"
fi
compared=()
for name in random greedy cautious; do
    options=OPTIONS_${name^^}
    [[ -n ${!options:-} ]] || continue
    row "d$depth+-$name" "$pairsBaseline" "cmd=$engine name=d$depth+ depth=$depth ${!options}" \
        "$(baseline "$name")"
    # Against the default row of the same deals and dice, when OUT has its records.
    default="$out/$ruleset-d$depth-$name.dgn"
    [[ -e $default ]] || continue
    compared+=("$("$arena" compare "$out/$ruleset-d$depth+-$name.dgn" "$default" \
        --player "d$depth+" --player-b "d$depth" | awk -v ruleset="$ruleset" -v name="$name" '
        /pair by pair:/ {
            match($0, /pair: [0-9]+ pairs/); pairs = substr($0, RSTART + 6, RLENGTH - 12)
            match($0, /\([0-9]+ played/); played = substr($0, RSTART + 1, RLENGTH - 8)
        }
        /^A - B per game:/ { match($0, /[+-][0-9.]+ ± [0-9.]+/); plain = substr($0, RSTART, RLENGTH) }
        /^luck-adjusted:/ {
            adjusted = "—"
            if (match($0, /[+-][0-9.]+ ± [0-9.]+/)) adjusted = substr($0, RSTART, RLENGTH)
        }
        END { printf "| %s | %s | %s | %s | %s | %s |", ruleset, name, pairs, played, plain, adjusted }')")
done
if ((${#compared[@]} > 0)); then
    echo
    echo "| ruleset | against | pairs | played differently | d$depth+ - d$depth per game | luck-adjusted |"
    echo "|---|---|---:|---:|---|---|"
    printf '%s\n' "${compared[@]}"
    echo
fi
if [[ ${SELFPLAY:-1} != 0 ]]; then
    # Independent dice: with duplicate dice the second game of a pair of one engine is the
    # first with the colours swapped, and the calibration would count every game twice.
    row "d$depth-self" "${SELFPLAY_PAIRS:-$pairsBaseline}" \
        "cmd=$engine name=d$depth depth=$depth" "cmd=$engine name=d${depth}b depth=$depth" \
        independent
fi
for ((i = 1; i < ${#ladder[@]}; ++i)); do
    hi=${ladder[$i]} lo=${ladder[$((i - 1))]}
    row "d$hi-d$lo" "$pairsLadder" "cmd=$engine name=d$hi depth=$hi" "cmd=$engine name=d$lo depth=$lo"
done
if [[ ${CALIBRATION:-1} != 0 ]]; then
    calibration
fi
