#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make profile OP=<row>: where the SELinux overhead of one benchmark row
# goes, per kernel function.  Boots the stock and the patched guest kernel,
# each with SELinux enforcing and with lsm=capability, runs only that
# benchmark under qemu TCG with a plugin that counts the instructions
# executed inside its measured window, and prints, for each function under
# security/ (the LSM dispatch included), the instructions per operation
# with SELinux minus without.
#
# Usage: profile.sh OP [FLAVOR]     (OP: a key of make bench's rows, below;
#                                   FLAVOR as for bench.sh, default
#                                   BENCH_ARCH's guest: x86_64-guest,
#                                   arm64-guest, sh4-guest)
# Environment: PROFILE_SCALE (percent of make bench's iterations, default
# 10), KERNELS, POLICY, RESULTS, BENCH_TIMEOUT, BENCH_CMDLINE as for
# bench.sh; BENCH_ARCH (x86_64, arm64 or sh4: the window markers of all
# three are known to the plugin).
# Writes RESULTS/profile-OP.txt and .csv (RESULTS: results/, or
# results/<flavor> on an architecture other than x86_64, as bench.sh's
# arm64-guest and sh4-guest), and the logs under RESULTS/logs/.
. "$(dirname "$0")/lib.sh"
lock_build

op=${1:-}
flavor=${2:-$BA_FRAGMENT}
POLICY=${POLICY:-project}
PROFILE_SCALE=${PROFILE_SCALE:-10}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-900}
KERNELS=${KERNELS:-stock patched}
if [ "$BENCH_ARCH" = x86_64 ]; then
	RESULTS=${RESULTS:-$RESULTS_TOP}
else
	RESULTS=${RESULTS:-$RESULTS_TOP/$flavor}
fi
QEMU=${QEMU:-$BA_QEMU}
bench_row "$op" profile "$flavor"
case $PROFILE_SCALE in ''|*[!0-9]*|0) die "PROFILE_SCALE must be a positive integer" ;; esac
psrc=$TOP/tools/testing/selinux-avc-profile
plugin=$(qemu_plugin insn_profile)

"$TOP/tools/testing/selinux-avc-bench/guest.sh" "$POLICY"
initrd=$GUEST_DIR/initrd-$POLICY.gz
logs=$RESULTS/logs
mkdir -p "$logs"

specs=()
pids=()
start=$SECONDS
msg "profile $op ($flavor): ${KERNELS// /, } kernels, SELinux and lsm=capability, scale $PROFILE_SCALE%"
for k in $KERNELS; do
	for mode in selinux none; do
		log=$logs/profile-$op-$k-$mode.log
		counts=$logs/profile-$op-$k-$mode.counts
		rm -f "$counts"
		append="console=$BA_CONSOLE quiet BENCH_SCALE=$PROFILE_SCALE BENCH_OP=$guest_op${BENCH_CMDLINE:+ $BENCH_CMDLINE}"
		[ "$mode" = none ] && append="$append lsm=capability"
		bench_guest "$BENCH_TIMEOUT" "$OUTDIR/$k-$flavor/$BA_IMAGE" \
			"$initrd" "$append" "$log" \
			-plugin "$plugin,out=$counts,windows=$mask" &
		pids+=($!)
		specs+=("$k:$mode:$counts:$log:$OUTDIR/$k-$flavor")
		# Two guests at a time: the machine has two cores.
		if [ ${#pids[@]} -ge "$(nproc)" ]; then
			wait "${pids[0]}" || die "guest failed (logs: ${logs#"$TOP"/}/profile-$op-*)"
			pids=("${pids[@]:1}")
		fi
	done
done
for p in "${pids[@]}"; do
	wait "$p" || die "guest failed (logs: ${logs#"$TOP"/}/profile-$op-*)"
done
msg "guests finished in $((SECONDS - start))s"
for s in "${specs[@]}"; do
	guest_finished "$(echo "$s" | cut -d: -f4)"
done
PROFILE_WINDOWS=$mask PROFILE_UNIT=$unit python3 "$psrc/profile.py" "$op" "$RESULTS" "${specs[@]}"
msg "results: ${RESULTS#"$TOP"/}/profile-$op.{txt,csv}"
