#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bisectability: every commit of the series must build security/selinux,
# in the x86_64 guest configuration (no KUnit) and in the UML KUnit one
# (tests on).  Uses a scratch worktree and out-of-tree dirs of its own.
. "$(dirname "$0")/lib.sh"
lock_build

need_tree
base=$(kgit "$PRISTINE" rev-parse "$BASE_TAG")
commits=$(kgit "$PATCHED" rev-list --reverse "$base..HEAD")
wt=$SRCDIR/bisect
scratch_worktree "$wt" "$base"
declare -A from=([x86_64]="$OUTDIR/patched-x86_64-guest" [um]="$OUTDIR/patched-kunit-um")
mkdir -p "$BUILD/logs"
fail=0 n=0
for arch in x86_64 um; do
	[ -f "${from[$arch]}/.config" ] || die "no ${from[$arch]}/.config: run 'make kernel' and 'make kunit-um' first"
	out=$OUTDIR/bisect-$arch
	mkdir -p "$out"
	for c in $commits; do
		n=$((n + 1))
		kgit "$wt" checkout -q --detach "$c"
		subj=$(kgit "$wt" log -1 --format=%s)
		cp "${from[$arch]}/.config" "$out/.config"
		log=$BUILD/logs/bisect-$arch-$n.log
		if make -C "$wt" O="$out" ARCH=$arch CC="ccache gcc" -j"$JOBS" olddefconfig >"$log" 2>&1 &&
		   make -C "$wt" O="$out" ARCH=$arch CC="ccache gcc" -j"$JOBS" security/selinux/ >>"$log" 2>&1 &&
		   ! grep -E 'security/selinux/.*(warning|error):' "$log"; then
			echo "ok - $arch builds: $subj"
		else
			echo "not ok - $arch does not build: $subj (log ${log#$TOP/})"
			fail=1
		fi
	done
done
[ $fail -eq 0 ] || die "a commit of the series does not build"
