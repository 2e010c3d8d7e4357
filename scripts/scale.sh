#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make scale: the whole-system row of the working-set sweep.  Boots the
# stock and the patched guest kernel, each with SELinux enforcing and with
# lsm=capability, in the scale scenario of the benchmark guest
# (BENCH_SCENARIO=scale: the project policy with 256 categories): lat_kill
# forks as many processes as the largest working set, each at a level of
# its own, and sends null signals to the first K of them in turn, one
# permission check per signal among K distinct keys, for each K of
# SCALE_KEYS.  Per K: SELinux's cost per signal (enforcing minus
# lsm=capability, guest instructions under qemu -icount), stock against
# patched, the share of the patched kernel's checks its per-CPU cache
# answered or bypassed, and the AVC's hit rate in both.
#
# Usage: scale.sh
# Environment:
#   SCALE_KEYS     working sets, in keys per CPU (default 16 32 64 128
#                  256 512 1024 2048 4096 8192)
#   SCALE_ITERS    timed signals per working set (default 132122: two of
#                  the per-CPU cache's bypass periods at 128 slots)
#   SCALE_WARMUP   signals before them (default 140000)
#   SCALE_MEM      guest memory in MiB (default 2048: 8,192 processes)
#   KERNELS, BENCH_TIMEOUT, BENCH_JOBS, BENCH_CMDLINE, RESULTS as for bench.sh
# x86_64 guests only.  Writes RESULTS/scale.txt, .csv, .json and .png; the
# logs in RESULTS/logs/scale/.
. "$(dirname "$0")/lib.sh"
lock_build

flavor=$BA_FRAGMENT
SCALE_KEYS=${SCALE_KEYS:-16 32 64 128 256 512 1024 2048 4096 8192}
SCALE_ITERS=${SCALE_ITERS:-132122}
SCALE_WARMUP=${SCALE_WARMUP:-140000}
SCALE_MEM=${SCALE_MEM:-2048}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-1800}
BENCH_JOBS=${BENCH_JOBS:-$(nproc)}
KERNELS=${KERNELS:-stock patched}
RESULTS=${RESULTS:-$RESULTS_TOP}
QEMU=${QEMU:-$BA_QEMU}

[ "$BENCH_ARCH" = x86_64 ] ||
	die "make scale runs the x86_64 guests only, not BENCH_ARCH=$BENCH_ARCH (its results would share results/ with them)"
[ "${POLICY:-project}" = project ] ||
	die "make scale needs the project policy (its levels), not POLICY=$POLICY"
for v in SCALE_ITERS SCALE_WARMUP SCALE_MEM BENCH_JOBS; do
	case ${!v} in ''|*[!0-9]*|0) die "$v must be a positive integer" ;; esac
done
[ -n "$SCALE_KEYS" ] || die "SCALE_KEYS is empty"
for k in $SCALE_KEYS; do
	case $k in ''|*[!0-9]*|0) die "SCALE_KEYS: '$k' is not a positive integer" ;; esac
	[ "$k" -le 16384 ] || die "SCALE_KEYS: at most 16384 keys, not $k"
done
need_tools "$QEMU:$BA_PACKAGES" gnuplot:gnuplot-nox python3:python3
need_kernels "$flavor" "$BA_IMAGE"

"$TOP/tools/testing/selinux-avc-bench/guest.sh" project
initrd=$GUEST_DIR/initrd-project.gz
[ -s "$GUEST_POLICY_DIR/policy-project/policy-scale.bin" ] ||
	die "the guest policy has no working-set sweep variant (policy-scale.bin)"
logs=$RESULTS/logs/scale
mkdir -p "$logs"
read -ra karr <<< "$SCALE_KEYS"
keys=$(IFS=,; echo "${karr[*]}")
nkeys=${#karr[@]}

# One guest (run_guests in lib.sh): KERNEL in MODE (selinux or none).
boot() {
	local k=$1 mode=$2 log=$3
	local append="console=$BA_CONSOLE quiet BENCH_SCENARIO=scale BENCH_KILL_KEYS=$keys BENCH_KILL_ARGS=-N,$SCALE_ITERS,-w,$SCALE_WARMUP${BENCH_CMDLINE:+ $BENCH_CMDLINE}"
	[ "$mode" = none ] && append="$append lsm=capability"
	BA_MEM=$SCALE_MEM bench_guest "$BENCH_TIMEOUT" "$OUTDIR/$k-$flavor/$BA_IMAGE" \
		"$initrd" "$append" "$log"
}

# Results a guest prints: one a working set.
nresults() {
	echo "$nkeys"
}

runs=()
for k in $KERNELS; do
	for mode in selinux none; do
		runs+=("$k:$mode")
		rm -f "$logs/$k-$mode.log"
	done
done
msg "scale: ${#runs[@]} guests, working sets of ${keys//,/, } keys, $SCALE_ITERS timed signals each"
run_guests "RESULT kill0" "$logs" "${runs[@]}"
[ -z "$failed" ] || die "guests failed:$failed (logs: ${logs#"$TOP"/}/)"
specs=()
for r in "${runs[@]}"; do
	guest_finished "$logs/${r/:/-}.log"
	specs+=("$r:$logs/${r/:/-}.log")
done

python3 "$TOP/tools/testing/selinux-avc-bench/scale.py" "$RESULTS" \
	"$SCALE_ITERS" "${specs[@]}" || die "cannot sum up the sweep (logs: ${logs#"$TOP"/}/)"

gnuplot <<EOF_PLOT || die "gnuplot failed"
set terminal pngcairo size 900,800 noenhanced font ",10"
set output '$RESULTS/scale.png'
set multiplot layout 2,1
set logscale x 2
set grid
set datafile missing '-'
set key top left
set xlabel 'distinct keys checked in turn (processes signalled, each at its own level)'
set ylabel 'instructions per kill(pid, 0), SELinux minus lsm=capability'
set logscale y
set title 'Working-set sweep, whole system (make scale, $flavor): cost per check'
plot '$RESULTS/scale.dat' using 1:2 with linespoints title 'stock', '' using 1:3 with linespoints title 'patched'
unset logscale y
set key below
set yrange [0:105]
set ylabel 'share of the checks, %'
set title 'Where the checks were answered'
plot '$RESULTS/scale.dat' using 1:4 with linespoints title 'patched: per-CPU cache hits', '' using 1:5 with linespoints title 'patched: bypassed (the cache judged that it does not pay)', '' using 1:6 with linespoints title 'stock: AVC hits', '' using 1:7 with linespoints dashtype 2 title 'patched: AVC hits behind the per-CPU cache'
unset multiplot
EOF_PLOT
msg "results: ${RESULTS#"$TOP"/}/scale.{txt,csv,json,png}"
