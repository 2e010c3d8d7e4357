#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs the benchmark suite.  Started by /init; with SELinux on, every
# benchmark is exec'd into DOMAIN through /proc/self/attr/exec.
# Usage: run.sh [DOMAIN]
# Every result line is "SELINUX-AVC-BENCH: RESULT <lmbench-style line>".
# With BENCH_OP=<op> (make profile) only that benchmark runs, and its
# measured windows are reported as "SELINUX-AVC-BENCH: WINDOW N ops M".
# With BENCH_SCENARIO=churn (set by /init, which runs a churner beside it)
# it runs only the churn subset, and its labels say "Churn" where the
# programs say "Simple" or "Path walk", so that the rows stay apart from
# the suite's.
M=SELINUX-AVC-BENCH
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
		if [ "$scenario" = churn ]; then
			case $l in
			"Simple "*) l="Churn ${l#Simple }" ;;
			"Path walk"*) l="Churn path walk${l#Path walk}" ;;
			esac
		fi
		case $l in
		"window "*) echo "$M: WINDOW ${l#window }" ;;
		*) echo "$M: RESULT $l" ;;
		esac
	done
}

# bench OP: one benchmark; fs runs create and unlink, in that order, and
# fs_dir mkdir and rmdir.
bench() {
	case $1 in
	null|read|write|fstat) run /bench/lat_syscall -N "$(n 200000)" "$1" ;;
	stat|open) run /bench/lat_syscall -N "$(n 50000)" "$1" ;;
	socket) run /bench/lat_syscall -N "$(n 20000)" socket ;;
	pipe_self) run /bench/lat_pipe -N "$(n 100000)" self ;;
	pipe|unix) run /bench/lat_pipe -N "$(n 20000)" "$1" ;;
	fs) run /bench/lat_fs -N "$(n 10000)" /tmp ;;
	fs_dir) run /bench/lat_fs -d -N "$(n 5000)" /tmp ;;
	pathwalk) run /bench/pathwalk -N "$(n 5)" /tmp ;;
	fork) run /bench/lat_proc -N "$(n 2000)" fork ;;
	exec) run /bench/lat_proc -N "$(n 1000)" exec ;;
	exec_trans) run /bench/lat_proc -N "$(n 1000)" -p /bench/hello_trans exec_trans ;;
	shell) run /bench/lat_proc -N "$(n 500)" shell ;;
	mmap) run /bench/lat_mmap -N "$(n 20000)" ;;
	unix_connect) run /bench/lat_unix_connect -N "$(n 5000)" /tmp ;;
	macro) run /bench/lat_make -N "$(n 2)" /tmp /bench/make.sh ;;
	*) echo "$M: ERROR unknown benchmark '$1'" ;;
	esac
}

echo "$M: CONTEXT $($wrap /bench/serun context 2>/dev/null || echo none)"
if [ -n "${BENCH_OP:-}" ]; then
	export BENCH_WINDOWS=1
	bench "$BENCH_OP"
	exit 0
fi
if [ "$scenario" = churn ]; then
	# The checks a churner's permissive grants can slow down (stat,
	# open, path walk), and read, which makes no AVC check.
	for op in stat read open pathwalk; do
		bench $op
	done
	exit 0
fi
for op in null read write fstat stat open socket pipe_self pipe unix fs \
	fs_dir pathwalk fork exec exec_trans shell mmap unix_connect macro; do
	bench $op
done
