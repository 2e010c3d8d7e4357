#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build a guest kernel with one deliberate breakage from scripts/mutants.txt
# and check that the whole-system tests catch it: the decision matrix
# (stock vs mutant) and the race stress must both fail.
# The mutation is made in the patched tree and built incrementally in its
# build directory; both are restored (and rebuilt) afterwards.
# Usage: mutant-kernel.sh [NAME]   (default no-reset-invalidate)
. "$(dirname "$0")/lib.sh"

need_tree
name=${1:-no-reset-invalidate}
out=$OUTDIR/patched-x86_64-guest
[ -f "$out/arch/x86/boot/bzImage" ] || die "build the patched kernel first (make kernel)"
[ -z "$(kgit "$PATCHED" status --porcelain --untracked-files=no)" ] ||
	die "$PATCHED has uncommitted changes"
img=$OUTDIR/mutant-$name.bzImage
restore() {
	kgit "$PATCHED" checkout -q -- security/selinux
	"$TOP/scripts/build.sh" patched >/dev/null 2>&1 || warn "rebuild of the patched kernel failed"
}
trap restore EXIT
python3 "$TOP/scripts/mutate.py" "$TOP/scripts/mutants.txt" "$PATCHED" "$name" ||
	die "mutant $name does not apply"
"$TOP/scripts/build.sh" patched
cp "$out/arch/x86/boot/bzImage" "$img"
restore
trap - EXIT

rc=0
msg "matrix: stock vs mutant $name (must fail)"
if KERNELS="stock mutant" KERNEL_mutant=$img RESULTS=$BUILD/mutant-$name \
	"$TOP/scripts/matrix.sh" > "$BUILD/logs/mutant-$name-matrix.log" 2>&1; then
	echo "not ok - matrix did not catch mutant $name"; rc=1
else
	echo "ok - matrix caught mutant $name: $(grep -cE '(DIFF|EXPECT|REPEAT)' "$BUILD/logs/mutant-$name-matrix.log") differences"
fi
if [ -n "${WITH_STRESS:-}" ]; then
	msg "stress on mutant $name (must fail)"
	if KERNELS=mutant KERNEL_mutant=$img RESULTS=$BUILD/mutant-$name \
		"$TOP/scripts/stress.sh" > "$BUILD/logs/mutant-$name-stress.log" 2>&1; then
		echo "not ok - stress did not catch mutant $name"; rc=1
	else
		echo "ok - stress caught mutant $name"
	fi
fi
exit $rc
