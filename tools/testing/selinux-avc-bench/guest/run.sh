#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs the benchmark suite: the "op" lines of /bench/rows.conf, in their
# order.  Started by /init; with SELinux on, every benchmark is exec'd
# into DOMAIN through /proc/self/attr/exec.
# Usage: run.sh [DOMAIN]
# Every result line is "SELINUX-AVC-BENCH: RESULT <lmbench-style line>".
# With BENCH_OP=<op> (make profile) only that benchmark runs, and its
# measured windows are reported as "SELINUX-AVC-BENCH: WINDOW N ops M";
# BENCH_OP_ARGS (words joined by commas, from the kernel command line)
# then replaces that benchmark's arguments (make walk: pathwalk's tree).
# With BENCH_SCENARIO=churn (set by /init, which runs a churner beside it)
# it runs only the churn scenario's ops (rows.conf's "churn" line); with
# BENCH_SCENARIO=neveraudit, only the neveraudit scenario's.
M=SELINUX-AVC-BENCH
R=/bench/rows.conf
scale=${BENCH_SCALE:-100}
scenario=${BENCH_SCENARIO:-}
cd /tmp || exit 1
if [ -n "$1" ]; then
	set -- serun exec "$1"
fi
wrap="$*"

n() { echo $(($1 * scale / 100 + 1)); }

run() {
	$wrap "$@" 2>&1 >/dev/null | while read -r l; do
		case $l in
		"window "*) echo "$M: WINDOW ${l#window }" ;;
		*) echo "$M: RESULT $l" ;;
		esac
	done
}

# bench OP: rows.conf's "op OP COUNT NEEDS PROGRAM [ARG...]".
bench() {
	local l count prog name=$1

	l=$(awk -v op="$1" '$1 == "op" && $2 == op' $R)
	if [ -z "$l" ]; then
		echo "$M: ERROR unknown benchmark '$1'"
		return
	fi
	# The fields are words without wildcards.
	# shellcheck disable=SC2086
	set -- $l
	count=$3
	prog=$5
	shift 5
	if [ -n "${BENCH_OP_ARGS:-}" ] && [ "$name" = "${BENCH_OP:-}" ]; then
		# Words without wildcards, as rows.conf's.
		# shellcheck disable=SC2046
		set -- $(echo "$BENCH_OP_ARGS" | tr , ' ')
	fi
	run "/bench/$prog" -N "$(n "$count")" "$@"
}

echo "$M: CONTEXT $($wrap /bench/serun context 2>/dev/null || echo none)"
if [ -n "${BENCH_OP:-}" ]; then
	export BENCH_WINDOWS=1
	bench "$BENCH_OP"
	exit 0
fi
if [ -n "$scenario" ]; then
	ops=$(awk -v s="$scenario" '$1 == s { $1 = ""; print }' $R)
else
	ops=$(awk '$1 == "op" { print $2 }' $R)
fi
for op in $ops; do
	bench "$op"
done
