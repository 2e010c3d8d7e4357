#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: every test of the project, in order.  A failing step does not
# stop the others; the run ends with "N passed, N failed" and fails if any
# step failed.  CHECK_ONLY="step ..." runs a subset.
# check.sh cross: the steps kept out of make check for its time budget
# (make check-cross): KUnit under qemu -smp 2 on x86_64 (kunit.py's own
# configuration), on i386 and on arm64, and on SH4 (one CPU, 32-bit: the 2007
# paper's CPU family); security/selinux in the other configurations a
# user builds; the decision matrix on arm64.
# BASE=7.3 check.sh: every step of make check on that base (make check-7.3);
# make check itself gates the other bases lightly (see the end).
# check.sh series-am: only the series-git-am step's test, for one base.
. "$(dirname "$0")/lib.sh"
lock_build

S=$TOP/scripts
pass=0 failn=0 n=0 failed=()
start_all=$SECONDS
trap '"$S/results.py" --source "$SRCID" "$RESULTS_TOP" >/dev/null || warn "results/RESULTS.md not written"' EXIT
step() {
	local name=$1; shift
	if [ -n "${CHECK_ONLY:-}" ] && [[ " $CHECK_ONLY " != *" $name "* ]]; then
		return 0
	fi
	n=$((n + 1))
	local t0=$SECONDS
	msg "[$n] $name"
	if "$@"; then
		pass=$((pass + 1))
		echo "ok $n - $name ($((SECONDS - t0))s)"
	else
		failn=$((failn + 1))
		failed+=("$name")
		echo "not ok $n - $name ($((SECONDS - t0))s)"
	fi
}

series_am() {
	# The series must apply to a clean copy of the base both ways a user
	# applies it: git am of the exported series (build/series/<base>/, signed off
	# by whoever ran make series) and git quiltimport of patches/<base>/ with its
	# quilt series file; each must give the patched tree.
	local d=$SRCDIR/am-check rc=0 want
	want=$(kgit "$PATCHED" rev-parse 'HEAD^{tree}')
	rm -rf "$d"
	kgit "$PRISTINE" worktree prune
	kgit "$PRISTINE" worktree add -q --detach "$d" "$BASE_TAG" || return 1
	kgit "$d" am -q --whitespace=error-all $(ls "$BUILD/series/$BASE"/0*.patch | grep -v cover-letter) || rc=1
	[ $rc -eq 0 ] && [ "$(kgit "$d" rev-parse 'HEAD^{tree}')" = "$want" ] || rc=1
	kgit "$d" am --abort >/dev/null 2>&1 || true
	kgit "$d" checkout -q --detach "$BASE_TAG"
	if [ $rc -eq 0 ]; then
		kgit "$d" quiltimport --patches "$PATCHDIR" --series "$PATCHDIR/series" >/dev/null || rc=1
		[ $rc -eq 0 ] && [ "$(kgit "$d" rev-parse 'HEAD^{tree}')" = "$want" ] || rc=1
	fi
	kgit "$PRISTINE" worktree remove --force "$d"
	return $rc
}

if [ "${1:-}" = series-am ]; then
	series_am
	exit
fi

if [ "${1:-}" = cross ]; then
	step deps "$S/deps.sh" build source guest cross
	step tree "$S/tree.sh"
	step kunit-x86_64-smp2 "$S/kunit.sh" x86_64
	step kunit-arm64-smp2 "$S/kunit.sh" arm64
	step kunit-sh4 "$S/kunit.sh" sh
	# The 32-bit kernel (qemu -smp 2): here for make check's time
	# budget, which gates the other bases' KUnit instead.
	step kunit-i386-smp2 "$S/kunit.sh" i386
	# security/selinux in the configurations a user will build (cache
	# off, statistics off, 16 and 256 slots, KUnit as a module, Debian's
	# own configuration): here for make check's time budget.  It starts
	# from the patched matrix guest's .config.
	step kernel-patched "$S/build.sh" patched "$MATRIX_FLAVOR"
	step configs "$S/configs.sh"
	# The decision matrix on arm64: stock, patched and patched-off,
	# identical and as the policy predicts (results/arm64-guest/).
	step kernel-stock-arm64 env BENCH_ARCH=arm64 "$S/build.sh" stock arm64-guest+matrix
	step kernel-patched-arm64 env BENCH_ARCH=arm64 "$S/build.sh" patched arm64-guest+matrix
	step matrix-arm64 env BENCH_ARCH=arm64 "$S/matrix.sh"
	echo "check-cross: $((SECONDS - start_all))s${failed[*]:+, failed: ${failed[*]}}"
	echo "$pass passed, $failn failed"
	[ $failn -eq 0 ]
	exit
fi

step deps "$S/deps.sh" build source guest bench
step tree "$S/tree.sh"
step series "$S/series.sh"
step series-git-am series_am
step checkpatch "$S/checkpatch.sh"
# The script tests make trees of their own, of the default base: the base
# this run checks (BASE=7.3 for make check-7.3) must not leak into them.
step test-scripts env -u BASE "$S/test-scripts.sh"
# The guest kernels of every step below: the matrix's flavor (the
# benchmark guest plus configs/matrix.config), so two kernel builds.
step kernel-stock "$S/build.sh" stock "$MATRIX_FLAVOR"
step kernel-patched "$S/build.sh" patched "$MATRIX_FLAVOR"
# The KUnit suites, built into the patched matrix guest: x86_64, qemu
# -smp 2, CPU hotplug and data watchpoints, no build of their own (UML's
# one-CPU run is make kunit-um).
step kunit-x86_64-guest "$S/kunit.sh" x86_64-guest
step unprivileged "$S/unprivileged.sh"
step sparse "$S/sparse.sh"
step bisect "$S/bisect.sh"
if [ -x "$S/matrix.sh" ]; then
	step matrix "$S/matrix.sh"
fi
# On another base (make check-7.3), the rest of the KUnit proof: UML and
# the 32-bit kernel under qemu -smp 2.
if [ "$BASE" != "$DEFAULT_BASE" ]; then
	step kunit-um "$S/kunit.sh" um
	step kunit-i386-smp2 "$S/kunit.sh" i386
fi
# The other bases, gated lightly here for the time budget: the series
# applies both ways, checkpatch is clean, every commit builds
# security/selinux, and the KUnit suites pass in the patched matrix guest
# (x86_64, qemu -smp 2).  All of make check on a base: BASE=<base> make
# check (make check-7.3).
if [ "$BASE" = "$DEFAULT_BASE" ] && [ -z "${CHECK_NO_BASES:-}" ]; then
	for b in $(bases); do
		[ "$b" != "$BASE" ] || continue
		step "$b:tree" env BASE="$b" "$S/tree.sh"
		step "$b:series" env BASE="$b" "$S/series.sh"
		step "$b:series-git-am" env BASE="$b" "$S/check.sh" series-am
		step "$b:checkpatch" env BASE="$b" "$S/checkpatch.sh"
		step "$b:kernel-patched" env BASE="$b" "$S/build.sh" patched "$MATRIX_FLAVOR"
		step "$b:kunit-x86_64-guest" env BASE="$b" "$S/kunit.sh" x86_64-guest
		step "$b:bisect" env BASE="$b" "$S/bisect.sh"
	done
fi

echo "check: $((SECONDS - start_all))s${failed[*]:+, failed: ${failed[*]}}"
echo "$pass passed, $failn failed"
[ $failn -eq 0 ]
