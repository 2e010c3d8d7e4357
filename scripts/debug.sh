#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the KUnit suite on debug kernels (x86_64, qemu -smp 2): one build with
# KASAN, PROVE_LOCKING, PROVE_RCU, DEBUG_ATOMIC_SLEEP and DEBUG_PREEMPT,
# one with KCSAN.  Any failed test or any report in the kernel log fails.
# Usage: debug.sh [lock] [kcsan]   (default: both)
. "$(dirname "$0")/lib.sh"

need_tree
cfgs=${*:-lock kcsan}
fail=0
mkdir -p "$OUTDIR" "$BUILD/logs"
for c in $cfgs; do
	frag=$TOP/configs/debug-$c.config
	[ -f "$frag" ] || die "no config fragment $frag"
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
		echo "not ok - debug kernel $c: rc=$rc $summary" >&2
		[ -z "$reports" ] || echo "$reports" | sed 's/^/    /' >&2
		fail=1
	else
		echo "ok - debug kernel $c: $summary($((SECONDS - start))s)"
	fi
done
[ $fail -eq 0 ] || die "debug-kernel KUnit runs failed"
