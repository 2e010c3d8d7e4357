#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The KUnit suite and the race stress on debug kernels (x86_64, qemu
# -smp 2): one configuration with KASAN, PROVE_LOCKING, PROVE_RCU,
# DEBUG_ATOMIC_SLEEP and DEBUG_PREEMPT, one with KCSAN (configs/debug-*.config).
# For each: KUnit on a kunit.py kernel, then a patched guest kernel with
# the same debug options (configs/x86_64-guest.config + the fragment) runs
# scripts/stress.sh.  Any failed test, failed stress or report in a kernel
# log fails.
# Usage: debug.sh [lock] [kcsan]   (default: both)
# Environment:
#   DEBUG_RUN="kunit stress"   which parts to run (default both)
#   STRESS_*                   passed on to stress.sh; here STRESS_SECONDS
#                              defaults to 300 and STRESS_TIMEOUT to 900,
#                              as the debug kernels run several times slower
# Outputs: build/logs/kunit-debug-*.log, build/stress/patched-x86_64-guest+debug-*.log,
# results/stress-debug-*.txt, results/debug.txt (summary).
. "$(dirname "$0")/lib.sh"
lock_build

need_tree
cfgs=${*:-lock kcsan}
DEBUG_RUN=${DEBUG_RUN:-kunit stress}
export STRESS_SECONDS=${STRESS_SECONDS:-300} STRESS_TIMEOUT=${STRESS_TIMEOUT:-900}
RESULTS=${RESULTS:-$RESULTS_TOP}
fail=0
mkdir -p "$OUTDIR" "$BUILD/logs" "$RESULTS"
: > "$RESULTS/debug.txt"
report() {
	echo "$1" | tee -a "$RESULTS/debug.txt"
}
for c in $cfgs; do
	frag=$TOP/configs/debug-$c.config
	[ -f "$frag" ] || die "no config fragment $frag"
	case " $DEBUG_RUN " in *" kunit "*) ;; *) continue ;; esac
	out=$OUTDIR/patched-kunit-x86_64-$c
	log=$BUILD/logs/kunit-debug-$c.log
	adds=()
	while read -r l; do
		case $l in CONFIG_*) adds+=(--kconfig_add "$l") ;; esac
	done < "$frag"
	msg "KUnit on a $c debug kernel (x86_64 -smp 2), log ${log#$TOP/}"
	start=$SECONDS
	set +e
	(cd "$PATCHED" && ./tools/testing/kunit/kunit.py run --arch x86_64 \
		--kunitconfig security/selinux --build_dir "$out" --jobs "$JOBS" \
		--make_options "CC=ccache gcc" --timeout 3600 --qemu_args "-smp 2 -m 2048" \
		--raw_output=all --kernel_args selinux.avc_kunit_checks=200000 "${adds[@]}") > "$log" 2>&1 &
	pid=$!
	while kill -0 $pid 2>/dev/null; do
		sleep 15
		kill -0 $pid 2>/dev/null && printf '    ... %s: %ds\n' "$c" $((SECONDS - start)) >&2
	done
	wait $pid; rc=$?
	set -e
	reports=$(grep -E 'BUG: |WARNING: |KASAN|KCSAN: data-race|possible circular locking|inconsistent lock state|sleeping function called from invalid context|suspicious RCU usage|DEBUG_LOCKS_WARN|Call Trace' "$log" | grep -v 'Kernel command line' | head -20 || true)
	summary=$(grep -E '# Totals:|^ok [0-9]+ selinux_avc|^not ok [0-9]+ selinux_avc' "$log" | tail -2 | tr '\n' ' ')
	if [ $rc -ne 0 ] || [ -n "$reports" ] || ! grep -qE '^ok [0-9]+ selinux_avc$' "$log"; then
		report "not ok - KUnit on debug kernel $c: rc=$rc $summary"
		[ -z "$reports" ] || echo "$reports" | sed 's/^/    /' | tee -a "$RESULTS/debug.txt"
		fail=1
	else
		report "ok - KUnit on debug kernel $c: $summary($((SECONDS - start))s)"
	fi
done
for c in $cfgs; do
	case " $DEBUG_RUN " in *" stress "*) ;; *) continue ;; esac
	flavor=x86_64-guest+debug-$c
	"$TOP/scripts/build.sh" patched "$flavor"
	start=$SECONDS
	if RESULTS=$RESULTS "$TOP/scripts/stress.sh" "$flavor"; then
		report "ok - stress on debug kernel $c: $(grep -a 'avcstress: \(iterations\|hammers\|held_\|failures\)' "$RESULTS/stress-debug-$c.txt" | sed 's/^[^:]*: avcstress: //' | tr '\n' ' ') ($((SECONDS - start))s)"
	else
		report "not ok - stress on debug kernel $c (results/stress-debug-$c.txt)"
		fail=1
	fi
done
[ $fail -eq 0 ] || die "debug-kernel runs failed (results/debug.txt)"
