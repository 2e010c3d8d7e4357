#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build a guest kernel with one deliberate breakage from scripts/mutants.txt
# and check that the whole-system tests catch it: the decision matrix
# (stock vs mutant) and, with WITH_STRESS=1, the race stress must fail.
# MUTANT_KERNEL_TOOLS="matrix stress bench-checks" picks the tools
# (scripts/mutants.sh); bench-checks boots the benchmark guest (project
# policy, no benchmark run) and must see one of its policy checks fail.
# The mutation is made in the patched tree and built incrementally in the
# build directory of the matrix's guest (scripts/build.sh patched
# x86_64-guest+matrix); both are restored (and rebuilt) afterwards.
# Usage: mutant-kernel.sh [NAME]   (default no-reset-invalidate)
. "$(dirname "$0")/lib.sh"
lock_build

need_tree
name=${1:-no-reset-invalidate}
img=$OUTDIR/mutant-$name.bzImage
mutant_image patched "$TOP/scripts/mutants.txt" "$name" "$img" "$MATRIX_FLAVOR"

tools=${MUTANT_KERNEL_TOOLS:-matrix${WITH_STRESS:+ stress}}
rc=0
for tool in $tools; do
	case $tool in
	matrix)
		# mutant-off: the mutant booted with selinux_avc_pcpu=0.
		msg "matrix: stock vs mutant $name, on and off (must fail)"
		if KERNELS="stock mutant mutant-off" KERNEL_mutant=$img RESULTS=$BUILD/mutant-$name \
			"$TOP/scripts/matrix.sh" > "$BUILD/logs/mutant-$name-matrix.log" 2>&1; then
			echo "not ok - matrix did not catch mutant $name"; rc=1
		else
			echo "ok - matrix caught mutant $name: $(grep -cE '(DIFF|EXPECT|REPEAT)' "$BUILD/logs/mutant-$name-matrix.log") differences"
		fi ;;
	stress)
		msg "stress on mutant $name (must fail)"
		if KERNELS=mutant KERNEL_mutant=$img RESULTS=$BUILD/mutant-$name \
			"$TOP/scripts/stress.sh" > "$BUILD/logs/mutant-$name-stress.log" 2>&1; then
			echo "not ok - stress did not catch mutant $name"; rc=1
		else
			echo "ok - stress caught mutant $name: $(grep -a 'avcstress: failures' "$BUILD/logs/mutant-$name-stress.log" | sed 's/.*failures: //' | head -1)"
		fi ;;
	bench-checks)
		msg "bench guest's policy checks on mutant $name (must fail)"
		"$TOP/tools/testing/selinux-avc-bench/guest.sh" project
		log=$BUILD/logs/mutant-$name-bench-checks.log
		bench_guest "${BENCH_TIMEOUT:-900}" "$img" "$GUEST_DIR/initrd-project.gz" \
			"console=$BA_CONSOLE quiet BENCH_SCALE=1 BENCH_OP=null" "$log" ||
			die "bench guest on mutant $name failed (log: ${log#"$TOP"/})"
		grep -aq 'SELINUX-AVC-BENCH: CHECK ok benchmark domain' "$log" ||
			die "bench guest on mutant $name ran no policy checks (log: ${log#"$TOP"/})"
		if grep -aq 'SELINUX-AVC-BENCH: CHECK FAILED' "$log"; then
			echo "ok - bench-checks caught mutant $name: $(grep -a 'CHECK FAILED' "$log" | sed 's/.*CHECK FAILED //' | head -1)"
		else
			echo "not ok - bench-checks did not catch mutant $name"; rc=1
		fi ;;
	*) die "mutant-kernel.sh: unknown tool '$tool' (matrix, stress or bench-checks)" ;;
	esac
done
exit $rc
