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
#
# A second part widens the stale-allow window of avc_ss_reset() that the
# series closed (window.txt: reset-window-old reverts the fix and adds the
# delays, reset-delays adds only the delays to the series): the stress must
# fail on the first and pass on the second.
# Outputs: build/window/<kernel>.bzImage, results/window.txt.
# Environment: STRESS_SECONDS (default 60) and the other STRESS_* settings;
# WINDOW_PARTS="setenforce reset" (default both).
. "$(dirname "$0")/lib.sh"
lock_build

need_tree
need_stockfix
export STRESS_SECONDS=${STRESS_SECONDS:-60}
RESULTS=${RESULTS:-$RESULTS_TOP}
WINDOW_PARTS=${WINDOW_PARTS:-setenforce reset}
spec=$TOP/tools/testing/selinux-avc-matrix/window.txt
dir=$BUILD/window
mkdir -p "$dir" "$RESULTS"

# name variant mutant expect: the guest kernels of each part.
kernels=
for part in $WINDOW_PARTS; do
	case $part in
	setenforce) kernels+="stock stock setenforce-window FAIL
stockfix stockfix setenforce-window PASS
patched patched setenforce-window PASS
" ;;
	reset) kernels+="resetold patched reset-window-old FAIL
resetfix patched reset-delays PASS
" ;;
	*) die "WINDOW_PARTS: unknown part '$part' (setenforce, reset)" ;;
	esac
done
[ -f "$OUTDIR/stockfix-x86_64-guest/arch/x86/boot/bzImage" ] ||
	"$TOP/scripts/build.sh" stockfix
while read -r k variant mutant expect; do
	[ -n "$k" ] || continue
	mutant_image "$variant" "$spec" "$mutant" "$dir/$k.bzImage"
done <<< "$kernels"

: > "$RESULTS/window.txt"
rc=0
while read -r k variant mutant expect; do
	[ -n "$k" ] || continue
	msg "stress on $k ($variant + $mutant), STRESS_TOGGLE_HOLD=0, must $expect"
	env KERNELS="$k" "KERNEL_$k=$dir/$k.bzImage" STRESS_TOGGLE_HOLD=0 RESULTS="$dir/$k" \
		"$TOP/scripts/stress.sh" > "$dir/$k.log" 2>&1 && r=PASS || r=FAIL
	after=$(grep -a 'FAILURE' "$dir/$k.log" | sed 's/.*(after \(.*\))$/\1/' |
		sort | uniq -c | sed 's/^ *//' | tr '\n' ';' || true)
	line="$k ($variant + $mutant): $r, expected $expect; $(grep -a 'avcstress: failures' "$dir/$k.log" |
		sed 's/.*avcstress: failures: //')${after:+ (recorded failures after: $after)}"
	echo "$line" | tee -a "$RESULTS/window.txt"
	[ $r = "$expect" ] || rc=1
	# Stock's window opens at the toggles only.
	if [ "$mutant" = setenforce-window ] && [ $r = FAIL ] &&
	   grep -a FAILURE "$dir/$k.log" | grep -v 'setenforce 0/1' | grep -q .; then
		rc=1
	fi
done <<< "$kernels"
echo "window: $([ $rc -eq 0 ] && echo "as expected" || echo UNEXPECTED) (results/window.txt)"
exit $rc
