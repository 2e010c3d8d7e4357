#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bisectability: every commit of the series must build security/selinux
# (and any other C file it changes) without a warning, in the x86_64 guest
# configuration (the matrix's, x86_64-guest+matrix, which make check
# builds) with the KUnit suite
# (and its microbenchmark) built in, so one build per commit compiles both
# the code and its tests.  The UML configuration is built at the series'
# head by kunit-um, the cache-off and other configurations by configs.sh.
# Uses a scratch worktree and an out-of-tree dir of its own.
. "$(dirname "$0")/lib.sh"
lock_build

need_tree
base=$(kgit "$PRISTINE" rev-parse "$BASE_TAG")
commits=$(kgit "$PATCHED" rev-list --reverse "$base..HEAD")
wt=$SRCDIR/bisect
scratch_worktree "$wt" "$base"
from=$OUTDIR/patched-$MATRIX_FLAVOR
[ -f "$from/.config" ] || die "no $from/.config: run 'make kernel-matrix' first"
out=$OUTDIR/bisect-x86_64
mkdir -p "$out" "$BUILD/logs"
fail=0 n=0 total=$(echo "$commits" | wc -w)
for c in $commits; do
	n=$((n + 1))
	kgit "$wt" checkout -q --detach "$c"
	subj=$(kgit "$wt" log -1 --format=%s)
	cp "$from/.config" "$out/.config"
	# Symbols a commit does not define yet are dropped by olddefconfig.
	printf '%s\n' CONFIG_KUNIT=y CONFIG_SECURITY_SELINUX_AVC_KUNIT_TEST=y \
		CONFIG_SECURITY_SELINUX_SS_KUNIT_TEST=y CONFIG_SECURITY_SELINUX_LABEL_CACHE_KUNIT_TEST=y \
		CONFIG_SECURITY_SELINUX_AVC_KUNIT_BENCH=y >>"$out/.config"
	log=$BUILD/logs/bisect-x86_64-$n.log
	t0=$SECONDS
	# And every C file the commit changes outside security/selinux (an
	# LSM or VFS file), as its object.
	objs=$(kgit "$wt" diff-tree --no-commit-id --name-only -r "$c" |
		{ grep -E '\.c$' || true; } | { grep -v '^security/selinux/' || true; } |
		sed 's/\.c$/.o/' | tr '\n' ' ')
	# shellcheck disable=SC2086
	if make -C "$wt" O="$out" ARCH=x86_64 CC="ccache gcc" -j"$JOBS" olddefconfig >"$log" 2>&1 &&
	   make -C "$wt" O="$out" ARCH=x86_64 CC="ccache gcc" -j"$JOBS" security/selinux/ $objs >>"$log" 2>&1 &&
	   ! grep -E '(security|fs|include)/.*(warning|error):' "$log"; then
		echo "ok $n/$total - builds: $subj ($((SECONDS - t0))s)"
	else
		echo "not ok $n/$total - does not build: $subj (log ${log#$TOP/})"
		fail=1
	fi
done
# The last commit must have compiled the suite, or the loop proved less
# than it says.
grep -q '^CONFIG_SECURITY_SELINUX_AVC_KUNIT_TEST=y' "$out/.config" ||
	die "the series' head did not enable the KUnit suite in $out/.config"
grep -q 'avc_test\.c' "$out/security/selinux/.avc.o.cmd" ||
	die "the series' head compiled avc.o without its KUnit suite"
[ $fail -eq 0 ] || die "a commit of the series does not build"
