#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make build/src/<id>/patched: a git worktree of the pristine tree on branch
# avc-pcpu, holding the series as commits.  The series is applied in a
# scratch worktree first; the patched tree only moves when all of it applied,
# and then only the files that changed are touched (builds stay incremental).
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/source.sh"
base=$(kgit "$PRISTINE" rev-parse "$BASE_TAG")
stamp=$( (echo "$base"; cat "$TOP/patches/series";
	  awk '!/^#/ && NF { for (i = 2; i <= NF; i++) print $i }' "$TOP/patches/series" |
		while read -r f; do cat "$TOP/$f"; done; cat "$TOP"/patches/*.patch) | md5sum | cut -c1-32)
stampfile=$SRCDIR/tree.stamp
if [ -d "$PATCHED" ] && [ -f "$stampfile" ] && [ "$(head -1 "$stampfile")" = "$stamp" ] &&
   [ "$(kgit "$PATCHED" rev-parse HEAD)" = "$(sed -n 2p "$stampfile")" ]; then
	exit 0
fi

scratch=$SRCDIR/scratch
if [ ! -d "$scratch" ]; then
	kgit "$PRISTINE" worktree prune
	kgit "$PRISTINE" worktree add -q --detach "$scratch" "$base"
fi
kgit "$scratch" reset -q --hard "$base"
kgit "$scratch" clean -q -fdx
msg "applying the series to $(cat "$PRISTINE/.git/avc-base-version" 2>/dev/null || echo base)"
"$TOP/scripts/apply-series.sh" "$scratch"
new=$(kgit "$scratch" rev-parse HEAD)

if [ ! -d "$PATCHED" ]; then
	kgit "$PRISTINE" worktree prune
	kgit "$PRISTINE" branch -f "$BRANCH" "$new"
	kgit "$PRISTINE" worktree add -q "$PATCHED" "$BRANCH"
else
	# Never throw away work done in the patched tree.
	if [ -n "$(kgit "$PATCHED" status --porcelain --untracked-files=no)" ]; then
		die "$PATCHED has uncommitted changes; commit and export them (scripts/export.sh) or discard them first"
	fi
	last=$(sed -n 2p "$stampfile" 2>/dev/null || true)
	head=$(kgit "$PATCHED" rev-parse HEAD)
	if [ "$head" != "$last" ] && [ "$head" != "$new" ] &&
	   [ "$(kgit "$PATCHED" rev-parse "HEAD^{tree}")" != "$(kgit "$PATCHED" rev-parse "$new^{tree}")" ]; then
		die "$PATCHED has commits that are not in patches/ (run scripts/export.sh to keep them, or 'git -C $PATCHED reset --hard $last' to drop them)"
	fi
	kgit "$PATCHED" reset -q --hard "$new"
fi
printf '%s\n%s\n' "$stamp" "$new" > "$stampfile"
msg "patched tree: $PATCHED ($(kgit "$PATCHED" rev-list --count "$base..HEAD") commits on $(cat "$PRISTINE/.git/avc-base-version" 2>/dev/null))"
