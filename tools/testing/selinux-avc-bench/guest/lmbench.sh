#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The lmbench guest's benchmark sequence (make lmbench): scripts/lmbench.sh
# installs it as /bench/run.sh of that guest, in place of run.sh, so the
# same /init loads the policy, labels, enforces and starts it.  It runs
# the "run" lines of /bench/lmbench.conf, lmbench's own programs built
# from the user's checkout (/bench/lmbench/), in their order, each in
# DOMAIN when SELinux is on (serun exec), after the conf's "copy" and
# "file" lines.  Every line a program prints is reported as
# "SELINUX-AVC-BENCH: LMBENCH NAME LINE", its exit status as
# "SELINUX-AVC-BENCH: LMBENCH-END NAME STATUS".
# Usage: run.sh [DOMAIN]
# Kernel command line variables (passed to init as environment):
#   LMBENCH_ENOUGH  microseconds of one timed interval, lmbench's ENOUGH
#                   (default 5000, the shortest lmbench's own calibration
#                   picks; lat_pipe asks for 1 s itself)
#   LMBENCH_REPS    lmbench's -N, the intervals of which the median is
#                   taken (default: lmbench's own, 11)
M=SELINUX-AVC-BENCH
C=/bench/lmbench.conf
B=/bench/lmbench
cd /tmp || exit 1
label=
if [ -n "$1" ]; then
	label=$(awk '$1 == "/bench/*" { print $2 }' /policy/labels)
	set -- serun exec "$1"
fi
wrap="$*"

# What lmbench's scripts/lmbench exports to its programs.  The timing and
# loop overheads are not measured (lmbench's defaults without a config):
# they are the same user-space instructions in every boot.
ENOUGH=${LMBENCH_ENOUGH:-5000}
TIMING_O=0
LOOP_O=0
export ENOUGH TIMING_O LOOP_O
# No address space randomization: each boot would draw other addresses,
# and so other page-table pages for every child (make bench's lat_proc
# turns it off for itself; lmbench's programs do not).
echo 0 > /proc/sys/kernel/randomize_va_space ||
	echo "$M: ERROR cannot turn off address space randomization"
echo "$M: CONTEXT $($wrap /bench/serun context 2>/dev/null || echo none)"
echo "$M: LMBENCH-ENV ENOUGH=$ENOUGH TIMING_O=$TIMING_O LOOP_O=$LOOP_O${LMBENCH_REPS:+ -N $LMBENCH_REPS}"

for f in $(awk '$1 == "copy" { print $2 ":" $3 }' $C); do
	cp "$B/${f%%:*}" "${f#*:}" && { [ -z "$label" ] || serun label "$label" "${f#*:}"; } ||
		echo "$M: ERROR cannot copy $B/${f%%:*} to ${f#*:}"
done
for f in $(awk '$1 == "file" { print $2 ":" $3 }' $C); do
	$wrap /bin/dd if=/dev/zero of="${f%%:*}" bs=1024 count="${f#*:}" 2>/dev/null ||
		echo "$M: ERROR cannot write ${f%%:*}"
done

# lmbench NAME: the conf's line "run NAME SERVER PROGRAM [ARG...]".
lmbench() {
	local name=$1 server prog

	# The fields are words without wildcards.
	# shellcheck disable=SC2046
	set -- $(awk -v n="$name" '$1 == "run" && $2 == n' $C)
	server=$3
	prog=$B/$4
	shift 4
	if [ "$server" = server ]; then
		$wrap "$prog" -s </dev/null
		# The server binds its socket after the command returns.
		sleep 1
	fi
	{
		$wrap "$prog" ${LMBENCH_REPS:+-N "$LMBENCH_REPS"} "$@" 2>&1
		echo "lmbench-exit-status $?"
	} </dev/null | while read -r l; do
		case $l in
		"lmbench-exit-status "*) echo "$M: LMBENCH-END $name ${l#* }" ;;
		*) echo "$M: LMBENCH $name $l" ;;
		esac
	done
	[ "$server" != server ] || $wrap "$prog" -S </dev/null
}

for name in $(awk '$1 == "run" { print $2 }' $C); do
	lmbench "$name"
done
