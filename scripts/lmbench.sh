#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make lmbench LMBENCH=DIR: lmbench's own programs (lat_syscall, lat_pipe,
# lat_unix, lat_unix_connect, lat_proc, lat_mmap, lat_fs: the "run" lines
# of tools/testing/selinux-avc-bench/lmbench.conf), built statically from
# the user's lmbench checkout in DIR (only read: the sources are copied to
# build/lmbench/), in make bench's guests: the stock and the patched
# kernel, each booted with SELinux enforcing the project policy, the
# benchmark confined in bench_t, and with lsm=capability.  The table sets
# lmbench's SELinux overhead beside make bench's rows of the same kernels
# (RESULTS/bench.csv), where there are any.  Not part of make check.
#
# The guest is make bench's initramfs plus lmbench's programs in
# /bench/lmbench/, guest/lmbench.sh as its /bench/run.sh (the same /init
# starts it) and a policy with policy/lmbench.te added (lat_mmap maps a
# file it writes; three programs kill their helpers with SIGKILL); make
# bench's initramfs stays as it is.
#
# Usage: lmbench.sh [--build-only] [FLAVOR]   (default x86_64-guest, as
#   make bench; --build-only: build lmbench in build/lmbench/bin and stop)
# Environment:
#   LMBENCH=DIR             the lmbench checkout (required; src/ is read)
#   LMBENCH_ENOUGH=US       microseconds of one timed interval, lmbench's
#                           ENOUGH (default 5000)
#   LMBENCH_REPS=N          lmbench's -N, the intervals whose median each
#                           program reports (default: lmbench's, 11)
#   KERNELS="stock patched" kernels to compare (both by default)
#   BENCH_JOBS, BENCH_TIMEOUT, BENCH_CMDLINE, RESULTS: as for bench.sh
# Writes lmbench.txt, lmbench.csv, lmbench.json and the console logs
# (lmbench-logs/) to RESULTS: results/ for the default flavor and base,
# as make bench.
. "$(dirname "$0")/lib.sh"

LMB=$TOP/tools/testing/selinux-avc-bench
CONF=$LMB/lmbench.conf
build_only=
if [ "${1:-}" = --build-only ]; then
	build_only=1
	shift
fi
flavor=${1:-$BA_FRAGMENT}
LMBENCH=${LMBENCH:-}
LMBENCH_ENOUGH=${LMBENCH_ENOUGH:-5000}
LMBENCH_REPS=${LMBENCH_REPS:-}
BENCH_JOBS=${BENCH_JOBS:-$(nproc)}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-900}
KERNELS=${KERNELS:-stock patched}
if [ "$flavor" = x86_64-guest ]; then
	RESULTS=${RESULTS:-$RESULTS_TOP}
else
	RESULTS=${RESULTS:-$RESULTS_TOP/$flavor}
fi
QEMU=${QEMU:-$BA_QEMU}
# lmbench's library (its src/Makefile's LIBOBJS) and the programs the
# conf runs or copies.
LIBSRC="lib_tcp lib_udp lib_unix lib_timing lib_mem lib_stats lib_debug getopt lib_sched"
PROGS=$(awk '$1 == "run" { print $4 } $1 == "copy" { print $2 }' "$CONF" | sort -u)
# What lmbench's scripts/build finds on Linux with glibc (getrusage,
# uint, drand48, sched_setaffinity), and its default -O; gnu89, the C of
# its sources (implicit declarations are errors in gcc 14's default C).
LMBENCH_CFLAGS="-O -std=gnu89 -DRUSAGE -DHAVE_uint=1 -DHAVE_DRAND48 -DHAVE_SCHED_SETAFFINITY=1"

# 1. Bad input first: nothing is built, locked or written.
[ "$BENCH_ARCH" = x86_64 ] ||
	die "make lmbench runs on the x86_64 guest only (BENCH_ARCH=$BENCH_ARCH)"
# shellcheck disable=SC2046,SC2086 # the lists: words
need_checkout LMBENCH lmbench "an lmbench checkout (lmbench 3, e.g. github intel/lmbench)" \
	src/bench.h $(printf 'src/%s.c ' $LIBSRC $PROGS)
case $LMBENCH/ in "$BUILD"/lmbench/*)
	die "LMBENCH=$LMBENCH is inside build/lmbench/, which this script writes: use your own checkout" ;;
esac
for v in LMBENCH_ENOUGH BENCH_JOBS BENCH_TIMEOUT ${LMBENCH_REPS:+LMBENCH_REPS}; do
	case ${!v} in ''|*[!0-9]*|0) die "$v must be a positive integer, not '${!v}'" ;; esac
done
for k in $KERNELS; do
	case $k in stock|patched) ;; *) die "KERNELS: unknown kernel '$k'" ;; esac
done
[ -n "$KERNELS" ] || die "KERNELS is empty"

# Tools, with the packages that bring them: one apt-get line for all.
missing=()
for t in gcc:gcc ar:binutils gzip:gzip checkpolicy:checkpolicy "$QEMU:qemu-system-x86" \
	busybox:busybox-static python3:python3 timeout:coreutils; do
	command -v "${t%%:*}" >/dev/null ||
		case " ${missing[*]-} " in *" ${t#*:} "*) ;; *) missing+=("${t#*:}") ;; esac
done
# The static C library.
if command -v gcc >/dev/null && [ ! -f "$(gcc -print-file-name=libc.a)" ]; then
	missing+=(libc6-dev)
fi
[ ${#missing[@]} -eq 0 ] ||
	die "missing packages for make lmbench: apt-get install -y ${missing[*]}"

if [ -z "$build_only" ]; then
	# shellcheck disable=SC2086
	need_guest_images "$flavor" $KERNELS
	# The guest's policy and initramfs tools come from the kernel source.
	[ -d "$PRISTINE" ] || die "no kernel source in ${PRISTINE#"$TOP"/}: run 'make source' first"
fi

lock_build
guest_cc

# 2. lmbench, from a copy of its sources under build/lmbench/, built again
# when they, the flags or the compiler change.
L=$BUILD/lmbench
rev="not a git checkout"
if git -C "$LMBENCH" rev-parse --show-toplevel >/dev/null 2>&1; then
	# Not describe --dirty, which writes the checkout's index: plumbing
	# that only reads it.
	rev=$(git -C "$LMBENCH" describe --always 2>/dev/null || echo unknown)
	git -C "$LMBENCH" diff-index --quiet HEAD -- 2>/dev/null || rev="$rev, with changes"
fi
rm -rf "$L/src.new"
mkdir -p "$L/src.new" "$L/include/rpc"
for f in $LIBSRC $PROGS; do
	cp "$LMBENCH/src/$f.c" "$L/src.new/" || die "copying $LMBENCH/src/$f.c failed"
done
cp "$LMBENCH"/src/*.h "$L/src.new/" || die "copying the headers of $LMBENCH/src failed"
# bench.h includes <rpc/rpc.h> and <rpc/types.h>, which glibc no longer
# has; nothing of the programs built here uses them.
for h in rpc types; do
	echo "/* empty: make lmbench builds none of lmbench's RPC code */" > "$L/include/rpc/$h.h"
done
key=$({ cd "$L/src.new" && md5sum -- *; echo "$GUEST_CC $LMBENCH_CFLAGS"; "$BA_CC" --version | head -1; } | md5sum | cut -c1-12)
built=1
for p in $PROGS; do
	[ -x "$L/bin/$p" ] || built=
done
if [ -n "$built" ] && [ "$(cat "$L/key" 2>/dev/null)" = "$key" ]; then
	rm -rf "$L/src.new"
	msg "lmbench: $LMBENCH ($rev), built already in ${L#"$TOP"/}/bin"
else
	msg "building lmbench from $LMBENCH ($rev) in ${L#"$TOP"/} ($GUEST_CC -static; log: ${L#"$TOP"/}/build.log)"
	rm -rf "${L:?}/src" "${L:?}/obj" "${L:?}/bin" "${L:?}/key"
	mv "$L/src.new" "$L/src"
	mkdir -p "$L/obj" "$L/bin"
	# lmbench_build: the library, then each program, into the log (run in
	# the background by progress).
	# shellcheck disable=SC2086,SC2046 # GUEST_CC, the flags, the lists: words
	lmbench_build() {
		local f
		exec > "$L/build.log" 2>&1
		for f in $LIBSRC; do
			$GUEST_CC $LMBENCH_CFLAGS -I"$L/include" -c -o "$L/obj/$f.o" "$L/src/$f.c" || return 1
		done
		(cd "$L/obj" && ar cr lmbench.a $(printf '%s.o ' $LIBSRC)) || return 1
		for f in $PROGS; do
			$GUEST_CC $LMBENCH_CFLAGS -I"$L/include" -static -s -o "$L/bin/$f" \
				"$L/src/$f.c" "$L/obj/lmbench.a" -lm || return 1
		done
	}
	progress "build lmbench" lmbench_build ||
		{ tail -20 "$L/build.log" >&2; die "building lmbench failed (log: ${L#"$TOP"/}/build.log)"; }
	echo "$key" > "$L/key"
fi
[ -z "$build_only" ] || exit 0

# 3. The guest: make bench's root and policy (guest.sh), then a copy of
# the root with lmbench in it, packed into an initramfs of its own.
"$LMB/guest.sh" project
G=$GUEST_DIR
root=$G/root-lmbench-project
initrd=$G/initrd-lmbench-project.gz
msg "assembling the lmbench initramfs"
rm -rf "$root"
cp -a "$G/root-project" "$root"
mkdir -p "$root/bench/lmbench"
for p in $PROGS; do
	cp "$L/bin/$p" "$root/bench/lmbench/$p"
done
cp "$LMB/guest/lmbench.sh" "$root/bench/run.sh"
cp "$CONF" "$root/bench/lmbench.conf"
pconf=$GUEST_POLICY_DIR/policy-project/policy.conf
sed "/^permissive bench_perm_t;\$/r $LMB/policy/lmbench.te" "$pconf" > "$G/policy-lmbench.conf"
cmp -s "$pconf" "$G/policy-lmbench.conf" &&
	die "no 'permissive bench_perm_t;' line in ${pconf#"$TOP"/} to add policy/lmbench.te after"
checkpolicy -M -U allow -o "$root/policy/policy.bin" "$G/policy-lmbench.conf" > "$G/policy-lmbench.log" 2>&1 ||
	die "checkpolicy failed on ${G#"$TOP"/}/policy-lmbench.conf: $(tail -3 "$G/policy-lmbench.log")"
make_initramfs "$root" "$initrd"
msg "initramfs: ${initrd#"$TOP"/} ($(du -k "$initrd" | cut -f1) KiB)"

# 4. The guests: each kernel with SELinux and with lsm=capability.
mkdir -p "$RESULTS/lmbench-logs"
rm -f "$RESULTS"/lmbench-logs/*.log

# boot KERNEL MODE LOG, for run_guests.
boot() {
	local append="console=$BA_CONSOLE quiet LMBENCH_ENOUGH=$LMBENCH_ENOUGH${LMBENCH_REPS:+ LMBENCH_REPS=$LMBENCH_REPS}${BENCH_CMDLINE:+ $BENCH_CMDLINE}"
	[ "$2" = selinux ] || append="$append lsm=capability"
	bench_guest "$BENCH_TIMEOUT" "$(guest_image "$1" "$flavor")" "$initrd" "$append" "$3"
}
# The runs a guest reports (its LMBENCH-END lines).
nresults() {
	grep -c '^run ' "$CONF"
}

runs=()
for k in $KERNELS; do
	runs+=("$k:selinux" "$k:none")
done
msg "running ${#runs[@]} guests (lmbench $rev, ENOUGH=$LMBENCH_ENOUGH us${LMBENCH_REPS:+, -N $LMBENCH_REPS}, $BENCH_JOBS at a time)"
run_guests LMBENCH-END "$RESULTS/lmbench-logs" "${runs[@]}"

# 5. The table, beside make bench's rows of the same kernels.
specs=()
for r in "${runs[@]}"; do
	specs+=("$r:$RESULTS/lmbench-logs/${r/:/-}.log")
done
python3 "$LMB/lmbench.py" --bench "$RESULTS/bench.csv" --source "$LMBENCH, $rev" \
	"$RESULTS" "${specs[@]}" | tee "$RESULTS/lmbench.txt" ||
	die "lmbench results incomplete${failed:+ (failed:$failed)}; see ${RESULTS#"$TOP"/}/lmbench-logs/"
msg "results: ${RESULTS#"$TOP"/}/{lmbench.txt,lmbench.csv,lmbench.json,lmbench-logs/}"
