#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the project's KUnit suites with tools/testing/kunit/kunit.py.
# Usage: kunit.sh [um|x86_64] [stock|patched]
#   um:      UML, one CPU (the fast one)
#   x86_64:  qemu -smp 2, with CPU hotplug, for the multi-CPU tests
# Extra kunit.py arguments can be passed in KUNIT_ARGS.
. "$(dirname "$0")/lib.sh"

arch=${1:-um}
variant=${2:-patched}
case $variant in
patched) need_tree; src=$PATCHED ;;
*) die "kunit.sh: the suites exist only in the patched tree" ;;
esac
out=$OUTDIR/$variant-kunit-$arch
log=$BUILD/logs/kunit-$SRCID-$variant-$arch.log
mkdir -p "$BUILD/logs" "$OUTDIR"
args=(run --kunitconfig security/selinux --build_dir "$out" --jobs "$JOBS"
      --make_options "CC=ccache gcc" --timeout 1800)
case $arch in
um) ;;
x86_64) args+=(--arch x86_64 --qemu_args "-smp 2"
	       --kconfig_add CONFIG_SMP=y --kconfig_add CONFIG_HOTPLUG_CPU=y) ;;
*) die "kunit.sh: arch must be um or x86_64" ;;
esac
command -v ccache >/dev/null || die "ccache missing: run 'make deps'"

msg "KUnit on $arch ($variant), build dir ${out#$TOP/}, log ${log#$TOP/}"
start=$SECONDS
set +e
(cd "$src" && ./tools/testing/kunit/kunit.py "${args[@]}" ${KUNIT_ARGS:-}) 2>&1 |
	tee "$log" | grep --line-buffered -E '^\[..:..:..\] (Building|Starting|Testing complete|Ran|=+ |\[(PASSED|FAILED|SKIPPED|CRASHED)\]|# |    )|ERROR|error:|FAILED|not ok' >&2
rc=${PIPESTATUS[0]}
set -e
summary=$(grep -E 'Testing complete\.' "$log" | tail -1)
msg "KUnit $arch: ${summary:-no summary} ($((SECONDS - start))s)"
[ "$rc" -eq 0 ] || die "KUnit on $arch failed (log: $log)"
