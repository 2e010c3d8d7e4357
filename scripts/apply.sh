#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make apply KSRC=DIR: apply the series to the user's own 6.12.y git tree,
# as commits on a new branch (default avc-pcpu, or APPLY_BRANCH) started at
# its HEAD.  Refuses anything but a clean git tree; on failure the tree is
# left on its original branch, exactly as it was.
. "$(dirname "$0")/lib.sh"

[ -n "$KSRC" ] || die "make apply needs KSRC=/path/to/your/linux-6.12 (a clean git tree)"
check_version "$KSRC" >/dev/null
git -C "$KSRC" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
	die "KSRC=$KSRC is not a git tree; 'make apply' only commits to git trees (use 'make tree KSRC=...' to work on a copy)"
[ "$(git -C "$KSRC" rev-parse --show-toplevel)" = "$KSRC" ] ||
	die "KSRC=$KSRC is not the top of its git tree"
[ -z "$(git -C "$KSRC" status --porcelain --untracked-files=no)" ] ||
	die "KSRC=$KSRC has uncommitted changes; commit or stash them first (nothing was changed)"
[ ! -d "$(git -C "$KSRC" rev-parse --git-path rebase-apply)" ] ||
	die "KSRC=$KSRC has a git am/rebase in progress; finish or abort it first"
br=${APPLY_BRANCH:-$BRANCH}
! git -C "$KSRC" rev-parse -q --verify "refs/heads/$br" >/dev/null ||
	die "KSRC=$KSRC already has a branch '$br'; delete it or set APPLY_BRANCH=name"

orig_ref=$(git -C "$KSRC" symbolic-ref -q --short HEAD || git -C "$KSRC" rev-parse HEAD)
kgit "$KSRC" checkout -q -b "$br"
if ! "$TOP/scripts/apply-series.sh" "$KSRC"; then
	kgit "$KSRC" checkout -q "$orig_ref"
	kgit "$KSRC" branch -q -D "$br"
	die "the series does not apply to KSRC=$KSRC; it is back on $orig_ref, unchanged"
fi
msg "KSRC=$KSRC: series applied on new branch $br (was on $orig_ref)"
