#!/usr/bin/env bash
# The bench node count is the build's signature (PROTOCOL.md `bench`): it changes only when
# search or eval change, and then on purpose. The expected count is kept in
# tests/bench-signature; a commit that changes it updates that file and says "Bench: N" in its
# message. The count is the same from g++ and clang, with or without FMA instructions
# (CMakeLists.txt turns floating-point contraction off), so a mismatch is a change of
# behaviour, not of compiler or machine.
#
# Usage: test_bench_signature.sh path/to/dejarik path/to/bench-signature
set -u
engine=${1:?usage: $0 path/to/dejarik path/to/bench-signature}
file=${2:?usage: $0 path/to/dejarik path/to/bench-signature}
expected=$(tr -d '[:space:]' <"$file")
line=$("$engine" bench 2>/dev/null | tail -n 1)
nodes=$(awk '$1 == "bench" && $2 == "nodes" {print $3}' <<<"$line")
if [ -z "$nodes" ]; then
    echo "FAIL: no 'bench nodes N' line from $engine bench (got: $line)" >&2
    exit 1
fi
if [ "$nodes" != "$expected" ]; then
    echo "FAIL: bench signature $nodes, expected $expected (tests/bench-signature)" >&2
    exit 1
fi
echo "bench signature $nodes as expected"
