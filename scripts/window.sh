#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The stock setenforce window, made wide enough to see.
#
# sel_write_enforce() sets enforcing and then flushes the AVC with
# avc_ss_reset(0), which leaves the policy sequence number alone.  A check
# that read enforcing == 0 in avc_denied() and makes its permissive grant
# (avc_update_node()) after that flush finds, by sequence number, the node
# a later check has inserted, grants on it, and the AVC allows until the
# next reset.  scripts/stress.sh parks its checkers around setenforce 1
# for that reason (STRESS_TOGGLE_HOLD=1).
#
# This script builds the stock and the patched guest kernel with a 3 ms
# delay at that point in avc_denied() (tools/testing/selinux-avc-matrix/window.txt), then runs the
# stress on both with STRESS_TOGGLE_HOLD=0 and with 1.  Expected: both
# kernels fail after "setenforce 0/1" changes only with 0, and both pass
# with 1.  The trees and their build directories are restored afterwards.
# Outputs: build/window/{stock,patched}.bzImage, results/window.txt.
# Environment: STRESS_SECONDS (default 60) and the other STRESS_* settings.
. "$(dirname "$0")/lib.sh"

need_tree
export STRESS_SECONDS=${STRESS_SECONDS:-60}
RESULTS=${RESULTS:-$TOP/results}
dir=$BUILD/window
mkdir -p "$dir" "$RESULTS"
for v in stock patched; do
	mutant_image $v "$TOP/tools/testing/selinux-avc-matrix/window.txt" setenforce-window "$dir/$v.bzImage"
done

: > "$RESULTS/window.txt"
rc=0
for hold in 0 1; do
	for v in stock patched; do
		msg "stress on $v with the widened window, STRESS_TOGGLE_HOLD=$hold"
		KERNELS=$v KERNEL_stock=$dir/stock.bzImage KERNEL_patched=$dir/patched.bzImage \
			STRESS_TOGGLE_HOLD=$hold RESULTS=$dir/$v-hold$hold \
			"$TOP/scripts/stress.sh" > "$dir/$v-hold$hold.log" 2>&1 && r=PASS || r=FAIL
		after=$(grep -a 'FAILURE' "$dir/$v-hold$hold.log" | sed 's/.*(after \(.*\))$/\1/' |
			sort | uniq -c | sed 's/^ *//' | tr '\n' ';' || true)
		line="$v hold=$hold: $r $(grep -a 'avcstress: failures' "$dir/$v-hold$hold.log" |
			sed 's/.*avcstress: failures: //')${after:+ (recorded failures after: $after)}"
		echo "$line" | tee -a "$RESULTS/window.txt"
		# The window is stock's: with the hold off both must fail, on toggles
		# only; with it on both must pass.
		if [ $hold = 0 ]; then
			[ $r = FAIL ] && ! grep -a FAILURE "$dir/$v-hold$hold.log" | grep -v 'setenforce 0/1' | grep -q . || rc=1
		else
			[ $r = PASS ] || rc=1
		fi
	done
done
echo "window: $([ $rc -eq 0 ] && echo "as expected: stock and patched alike" || echo UNEXPECTED) (results/window.txt)"
exit $rc
