#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench / make bench-os: everything from a fresh machine to the table.
# Usage: bench-all.sh [os]
. "$(dirname "$0")/lib.sh"
lock_build

flavor=x86_64-guest
[ "${1:-}" = os ] && flavor=x86_64-guest+os
S=$TOP/scripts
"$S/deps.sh"
"$S/tree.sh"
"$S/build.sh" stock "$flavor"
"$S/build.sh" patched "$flavor"
"$S/bench.sh" "$flavor"
if [ "$flavor" = x86_64-guest ] && [ -z "${NO_MICROBENCH:-}" ]; then
	"$S/microbench.sh" ${MICROBENCH_ARCHES:-um}
fi
