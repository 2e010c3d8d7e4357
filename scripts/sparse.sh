#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sparse (C=2) on security/selinux in the stock and the patched guest kernel
# builds; fails if the patched tree has any report stock does not have.
# Usage: sparse.sh [FLAVOR]   (default x86_64-guest+matrix, the kernels
# make check builds)
. "$(dirname "$0")/lib.sh"
lock_build

mkdir -p "$BUILD/logs"
norm() {
	# Drop the tree prefix, and line and column numbers, which move when
	# code is added.
	{ grep -E '(warning|error):' "$1" || true; } |
		sed -E -e "s|$PRISTINE/||; s|$PATCHED/||" -e 's/:[0-9]+:[0-9]+:/:/' | sort
}
for v in stock patched; do
	out=$OUTDIR/$v-${1:-$MATRIX_FLAVOR}
	src=$PRISTINE; [ $v = patched ] && src=$PATCHED
	[ -f "$out/.config" ] || die "no $v build in $out: run 'make kernel-matrix'"
	check=$(sparse_check "$src") || exit 1
	msg "sparse on $v security/selinux${check:+ ($check)}"
	make -C "$src" O="$out" ARCH=x86_64 CC="ccache gcc" -j"$JOBS" C=2 \
		CHECK="$check" security/selinux/ >"$BUILD/logs/sparse-$v.raw" 2>&1 ||
		{ tail -20 "$BUILD/logs/sparse-$v.raw"; die "sparse build of $v failed"; }
	# kbuild only warns when it cannot use the checker, and checks nothing.
	! grep -q 'specified, but .* is not available or not up to date' "$BUILD/logs/sparse-$v.raw" ||
		die "kbuild did not run sparse on $v (${BUILD#"$TOP"/}/logs/sparse-$v.raw): its checker is not available or not up to date"
	# And it checked files (C=2 checks every one of security/selinux).
	grep -q '^  CHECK ' "$BUILD/logs/sparse-$v.raw" ||
		die "no CHECK line in ${BUILD#"$TOP"/}/logs/sparse-$v.raw: sparse did not run on $v"
	norm "$BUILD/logs/sparse-$v.raw" > "$BUILD/logs/sparse-$v.txt"
done
new=$(comm -13 "$BUILD/logs/sparse-stock.txt" "$BUILD/logs/sparse-patched.txt")
msg "sparse: stock $(wc -l < "$BUILD/logs/sparse-stock.txt") reports, patched $(wc -l < "$BUILD/logs/sparse-patched.txt")"
if [ -n "$new" ]; then
	echo "$new" | sed 's/^/    /' >&2
	die "sparse reports on the patched tree that stock does not have"
fi
