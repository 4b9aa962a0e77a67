#!/bin/sh
# load.sh WHEN: the host's load average beside the gate's package times, so
# that a race pass slowed by a busy host says so (make race). WHEN is a word
# for the line: before, after, failed.
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
# "load average: 1.2, 0.8, 0.5" (Linux) or "load averages: 1.2 0.8 0.5" (macOS)
set -- $1 $(uptime | sed 's/.*load averages*: *//; s/,//g')
echo "race: $1: load average $2 $3 $4 on $cores cores"
if awk -v l="$2" -v c="$cores" 'BEGIN { exit !(l > c) }'; then
	where=above
	[ "$1" = before ] && where=below
	echo "race: the host is loaded (load $2 > $cores cores): the package times $where are the host's as much as the tests'"
	[ "$1" = failed ] && echo "race: if a package above ran out of its -timeout (\"panic: test timed out\"), the load is the likely cause: run make race again when the load is below $cores, or raise its budget in the Makefile with the times measured"
fi
exit 0
