#!/bin/sh
# instructions.sh TEST_BINARY BENCHMARK N: runs the benchmark N times
# under cachegrind (one thread, no GC) and prints the instructions the
# process executed, runtime.memclrNoHeapPointers left out (the hot paths
# never call it, and the setup's large allocations clear fresh pages or
# not from one run to the next). The benchmark targets run it at two
# counts and divide the difference.
set -e
bin=$1 bench=$2 n=$3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
GOMAXPROCS=1 GOGC=off valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$out" \
	"$bin" -test.run='^$' -test.bench="$bench" -test.benchtime="${n}x" >/dev/null 2>&1
cg_annotate --auto=no --threshold=0 "$out" | awk '{n=$1; gsub(",", "", n)} /PROGRAM TOTALS/ {t=n} /runtime\.memclrNoHeapPointers$/ {c=n} END {print t-c}'
