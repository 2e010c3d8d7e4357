#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make mutants: prove that the tests can fail.  Break the series on purpose,
# one mutant at a time (scripts/mutants.txt), and run every tool that the
# mutant's "catch" line names; each of them must fail on it.
#   kunit-um, kunit-x86_64  the mutation is made in the patched tree, the
#                           KUnit suite runs (kunit.sh), the tree is restored
#   matrix, stress,         a mutant guest kernel (mutant-kernel.sh)
#   bench-checks
#   litmus                  make litmus must pass, and its tests that model
#                           the mutant (NAME in the file name after a '+')
#                           must show the bad outcome; needs herd7 (HERD7=)
# Usage: mutants.sh [NAME...]        (default: every mutant in the table)
# Environment: MUTANT_TOOLS="tool..." runs only those tools.
# BASE=7.3: the mutants of that base's series (lines NAME@7.3 where its
# code reads differently), in its patched tree.
# Output: one "ok"/"not ok" line per (mutant, tool), results/[<base>/]mutants.txt.
. "$(dirname "$0")/lib.sh"
lock_build

need_tree
spec=$TOP/scripts/mutants.txt
RESULTS=${RESULTS:-$RESULTS_TOP}
mkdir -p "$BUILD/logs" "$RESULTS"
[ -z "$(kgit "$PATCHED" status --porcelain --untracked-files=no)" ] ||
	die "$PATCHED has uncommitted changes"
restore() { kgit "$PATCHED" checkout -q -- security; }
trap restore EXIT

# "name tool..." for every catch line of this base, in table order (a
# fourth field lists the only bases whose series has the mutant's code).
table=$(mutant_table "$spec")
[ -n "$table" ] || die "no catch lines for BASE=$BASE in ${spec#"$TOP"/}"
names=${*:-$(echo "$table" | awk '{print $1}')}
for name in $names; do
	echo "$table" | awk -v n="$name" '$1 == n { f = 1 } END { exit !f }' ||
		die "mutant $name has no catch line for BASE=$BASE in ${spec#"$TOP"/}"
done

caught=0 missed=0
out=$RESULTS/mutants.txt
: > "$out"
report() { echo "$1" | tee -a "$out"; }

kunit_tool() {
	local name=$1 arch=$2 log=$BUILD/logs/mutants-$1-kunit-$2.log fails
	python3 "$TOP/scripts/mutate.py" "$spec" "$PATCHED" "$name" ||
		die "mutant $name does not fit the tree any more; update ${spec#"$TOP"/}"
	if "$TOP/scripts/kunit.sh" "$arch" >"$log" 2>&1; then
		restore
		return 1
	fi
	restore
	fails=$( (grep -oE '\[FAILED\] (avc|cav|lc)_test_[a-z_0-9]+' "$BUILD/logs/kunit-$SRCID-patched-$arch.log" || true) |
		sed 's/.*\] //' | sort -u | tr '\n' ' ')
	echo "${fails:-build or crash}"
}

for name in $names; do
	tools=$(echo "$table" | awk -v n="$name" '$1 == n { $1 = ""; print }')
	for tool in $tools; do
		if [ -n "${MUTANT_TOOLS:-}" ] && [[ " $MUTANT_TOOLS " != *" $tool "* ]]; then
			continue
		fi
		msg "mutant $name against $tool"
		by=
		case $tool in
		kunit-um) by=$(kunit_tool "$name" um) || by= ;;
		kunit-x86_64) by=$(kunit_tool "$name" x86_64) || by= ;;
		kunit-i386) by=$(kunit_tool "$name" i386) || by= ;;
		matrix|stress|bench-checks)
			# mutant-kernel.sh keeps the tool's own log as
			# mutant-NAME-TOOL.log; this is its summary.
			log=$BUILD/logs/mutants-$name-$tool.log
			if MUTANT_KERNEL_TOOLS=$tool "$TOP/scripts/mutant-kernel.sh" "$name" >"$log" 2>&1; then
				by=$( (grep -a '^ok - ' "$log" || echo caught) | sed 's/^ok - //' | tr '\n' ' ')
			fi ;;
		litmus)
			# One make litmus for the whole run; it must pass (the
			# series' tests Never, the mutants' Sometimes).
			if [ -z "${litmus_out:-}" ]; then
				litmus_rc=0
				litmus_out=$("$TOP/scripts/litmus.sh" 2>&1) || litmus_rc=$?
				echo "$litmus_out" > "$BUILD/logs/mutants-litmus.log"
			fi
			if [ "$litmus_rc" -eq 0 ]; then
				by=$(echo "$litmus_out" | grep -E "^ok [0-9]+ - [^ ]*\+$name(\+[^ ]*)?\.litmus: Sometimes" |
					sed 's/^ok [0-9]* - //; s/ ([0-9]*s)$//' | tr '\n' ' ' || true)
			fi ;;
		*) die "mutant $name: unknown tool '$tool'" ;;
		esac
		if [ -n "$by" ]; then
			report "ok - mutant $name caught by $tool: $by"
			caught=$((caught + 1))
		else
			report "not ok - mutant $name survived $tool"
			missed=$((missed + 1))
		fi
	done
done
echo "$caught passed, $missed failed"
[ $missed -eq 0 ]
