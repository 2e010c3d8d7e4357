#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs the benchmark suite.  Started by /init; with SELinux on, every
# benchmark is exec'd into DOMAIN through /proc/self/attr/exec.
# Usage: run.sh [DOMAIN]
# Every result line is "SELINUX-AVC-BENCH: RESULT <lmbench-style line>".
M=SELINUX-AVC-BENCH
scale=${BENCH_SCALE:-100}
cd /tmp || exit 1
if [ -n "$1" ]; then
	set -- serun exec "$1"
fi
wrap="$*"

n() { echo $(($1 * scale / 100 + 1)); }

run() {
	$wrap "$@" 2>&1 >/dev/null | while read -r l; do
		echo "$M: RESULT $l"
	done
}

echo "$M: CONTEXT $($wrap /bench/serun context 2>/dev/null || echo none)"
for op in null read write fstat; do
	run /bench/lat_syscall -N "$(n 200000)" $op
done
for op in stat open; do
	run /bench/lat_syscall -N "$(n 50000)" $op
done
run /bench/lat_pipe -N "$(n 100000)" self
run /bench/lat_pipe -N "$(n 20000)" pipe
run /bench/lat_pipe -N "$(n 20000)" unix
run /bench/lat_fs -N "$(n 10000)" /tmp
run /bench/pathwalk -N "$(n 5)" /tmp
