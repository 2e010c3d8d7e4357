#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make coverage: which SELinux hooks the matrix makes reach the AVC, and
# whether each did so with an allow and with a denial.  The patched tree
# gets tools/testing/selinux-avc-coverage/coverage.txt, applied by
# scripts/mutate.py as the mutants are (coverage only, not part of the series: each decision is recorded with its
# caller's return addresses, read in /sys/fs/selinux/avc/coverage), its
# guest kernel is built and kept as build/coverage/kernel/, and the tree
# and its build are put back as they were (as for the mutants).  The
# matrix then runs on that kernel, with the per-CPU cache on and booted
# with selinux_avc_pcpu=0 (the stock hooks), and the guest dumps the
# record; coverage.py maps it to the hooks with the build's System.map.
#
# Usage: coverage.sh [FLAVOR]      (default the matrix's, x86_64-guest+matrix; stacked
#        fragments such as x86_64-guest+matrix work as in build.sh)
# Environment:
#   COVERAGE_KERNELS="coverage coverage-off"  the boots (matrix.sh names)
#   COVERAGE_FLAVOR=F    the flavor when no argument is given
#   COVERAGE_REBUILD=0   reuse build/coverage/kernel/ if it is there
#   MATRIX_TIMEOUT=S     seconds before a guest is killed (default 900)
#   COVERAGE_MIN_REACHED=P, COVERAGE_MIN_BOTH=P  fail below these shares
#                        (percent; default: report only)
# Fails if the matrix fails on the coverage kernel (the record must not
# change a decision), if records were dropped, or below a target.
# Outputs: results/coverage.csv, results/coverage.txt (the table),
# build/coverage/ (kernel, dumps, matrix summary).
. "$(dirname "$0")/lib.sh"
lock_build

# The matrix's flavor: COVERAGE_FLAVOR, or the first argument, stacks
# too (x86_64-guest+matrix: the config fragments of build.sh).
flavor=${1:-${COVERAGE_FLAVOR:-$MATRIX_FLAVOR}}
[ "$BENCH_ARCH" = x86_64 ] || die "make coverage runs the x86_64 matrix guest only (BENCH_ARCH=$BENCH_ARCH)"
need_tree
CV=$TOP/tools/testing/selinux-avc-coverage
spec=$CV/coverage.txt
out=$OUTDIR/patched-$flavor
dir=$BUILD/coverage
kdir=$dir/kernel
RESULTS=${RESULTS:-$RESULTS_TOP}
KERNELS=${COVERAGE_KERNELS:-coverage coverage-off}
mkdir -p "$dir" "$BUILD/logs" "$RESULTS"
command -v objdump >/dev/null || die "objdump not found: apt-get install binutils"
start=$SECONDS

# The coverage kernel: the patched tree with coverage.txt, built in the
# patched kernel's build directory, then both restored.
if [ "${COVERAGE_REBUILD:-1}" != 0 ] || [ ! -f "$kdir/bzImage" ]; then
	[ -z "$(kgit "$PATCHED" status --porcelain --untracked-files=no)" ] ||
		die "$PATCHED has uncommitted changes"
	# The patched kernel of this flavor first (nothing to do if it is
	# built), so that only security/selinux is built again twice.
	"$TOP/scripts/build.sh" patched "$flavor" ||
		die "the patched kernel ($flavor) does not build"
	# shellcheck disable=SC2064
	trap "kgit '$PATCHED' checkout -q -- security/selinux" EXIT
	python3 "$TOP/scripts/mutate.py" "$spec" "$PATCHED" coverage ||
		die "${spec#"$TOP"/} does not apply to the patched tree any more; update it"
	rc=0
	msg "building the coverage kernel ($flavor)"
	"$TOP/scripts/build.sh" patched "$flavor" || rc=$?
	if [ $rc -eq 0 ]; then
		rm -rf "$kdir.tmp"
		mkdir -p "$kdir.tmp"
		cp "$out/$BA_IMAGE" "$out/System.map" "$out/.config" "$kdir.tmp/"
		# Which security_*() functions the kernel calls: a hook whose
		# security_*() nothing calls is not in the guest (its
		# subsystem is not configured).
		objdump -d --no-show-raw-insn "$out/vmlinux" |
			awk '/^[0-9a-f]+ <[^>]+>:$/ { f = substr($2, 2, length($2) - 3); next }
			     /(call|jmp)[a-z]* +[0-9a-f]+ <security_[a-z0-9_]+(\+0x[0-9a-f]+)?>/ {
				t = $NF; gsub(/[<>]/, "", t); sub(/\+0x.*/, "", t)
				if (t != f) print f, t }' | sort -u > "$kdir.tmp/calls.txt" || rc=1
		[ -s "$kdir.tmp/calls.txt" ] || rc=1
	fi
	kgit "$PATCHED" checkout -q -- security/selinux
	trap - EXIT
	msg "rebuilding the patched kernel as it was"
	"$TOP/scripts/build.sh" patched "$flavor" >/dev/null 2>&1 || warn "rebuild of the patched kernel failed"
	[ $rc -eq 0 ] || die "the coverage kernel did not build, or objdump failed (log: build/logs/build-$SRCID-patched-$flavor.log)"
	rm -rf "$kdir"
	mv "$kdir.tmp" "$kdir"
fi

# The matrix on it; the table is made whatever its verdict.
msg "matrix on the coverage kernel: $KERNELS"
mrc=0
# A stack trace per decision: the guests run slower than make matrix's.
KERNELS=$KERNELS KERNEL_coverage=$kdir/bzImage RESULTS=$dir MATRIX_TIMEOUT=${MATRIX_TIMEOUT:-900} \
	"$TOP/scripts/matrix.sh" "$flavor" > "$BUILD/logs/coverage-matrix.log" 2>&1 || mrc=$?
dumps=()
for k in $KERNELS; do
	log=$MATRIX_DIR/$k/console.log
	sed -n '/AVC-MATRIX: COVERAGE BEGIN/,/AVC-MATRIX: COVERAGE END/p' "$log" 2>/dev/null | tr -d '\r' |
		grep -v '^AVC-MATRIX: ' | base64 -d 2>/dev/null | gunzip > "$dir/$k.dump" 2>/dev/null && [ -s "$dir/$k.dump" ] ||
		die "$k: no coverage record in ${log#"$TOP"/} (the guest did not finish? see build/logs/coverage-matrix.log)"
	dumps+=("$k=$dir/$k.dump")
done
rc=0
python3 "$CV/coverage.py" report "$PATCHED" "$kdir" "$RESULTS" "${dumps[@]}" || rc=1
# The record must not change a decision: the coverage kernel passes the
# matrix as the patched one does.
if [ $mrc -eq 0 ]; then
	echo "coverage: the matrix passed on the coverage kernel" | tee -a "$RESULTS/coverage.txt"
else
	echo "coverage: FAIL: the matrix failed on the coverage kernel (build/logs/coverage-matrix.log)" |
		tee -a "$RESULTS/coverage.txt"
	rc=1
fi
echo "coverage: total time $((SECONDS - start))s" | tee -a "$RESULTS/coverage.txt"
exit $rc
