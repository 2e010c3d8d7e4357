#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: boot the stock and the patched guest kernel under qemu TCG
# with -icount shift=0 (guest nanoseconds = instructions), each with SELinux
# enforcing and with lsm=capability, run the benchmark suite in the guest
# and compare.  Then the same four boots for the permissive churn scenario
# (BENCH_SCENARIO=churn in the guest's init): a few of the benchmarks
# beside a process of the permissive domain whose grants keep emptying the
# patched kernel's per-CPU cache.
#
# Usage: bench.sh [FLAVOR]       (default x86_64-guest; e.g. x86_64-guest+os;
#                                with BENCH_ARCH=arm64: arm64-guest)
# Environment:
#   POLICY=project|debian   guest policy (default project, see tools/testing/selinux-avc-bench/policy.sh)
#   BENCH_SCALE=N           percent of the default iteration counts (100)
#   BENCH_JOBS=N            guests booted in parallel (default: nproc)
#   BENCH_TIMEOUT=S         seconds before a guest is killed (default 900)
#   BENCH_CMDLINE="..."     more kernel parameters for every guest (for
#                           example selinux_avc_pcpu=0)
#   KERNELS="stock patched" kernels to compare (both by default)
#   RESULTS=DIR             output directory (default results/, or
#                           results/<flavor> for flavors other than the default)
#   BENCH_CHURN=0           leave out the churn scenario (only the project
#                           policy has it: POLICY=debian leaves it out too;
#                           on the default base only, unless BENCH_CHURN=1)
#   BENCH_CHURN_PAUSE=US    microseconds the churner sleeps after each of its
#                           stat() calls (default 20)
#   BENCH_NEVERAUDIT=0      leave out the neveraudit scenario (run where the
#                           base has neveraudit types, BASE=7.3: the
#                           permissive domain, also marked neveraudit,
#                           runs rows.conf's neveraudit ops; two guests)
# Writes bench.csv, bench.json, bench.png, avc_stats.txt, size.csv and the
# raw console logs (logs/) to RESULTS.
. "$(dirname "$0")/lib.sh"
lock_build

flavor=${1:-$BA_FRAGMENT}
POLICY=${POLICY:-project}
BENCH_SCALE=${BENCH_SCALE:-100}
BENCH_JOBS=${BENCH_JOBS:-$(nproc)}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-900}
KERNELS=${KERNELS:-stock patched}
# The churn scenario on the default base only: on 7.3 its guest sees no
# high-resolution timers within the 5 s it waits for them.
if [ "$BASE" = "$DEFAULT_BASE" ]; then
	BENCH_CHURN=${BENCH_CHURN:-1}
else
	BENCH_CHURN=${BENCH_CHURN:-0}
fi
BENCH_CHURN_PAUSE=${BENCH_CHURN_PAUSE:-20}
BENCH_NEVERAUDIT=${BENCH_NEVERAUDIT:-1}
if [ "$flavor" = x86_64-guest ]; then
	RESULTS=${RESULTS:-$RESULTS_TOP}
else
	RESULTS=${RESULTS:-$RESULTS_TOP/$flavor}
fi
QEMU=${QEMU:-$BA_QEMU}

case $BENCH_SCALE in ''|*[!0-9]*|0) die "BENCH_SCALE must be a positive integer" ;; esac
case $BENCH_JOBS in ''|*[!0-9]*|0) die "BENCH_JOBS must be a positive integer" ;; esac
case $BENCH_CHURN in 0|1) ;; *) die "BENCH_CHURN must be 0 or 1" ;; esac
case $BENCH_NEVERAUDIT in 0|1) ;; *) die "BENCH_NEVERAUDIT must be 0 or 1" ;; esac
case $BENCH_CHURN_PAUSE in ''|*[!0-9]*|0) die "BENCH_CHURN_PAUSE must be a positive integer" ;; esac
if [ "$BENCH_CHURN" = 1 ] && [ "$BA_INIT" = c ]; then
	warn "the churn scenario needs the busybox guest; left out on BENCH_ARCH=$BENCH_ARCH"
	BENCH_CHURN=0
fi
if [ "$BENCH_CHURN" = 1 ] && [ "$POLICY" != project ]; then
	warn "the churn scenario needs the project policy; left out with POLICY=$POLICY"
	BENCH_CHURN=0
fi

for t in "$QEMU" "${BA_CROSS}size"; do
	command -v "$t" >/dev/null ||
		die "$t not found: apt-get install $([ -n "$BA_CROSS" ] && echo "$BA_PACKAGES" || echo "$BA_PACKAGES binutils") (or run scripts/deps.sh)"
done
need_tools gnuplot:gnuplot-nox python3:python3

# Both kernels must exist before anything is started.
missing=
for k in $KERNELS; do
	case $k in stock|patched) ;; *) die "KERNELS: unknown kernel '$k'" ;; esac
	img=$OUTDIR/$k-$flavor/$BA_IMAGE
	[ -f "$img" ] || missing="$missing $k"
done
if [ -n "$missing" ]; then
	for k in $missing; do
		printf 'error: no %s kernel: %s is missing\n' "$k" \
			"${OUTDIR#"$TOP"/}/$k-$flavor/$BA_IMAGE" >&2
	done
	die "build it first: $([ "$BENCH_ARCH" = x86_64 ] || echo "BENCH_ARCH=$BENCH_ARCH ")scripts/build.sh <stock|patched> $flavor (or make bench, which builds both)"
fi

"$TOP/tools/testing/selinux-avc-bench/guest.sh" "$POLICY"
initrd=$GUEST_DIR/initrd-$POLICY.gz
# The neveraudit scenario needs the policy's neveraudit variant.
if [ "$BENCH_NEVERAUDIT" = 1 ] && [ ! -s "$GUEST_POLICY_DIR/policy-$POLICY/policy-na.bin" ]; then
	BENCH_NEVERAUDIT=0
fi

mkdir -p "$RESULTS/logs"
rm -f "$RESULTS"/logs/*.log

# One guest: boot KERNEL in MODE (selinux, none, churn-selinux,
# churn-none or na-selinux), console to LOG (bench_guest in lib.sh).
boot() {
	local k=$1 mode=$2 log=$3 append="console=$BA_CONSOLE quiet BENCH_SCALE=$BENCH_SCALE${BENCH_CMDLINE:+ $BENCH_CMDLINE}"
	case $mode in
	churn-*) append="$append BENCH_SCENARIO=churn BENCH_CHURN_PAUSE=$BENCH_CHURN_PAUSE" ;;
	na-*) append="$append BENCH_SCENARIO=neveraudit" ;;
	esac
	case $mode in
	*none) append="$append lsm=capability" ;;
	esac
	bench_guest "$BENCH_TIMEOUT" "$OUTDIR/$k-$flavor/$BA_IMAGE" "$initrd" "$append" "$log"
}

# Results a guest of MODE prints.
nresults() {
	case $1 in
	churn-*) bench_nresults churn ;;
	na-*) bench_nresults neveraudit ;;
	*) bench_nresults ;;
	esac
}

runs=()
for k in $KERNELS; do
	for mode in selinux none; do
		runs+=("$k:$mode")
	done
done
if [ "$BENCH_CHURN" = 1 ]; then
	for k in $KERNELS; do
		for mode in churn-selinux churn-none; do
			runs+=("$k:$mode")
		done
	done
fi

# The neveraudit scenario's baseline is the none guests' (lsm=capability
# reads no policy).
if [ "$BENCH_NEVERAUDIT" = 1 ]; then
	for k in $KERNELS; do
		runs+=("$k:na-selinux")
	done
fi

msg "running ${#runs[@]} guests ($POLICY policy, scale $BENCH_SCALE%, $BENCH_JOBS at a time$([ "$BENCH_CHURN" = 1 ] && echo ", churn: a stat every ${BENCH_CHURN_PAUSE} us"))"
run_guests RESULT "$RESULTS/logs" "${runs[@]}"

specs=()
for r in "${runs[@]}"; do
	specs+=("$r:$RESULTS/logs/${r/:/-}.log")
done
python3 "$TOP/tools/testing/selinux-avc-bench/report.py" "$RESULTS" "${specs[@]}" |
	tee "$RESULTS/bench.txt" ||
	die "benchmark results incomplete${failed:+ (failed:$failed)}; see $RESULTS/logs/"

# Bar chart of the SELinux overhead per test; the macro rows (per run of
# a whole workload, bench-run.dat) in a narrow panel of their own.
cols=$(head -1 "$RESULTS/bench.dat" | wc -w)
# The per-run panel only when there are per-run rows (sinit.c has none).
runrows=$(grep -vc '^#' "$RESULTS/bench-run.dat" || true)
k2=$(echo $KERNELS | cut -d' ' -f2)
plot="'$RESULTS/bench.dat' using 2:xtic(1) title '${KERNELS%% *}'"
[ "$cols" -ge 4 ] && plot="$plot, '' using 3 title '$k2'"
runplot="'$RESULTS/bench-run.dat' using 2:xtic(1) notitle"
[ "$cols" -ge 4 ] && runplot="$runplot, '' using 3 notitle"
gnuplot <<EOF_PLOT || die "gnuplot failed"
set terminal pngcairo size 1300,600 noenhanced font ",10"
set output '$RESULTS/bench.png'
set multiplot
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set xtics rotate by -30
set size $([ "$runrows" -gt 0 ] && echo 0.84 || echo 1),1
set origin 0,0
set title "SELinux overhead (enforcing minus lsm=capability), $flavor, $POLICY policy"
set ylabel 'guest instructions per operation (qemu -icount)'
set key top left
plot $plot
$([ "$runrows" -gt 0 ] || echo 'unset multiplot; exit')
set size 0.16,1
set origin 0.84,0
set title "per run"
set ylabel 'guest instructions per run'
set format y '%.0s%c'
set yrange [*<0:*]
plot $runplot
unset multiplot
EOF_PLOT

"$TOP/scripts/size.sh" "$flavor" "$RESULTS/size.csv" $KERNELS

msg "results: ${RESULTS#"$TOP"/}/{bench.txt,bench.csv,bench.json,bench.png,avc_stats.txt,size.csv}"
