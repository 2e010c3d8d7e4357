#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Apply the series of the base (the patches named in $PATCHDIR/series, git format-patch
# output) with git am on top of HEAD of a git tree.
# Usage: apply-series.sh DIR
# On any failure DIR is put back to where it was and the patch and the file
# that failed are named.
. "$(dirname "$0")/lib.sh"

dir=${1:?usage: apply-series.sh DIR}
series=$PATCHDIR/series
[ -f "$series" ] || die "no series file $series"
orig=$(kgit "$dir" rev-parse HEAD)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

undo() {
	kgit "$dir" am --abort >/dev/null 2>&1 || true
	kgit "$dir" reset -q --hard "$orig"
}

n=0
while read -r name rest; do
	case $name in ''|'#'*) continue ;; esac
	n=$((n + 1))
	[ -z "$rest" ] || { undo; die "series line $n: one patch per line, not '$name $rest'"; }
	p=$PATCHDIR/$name
	[ -f "$p" ] || { undo; die "series line $n: no such patch ${p#"$TOP"/}"; }
	grep -q '^Subject: ' "$p" || { undo; die "${p#"$TOP"/} has no Subject line (not git format-patch output)"; }
	# The commit date is the patch's, so the same series gives the same commits.
	if ! kgit "$dir" am -q --whitespace=nowarn --committer-date-is-author-date "$p" >"$work/err" 2>&1; then
		file=$(sed -n 's/^error: patch failed: \([^:]*\):.*/\1/p; s/^error: \([^:]*\): does not exist in index/\1/p; s/^error: \([^:]*\): already exists in index/\1/p; s/^error: \([^:]*\): already exists in working directory/\1/p' "$work/err" | head -1)
		undo
		die "${p#"$TOP"/} does not apply${file:+ to $file} (base $(kernel_version "$dir")); nothing was changed.
$(sed 's/^/    /' "$work/err")"
	fi
done < "$series"
[ "$n" -gt 0 ] || die "series $series is empty"
msg "applied $n patches to $dir"
