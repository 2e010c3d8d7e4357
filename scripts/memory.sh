#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make memory: what the series costs in memory, measured in guests.  Boots
# the stock and the patched guest kernel, each with SELinux enforcing and
# the project policy (as make bench) and slab_nomerge (so that every slab
# cache shows under its own name), once per CPU count of MEMORY_SMP, with
# the memory guest's init (tools/testing/selinux-avc-memory/guest/init):
# snapshots of /proc/meminfo, /proc/slabinfo and the AVC's statistics at
# boot, after the policy load, after a short run of the benchmark suite,
# and after memfill made and stat()ed MEMORY_FILES files on tmpfs in the
# confined domain.  memory.py derives the cost per inode, per CPU and per
# policy, patched minus stock, and puts make bench's text sizes
# (size.csv) beside them.
#
# Usage: memory.sh [FLAVOR]       (default x86_64-guest: make bench's kernels)
# Environment:
#   MEMORY_FILES=N      files memfill makes (default 100000)
#   MEMORY_SMP="1 4"    CPU counts (qemu -smp) to boot each kernel with;
#                       two or more tell per-CPU memory from global
#   MEMORY_SCALE=N      BENCH_SCALE of the benchmark run (default 2)
#   MEMORY_TIMEOUT=S    seconds before a guest is killed (default 1800)
#   MEMORY_JOBS=N       guests booted in parallel (default: nproc)
#   BENCH_CMDLINE="..." more kernel parameters for every guest
#   RESULTS=DIR         output directory (default results/, or
#                       results/<flavor> for another flavor, as make bench)
# Writes memory.txt, memory.csv, memory.json and the console logs
# (logs/memory/) to RESULTS.
. "$(dirname "$0")/lib.sh"

flavor=${1:-$BA_FRAGMENT}
MEMORY_FILES=${MEMORY_FILES:-100000}
MEMORY_SMP=${MEMORY_SMP:-1 4}
MEMORY_SCALE=${MEMORY_SCALE:-2}
MEMORY_TIMEOUT=${MEMORY_TIMEOUT:-1800}
BENCH_JOBS=${MEMORY_JOBS:-$(nproc)}
QEMU=${QEMU:-$BA_QEMU}
if [ "$flavor" = "$BA_FRAGMENT" ] && [ "$BENCH_ARCH" = x86_64 ]; then
	RESULTS=${RESULTS:-$RESULTS_TOP}
	sizes=$RESULTS_TOP/size.csv
else
	RESULTS=${RESULTS:-$RESULTS_TOP/$flavor}
	sizes=$RESULTS_TOP/$flavor/size.csv
fi

case $MEMORY_FILES in ''|*[!0-9]*|0) die "MEMORY_FILES must be a positive integer" ;; esac
case $MEMORY_SCALE in ''|*[!0-9]*|0) die "MEMORY_SCALE must be a positive integer" ;; esac
case $MEMORY_TIMEOUT in ''|*[!0-9]*|0) die "MEMORY_TIMEOUT must be a number of seconds" ;; esac
case $BENCH_JOBS in ''|*[!0-9]*|0) die "MEMORY_JOBS must be a positive integer" ;; esac
[ -n "${MEMORY_SMP// /}" ] || die "MEMORY_SMP must list CPU counts, e.g. \"1 4\""
for n in $MEMORY_SMP; do
	case $n in *[!0-9]*|0*) die "MEMORY_SMP: '$n' is not a CPU count (1, 2, ...)" ;; esac
done
[ "$BA_INIT" = busybox ] ||
	die "the memory guest needs busybox, which BENCH_ARCH=$BENCH_ARCH has not"

missing=
command -v "$QEMU" >/dev/null || missing="$missing $BA_PACKAGES"
for t in python3:python3 checkpolicy:checkpolicy gzip:gzip; do
	command -v "${t%%:*}" >/dev/null || missing="$missing ${t#*:}"
done
[ -z "$missing" ] || die "missing packages for make memory: apt-get install -y$missing (or run scripts/deps.sh)"
# Bad input is refused above without waiting for the lock.
lock_build

# Both kernels must be there, with /proc/slabinfo and enough CPUs.
bad=
for k in stock patched; do
	img=$(guest_image "$k" "$flavor")
	if [ ! -f "$img" ]; then
		printf 'error: no %s kernel: %s is missing\n' "$k" "${img#"$TOP"/}" >&2
		bad=1
	fi
done
env=$([ "$BASE" = "$DEFAULT_BASE" ] || echo "BASE=$BASE ")$([ "$BENCH_ARCH" = x86_64 ] || echo "BENCH_ARCH=$BENCH_ARCH ")
case $flavor in
"$BA_FRAGMENT") hint=" (${env}make kernel builds both)" ;;
"$MATRIX_FLAVOR") hint=" (${env}make kernel-matrix builds both)" ;;
*) hint= ;;
esac
[ -z "$bad" ] || die "build it first: ${env}scripts/build.sh <stock|patched> $flavor$hint"
for k in stock patched; do
	cfg=$OUTDIR/$k-$flavor/.config
	[ -f "$cfg" ] || continue
	grep -qx 'CONFIG_SLUB_DEBUG=y' "$cfg" ||
		die "the $k kernel has no /proc/slabinfo: ${cfg#"$TOP"/} lacks CONFIG_SLUB_DEBUG=y"
	ncpus=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$cfg")
	for n in $MEMORY_SMP; do
		[ "$n" -le "${ncpus:-1}" ] ||
			die "MEMORY_SMP: $n CPUs, but the $k kernel is built for at most ${ncpus:-1} (CONFIG_NR_CPUS)"
	done
done

"$TOP/tools/testing/selinux-avc-memory/guest.sh" project
initrd=$GUEST_DIR/initrd-memory-project.gz
logs=$RESULTS/logs/memory
mkdir -p "$logs"
rm -f "$logs"/*.log

# One guest: KERNEL with -smp N (MODE smpN), console to LOG; the
# snapshots guest/init takes are its progress (run_guests in lib.sh).
# One socket per CPU: the guest has no ACPI, and SeaBIOS's MP table,
# which it reads instead, names one CPU per socket (as kunit.sh).
boot() {
	local n=${2#smp}
	bench_guest "$MEMORY_TIMEOUT" "$(guest_image "$1" "$flavor")" "$initrd" \
		"console=$BA_CONSOLE quiet slab_nomerge MEM_FILES=$MEMORY_FILES MEM_SCALE=$MEMORY_SCALE MEM_CPUS=$n${BENCH_CMDLINE:+ $BENCH_CMDLINE}" \
		"$3" -smp "$n,sockets=$n,cores=1,threads=1"
}
nresults() { echo 5; }
runs=()
for n in $MEMORY_SMP; do
	runs+=("stock:smp$n" "patched:smp$n")
done
msg "running ${#runs[@]} memory guests ($MEMORY_FILES files, -smp ${MEMORY_SMP// /, }; $BENCH_JOBS at a time; logs in ${logs#"$TOP"/}/)"
BENCH_TIMEOUT=$MEMORY_TIMEOUT run_guests SNAP "$logs" "${runs[@]}"
specs=()
for r in "${runs[@]}"; do
	guest_finished "$logs/${r/:/-}.log"
	specs+=("${r%:*}:${r#*:smp}:$logs/${r/:/-}.log")
done
[ -z "$failed" ] || die "memory guests failed:$failed; see ${logs#"$TOP"/}/"

python3 "$TOP/tools/testing/selinux-avc-memory/memory.py" "$RESULTS" --flavor "$flavor" \
	--base "$BASE" --policy project --sizes "$sizes" "${specs[@]}" ||
	die "memory figures incomplete; see ${logs#"$TOP"/}/"
msg "results: ${RESULTS#"$TOP"/}/{memory.txt,memory.csv,memory.json}, logs in ${logs#"$TOP"/}/"
