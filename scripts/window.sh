#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The stock setenforce window, made wide enough to see.
#
# sel_write_enforce() sets enforcing and then flushes the AVC with
# avc_ss_reset(0), which leaves the policy sequence number alone.  A check
# that read enforcing == 0 in avc_denied() and makes its permissive grant
# (avc_update_node()) after that flush finds, by sequence number, the node
# a later check has inserted, grants on it, and the AVC allows until the
# next reset.  The series' first patch fixes that in stock code.
#
# This script builds three guest kernels with a 3 ms delay at that point in
# avc_denied() (tools/testing/selinux-avc-matrix/window.txt): stock, stock
# plus the series' first patch (the fix for this window, "stockfix") and
# the whole series, then runs the stress on each with the checkers racing
# the toggles (STRESS_TOGGLE_HOLD=0).  Expected: stock fails, after
# "setenforce 0/1" changes only; stockfix and patched pass.  The trees and
# their build directories are restored afterwards.
# Outputs: build/window/<kernel>.bzImage, results/window.txt.
# Environment: STRESS_SECONDS (default 60) and the other STRESS_* settings.
. "$(dirname "$0")/lib.sh"

need_tree
need_stockfix
export STRESS_SECONDS=${STRESS_SECONDS:-60}
RESULTS=${RESULTS:-$TOP/results}
dir=$BUILD/window
mkdir -p "$dir" "$RESULTS"
kernels="stock stockfix patched"
[ -f "$OUTDIR/stockfix-x86_64-guest/arch/x86/boot/bzImage" ] ||
	"$TOP/scripts/build.sh" stockfix
for v in $kernels; do
	mutant_image $v "$TOP/tools/testing/selinux-avc-matrix/window.txt" setenforce-window "$dir/$v.bzImage"
done

: > "$RESULTS/window.txt"
rc=0
for v in $kernels; do
	msg "stress on $v with the widened window, STRESS_TOGGLE_HOLD=0"
	KERNELS=$v KERNEL_stock=$dir/stock.bzImage KERNEL_stockfix=$dir/stockfix.bzImage \
		KERNEL_patched=$dir/patched.bzImage STRESS_TOGGLE_HOLD=0 RESULTS=$dir/$v \
		"$TOP/scripts/stress.sh" > "$dir/$v.log" 2>&1 && r=PASS || r=FAIL
	after=$(grep -a 'FAILURE' "$dir/$v.log" | sed 's/.*(after \(.*\))$/\1/' |
		sort | uniq -c | sed 's/^ *//' | tr '\n' ';' || true)
	line="$v: $r $(grep -a 'avcstress: failures' "$dir/$v.log" |
		sed 's/.*avcstress: failures: //')${after:+ (recorded failures after: $after)}"
	echo "$line" | tee -a "$RESULTS/window.txt"
	# Stock must fail, and only after the toggles; the fix and the whole
	# series must pass.
	if [ $v = stock ]; then
		[ $r = FAIL ] && ! grep -a FAILURE "$dir/$v.log" | grep -v 'setenforce 0/1' | grep -q . || rc=1
	else
		[ $r = PASS ] || rc=1
	fi
done
echo "window: $([ $rc -eq 0 ] && echo "as expected: stock fails, stock + fix and the series pass" || echo UNEXPECTED) (results/window.txt)"
exit $rc
