#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cache.sh OP: the cache misses of one benchmark row, stock against
# patched, in a model of one core's caches.  Boots the stock and the
# patched guest kernel, each with SELinux enforcing and with
# lsm=capability, runs only that benchmark under qemu TCG with the
# cache_model plugin (tools/testing/selinux-avc-profile/cache_model.c), and
# prints per operation the instructions, the misses at each level and a
# modelled cost, for security/ and the rest of the kernel, SELinux minus
# lsm=capability; once per cache geometry (caches/*.conf: a server core
# and a phone core).  First builds and runs the model's host test.
#
# Usage: cache.sh OP [FLAVOR]       (OP: a key of make bench's rows;
#                                   FLAVOR as for profile.sh)
# Environment:
#   CACHE_GEOMETRIES  geometry files (default: every caches/*.conf)
#   CACHE_COLD        0 (default): warm only: the model runs from boot and
#                     the window finds the caches as the benchmark left
#                     them; 1: warm and cold: each guest then runs once
#                     more with every level emptied when a window begins
#                     (the plugin's evict=1), counting only the window's
#                     first operation (first=N, N the instructions of one
#                     operation in the warm run)
#   CACHE_DLINES      1: the plugin also lists each data line brought from
#                     memory in a window and the instruction that brought
#                     it (its dlines=1; "dmem" lines in the .counts files)
#   BENCH_OP_ARGS     the benchmark's arguments instead of rows.conf's,
#                     words joined by commas (make walk: pathwalk's tree),
#   CACHE_TAG         then names the results cache-OP-TAG,
#   PROFILE_SCALE     BENCH_SCALE of the guests (default 10), and
#   KERNELS, POLICY, RESULTS, BENCH_TIMEOUT, BENCH_CMDLINE, BENCH_ARCH
#                     as for profile.sh
# Writes RESULTS/cache-OP.txt and .csv, the logs and the plugin's outputs
# under RESULTS/logs/.
. "$(dirname "$0")/lib.sh"
lock_build

op=${1:-}
case ${BENCH_OP_ARGS:-} in
*[!A-Za-z0-9,/._-]*) die "BENCH_OP_ARGS: words joined by commas, without spaces or quotes: '$BENCH_OP_ARGS'" ;;
esac
# sinit.c, /init of a guest without a shell (BA_INIT=c), has no BENCH_OP_ARGS.
[ -z "${BENCH_OP_ARGS:-}" ] || [ "$BA_INIT" != c ] ||
	die "BENCH_OP_ARGS: the $BENCH_ARCH guest runs sinit.c, which takes rows.conf's arguments only"
case ${CACHE_TAG:-} in
*[!A-Za-z0-9_-]*) die "CACHE_TAG: letters, digits, - and _ only: '$CACHE_TAG'" ;;
esac
flavor=${2:-$BA_FRAGMENT}
psrc=$TOP/tools/testing/selinux-avc-profile
POLICY=${POLICY:-project}
PROFILE_SCALE=${PROFILE_SCALE:-10}
CACHE_COLD=${CACHE_COLD:-0}
CACHE_DLINES=${CACHE_DLINES:-0}
case $CACHE_DLINES in 0|1) ;; *) die "CACHE_DLINES must be 0 or 1" ;; esac
BENCH_TIMEOUT=${BENCH_TIMEOUT:-1800}
KERNELS=${KERNELS:-stock patched}
if [ -z "${CACHE_GEOMETRIES:-}" ]; then
	CACHE_GEOMETRIES=$(ls "$psrc"/caches/*.conf)
fi
if [ "$BENCH_ARCH" = x86_64 ]; then
	RESULTS=${RESULTS:-$RESULTS_TOP}
else
	RESULTS=${RESULTS:-$RESULTS_TOP/$flavor}
fi
QEMU=${QEMU:-$BA_QEMU}
bench_row "$op" cache "$flavor"
name=$op${CACHE_TAG:+-$CACHE_TAG}
case $PROFILE_SCALE in ''|*[!0-9]*|0) die "PROFILE_SCALE must be a positive integer" ;; esac
case $CACHE_COLD in
0) variants=warm ;;
1) variants="warm cold" ;;
*) die "CACHE_COLD must be 0 (warm) or 1 (warm and cold)" ;;
esac
for g in $CACHE_GEOMETRIES; do
	[ -f "$g" ] || die "CACHE_GEOMETRIES: no file $g"
	case $g in *,*) die "CACHE_GEOMETRIES: $g: qemu's -plugin cannot take a comma in a path" ;; esac
done
logs=$RESULTS/logs
mkdir -p "$BUILD/tools" "$logs"

# The model's host test first, on the geometries about to be used.
test_bin=$BUILD/tools/cache_sim_test
gcc -O2 -Wall -Wextra -o "$test_bin.tmp" "$psrc/cache_sim_test.c" ||
	die "cannot build cache_sim_test"
mv "$test_bin.tmp" "$test_bin"
# shellcheck disable=SC2086 # CACHE_GEOMETRIES: a list of files
if ! "$test_bin" $CACHE_GEOMETRIES >"$logs/cache_sim_test.tap" 2>&1; then
	grep -v '^ok ' "$logs/cache_sim_test.tap" >&2
	die "cache_sim_test failed (${logs#"$TOP"/}/cache_sim_test.tap)"
fi
msg "cache_sim_test: $(grep -c '^ok ' "$logs/cache_sim_test.tap") passed"

plugin=$(qemu_plugin cache_model)
dl=
[ "$CACHE_DLINES" = 0 ] || dl=,dlines=1

"$TOP/tools/testing/selinux-avc-bench/guest.sh" "$POLICY"
initrd=$GUEST_DIR/initrd-$POLICY.gz

# KERNEL:MODE:COUNTS:LOG:BUILDDIR of each guest, for cache.py.
specs=()
pids=()

# guest VARIANT GEOMETRY KERNEL MODE [PLUGIN-ARGS]: boot one guest in the
# background, two at a time (the machine has two cores).
guest() {
	local v=$1 g=$2 k=$3 mode=$4 args=${5:-} base append
	base=$logs/cache-$name-$v-$(basename "$g" .conf)-$k-$mode
	rm -f "$base.counts"
	append="console=$BA_CONSOLE quiet BENCH_SCALE=$PROFILE_SCALE BENCH_OP=$guest_op${BENCH_OP_ARGS:+ BENCH_OP_ARGS=$BENCH_OP_ARGS}${BENCH_CMDLINE:+ $BENCH_CMDLINE}"
	[ "$mode" = none ] && append="$append lsm=capability"
	bench_guest "$BENCH_TIMEOUT" "$OUTDIR/$k-$flavor/$BA_IMAGE" \
		"$initrd" "$append" "$base.log" \
		-plugin "$plugin,out=$base.counts,windows=$mask,cache=$g$args$dl" &
	pids+=($!)
	specs+=("$k:$mode:$base.counts:$base.log:$OUTDIR/$k-$flavor")
	if [ ${#pids[@]} -ge "$(nproc)" ]; then
		wait "${pids[0]}" || die "guest failed (logs: ${logs#"$TOP"/}/cache-$name-*)"
		pids=("${pids[@]:1}")
	fi
}

guests_done() {
	local p s
	for p in "${pids[@]}"; do
		wait "$p" || die "guest failed (logs: ${logs#"$TOP"/}/cache-$name-*)"
	done
	pids=()
	for s in "${specs[@]}"; do
		guest_finished "$(echo "$s" | cut -d: -f4)"
	done
}

start=$SECONDS
ngeom=$(wc -w <<<"$CACHE_GEOMETRIES")
msg "cache $name ($flavor)${BENCH_OP_ARGS:+, $op with ${BENCH_OP_ARGS//,/ }}: ${KERNELS// /, } kernels, SELinux and lsm=capability, ${variants// / and }, $ngeom cache geometries, scale $PROFILE_SCALE%"
for g in $CACHE_GEOMETRIES; do
	for k in $KERNELS; do
		for mode in selinux none; do
			guest warm "$g" "$k" "$mode"
		done
	done
done
guests_done
# Cold: the same guests with every level emptied when a window begins,
# counting the first operation of each window: the instructions of one
# operation in the warm run.
if [ "$CACHE_COLD" = 1 ]; then
	for g in $CACHE_GEOMETRIES; do
		for k in $KERNELS; do
			for mode in selinux none; do
				w=$logs/cache-$name-warm-$(basename "$g" .conf)-$k-$mode
				n=$(python3 "$psrc/cache.py" --first-insns "$w.counts" "$w.log") ||
					die "no instruction count per operation in $w.counts"
				guest cold "$g" "$k" "$mode" ",evict=1,first=$n"
			done
		done
	done
	guests_done
fi
msg "guests finished in $((SECONDS - start))s"
PROFILE_WINDOWS=$mask PROFILE_UNIT=$unit python3 "$psrc/cache.py" "$name" "$RESULTS" "${specs[@]}"
msg "results: ${RESULTS#"$TOP"/}/cache-$name.{txt,csv}"
