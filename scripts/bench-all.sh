#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench / make bench-os: everything from a fresh machine to the table.
# Usage: bench-all.sh [os]
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
"$S/results.py" --source "$SRCID" "$TOP/results" || warn "results/RESULTS.md not written"
