#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make build/src/<id>/patched: a git worktree of the pristine tree on branch
# avc-pcpu, holding the series as commits.  The series is applied in a
# scratch worktree first; the patched tree only moves when all of it applied,
# and then only the files that changed are touched (builds stay incremental).
. "$(dirname "$0")/lib.sh"
lock_build

"$TOP/scripts/source.sh"
base=$(kgit "$PRISTINE" rev-parse "$BASE_TAG")
stamp=$( (echo "$base"; cat "$PATCHDIR/series" "$PATCHDIR"/*.patch) | md5sum | cut -c1-32)
stampfile=$SRCDIR/tree.stamp
# tree.moving exists while the patched tree is made or moved to a new
# series; if it is there at the start, the run that wrote it was killed
# half-way, after the checks below, and the patched tree holds its
# half-done checkout, not the user's work.
moving=$SRCDIR/tree.moving
if [ ! -e "$moving" ] && [ -d "$PATCHED" ] && [ -f "$stampfile" ] && [ "$(head -1 "$stampfile")" = "$stamp" ] &&
   [ "$(kgit "$PATCHED" rev-parse HEAD)" = "$(sed -n 2p "$stampfile")" ]; then
	exit 0
fi

scratch=$SRCDIR/scratch
scratch_worktree "$scratch" "$base"
msg "applying the series to $(cat "$PRISTINE/.git/avc-base-version" 2>/dev/null || echo base)"
"$TOP/scripts/apply-series.sh" "$scratch"
new=$(kgit "$scratch" rev-parse HEAD)

resume=
if [ -e "$moving" ]; then
	resume=1
	warn "the last update of ${PATCHED#"$TOP"/} was interrupted: finishing it"
	if [ -e "$PATCHED" ] && ! worktree_ok "$PATCHED"; then
		rm -rf "$PATCHED"
	fi
	[ ! -d "$PATCHED" ] || clear_index_lock "$PATCHED"
elif [ -e "$PATCHED" ] && ! worktree_ok "$PATCHED"; then
	die "$PATCHED is not a git worktree of ${PRISTINE#"$TOP"/} (was that made again?); move it away and run 'make tree' again"
fi
if [ ! -d "$PATCHED" ]; then
	touch "$moving"
	kgit "$PRISTINE" worktree prune
	kgit "$PRISTINE" branch -f "$BRANCH" "$new"
	kgit "$PRISTINE" worktree add -q "$PATCHED" "$BRANCH"
else
	# Never throw away work done in the patched tree.
	if [ -z "$resume" ] && [ -n "$(kgit "$PATCHED" status --porcelain --untracked-files=no)" ]; then
		die "$PATCHED has uncommitted changes; commit and export them (scripts/export.sh) or discard them first"
	fi
	last=$(sed -n 2p "$stampfile" 2>/dev/null || true)
	head=$(kgit "$PATCHED" rev-parse HEAD)
	if [ -z "$resume" ] && [ "$head" != "$last" ] && [ "$head" != "$new" ] &&
	   [ "$(kgit "$PATCHED" rev-parse "HEAD^{tree}")" != "$(kgit "$PATCHED" rev-parse "$new^{tree}")" ]; then
		die "$PATCHED has commits that are not in ${PATCHDIR#"$TOP"/}/ (run scripts/export.sh to keep them, or 'git -C $PATCHED reset --hard $last' to drop them)"
	fi
	touch "$moving"
	kgit "$PATCHED" reset -q --hard "$new"
fi
printf '%s\n%s\n' "$stamp" "$new" > "$stampfile"
rm -f "$moving"
msg "patched tree: $PATCHED ($(kgit "$PATCHED" rev-list --count "$base..HEAD") commits on $(cat "$PRISTINE/.git/avc-base-version" 2>/dev/null))"
