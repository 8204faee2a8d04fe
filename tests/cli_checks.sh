# The checks of a command-line tool as a user runs it, sourced by the tools' CLI tests:
# `tool` names the binary before sourcing; run, fail and expect_usage_error count checks
# and failures, and finish prints the closing "N passed, N failed" line and sets the exit
# code. A usage error is exit code 2, nothing on stdout and one stderr line that starts with
# "<tool name>: error: " and names what was wrong.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
toolName=$(basename "$tool")

failures=0
checks=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# run ARGS...: runs the tool; leaves $tmp/out, $tmp/err and $rc.
run() {
    "$tool" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}

# expect_usage_error WHAT ARGS...: exit code 2, stdout empty, one stderr line naming WHAT.
expect_usage_error() {
    local what=$1
    shift
    checks=$((checks + 1))
    run "$@"
    local lines
    lines=$(wc -l <"$tmp/err")
    if [[ $rc -ne 2 ]]; then
        fail "[$*] exit code $rc, expected 2"
    elif [[ -s $tmp/out ]]; then
        fail "[$*] printed on stdout: $(head -c 200 "$tmp/out")"
    elif [[ $lines -ne 1 ]]; then
        fail "[$*] $lines lines on stderr, expected 1: $(cat "$tmp/err")"
    elif ! grep -q "^$toolName: error: " "$tmp/err"; then
        fail "[$*] stderr line lacks the '$toolName: error: ' prefix: $(cat "$tmp/err")"
    elif ! grep -qi -- "$what" "$tmp/err"; then
        fail "[$*] stderr does not mention '$what': $(cat "$tmp/err")"
    fi
}

finish() {
    echo "$((checks - failures)) passed, $failures failed"
    [[ $failures -eq 0 ]]
}
