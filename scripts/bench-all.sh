#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench / make bench-os: everything from a fresh machine to the table.
# Usage: bench-all.sh [os]
# On a base other than the default (BASE=7.3), the same run also
# benchmarks the default base's stock kernel (and its patched one, where
# one was built before, built again from the current series) with the same
# programs, into results/<base>/<default>/, and compares the bases
# (scripts/bases.py: results/<base>/bases.*).
. "$(dirname "$0")/lib.sh"
lock_build

# BENCH_ARCH (configs/arch/) picks the architecture: x86_64 by default.
flavor=$BA_FRAGMENT
[ "${1:-}" = os ] && flavor=$BA_FRAGMENT+os
S=$TOP/scripts
"$S/deps.sh"
"$S/tree.sh"
"$S/build.sh" stock "$flavor"
"$S/build.sh" patched "$flavor"
"$S/bench.sh" "$flavor"
if [ "$flavor" = x86_64-guest ] && [ "$BENCH_ARCH" = x86_64 ] && [ -z "${NO_MICROBENCH:-}" ]; then
	"$S/microbench.sh" ${MICROBENCH_ARCHES:-um}
fi
if [ "$BASE" != "$DEFAULT_BASE" ] && [ -z "${1:-}" ] && [ "$BENCH_ARCH" = x86_64 ] &&
   [ -z "${NO_BASES:-}" ]; then
	msg "the default base, $DEFAULT_BASE, beside it: its stock kernel in the same run"
	kernels=stock
	[ ! -f "$BUILD/out/debian-$DEFAULT_BASE/patched-$flavor/$BA_IMAGE" ] || kernels="stock patched"
	BASE=$DEFAULT_BASE KSRC= "$S/tree.sh"
	BASE=$DEFAULT_BASE KSRC= "$S/build.sh" stock "$flavor"
	# Its patched kernel, where one is built, built again from the series
	# as it is now (an incremental build), so that it is never stale.
	[ "$kernels" = stock ] || BASE=$DEFAULT_BASE KSRC= "$S/build.sh" patched "$flavor"
	BASE=$DEFAULT_BASE KSRC= KERNELS=$kernels BENCH_CHURN=0 RESULTS="$RESULTS_TOP/$DEFAULT_BASE" \
		"$S/bench.sh" "$flavor"
	"$S/bases.py" "$DEFAULT_BASE" "$RESULTS_TOP/$DEFAULT_BASE" "$BASE" "$RESULTS_TOP" "$RESULTS_TOP"
fi
"$S/results.py" --source "$SRCID" "$RESULTS_TOP" || warn "results/RESULTS.md not written"
