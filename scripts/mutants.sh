#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Prove that the KUnit suite can fail: break the per-CPU cache on purpose,
# one mutation at a time (scripts/mutants.txt), and require a KUnit failure
# for each.  The mutation is made in the patched tree and always undone.
# Usage: mutants.sh [um|x86_64] [NAME...]
. "$(dirname "$0")/lib.sh"

need_tree
arch=${1:-um}; shift || true
only=" $* "
[ -z "$(kgit "$PATCHED" status --porcelain --untracked-files=no)" ] ||
	die "$PATCHED has uncommitted changes"
restore() { kgit "$PATCHED" checkout -q -- security/selinux; }
trap restore EXIT
caught=0 missed=0
names=$(grep -vE '^\s*(#|$)' "$TOP/scripts/mutants.txt" | awk '{print $1}' | uniq)
for name in $names; do
	[ "$only" = "  " ] || [[ "$only" == *" $name "* ]] || continue
	python3 "$TOP/scripts/mutate.py" "$TOP/scripts/mutants.txt" "$PATCHED" "$name" ||
		die "mutant $name does not fit the tree any more; update scripts/mutants.txt"
	if "$TOP/scripts/kunit.sh" "$arch" >"$BUILD/logs/mutant-$name.log" 2>&1; then
		echo "not ok - mutant $name survived (the suite passed)"
		missed=$((missed + 1))
	else
		fails=$(grep -oE '\[FAILED\] avc_test_[a-z_0-9]+' "$BUILD/logs/kunit-$SRCID-patched-$arch.log" | sed 's/.*\] //' | tr '\n' ' ')
		echo "ok - mutant $name caught by: ${fails:-build or crash}"
		caught=$((caught + 1))
	fi
	restore
done
echo "$caught passed, $missed failed"
[ $missed -eq 0 ]
