#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make the pristine kernel tree under build/src/<id>/pristine: a git repo
# whose first commit, tagged avc-base, is the unmodified source.
#   default: the Debian source tarball of the base (configs/base/$BASE.conf)
#   KSRC=DIR: the user's own tree, cloned or copied (never modified)
. "$(dirname "$0")/lib.sh"
lock_build

# The tree is made in .pristine.tmp and renamed into place when complete;
# .git/avc-base-version is written last.  Whatever an interrupted run left
# (a half-unpacked .pristine.tmp, a pristine tree without the version
# file, one half removed) is removed and made again here.
if [ -f "$PRISTINE/.git/avc-base-version" ] &&
   kgit "$PRISTINE" rev-parse -q --verify "$BASE_TAG" >/dev/null 2>&1; then
	exit 0
fi

tmp=$SRCDIR/.pristine.tmp
old=$SRCDIR/.pristine.old
[ ! -e "$tmp" ] || msg "removing ${tmp#"$TOP"/}, left by an interrupted run"
rm -rf "$tmp" "$old"
if [ -e "$PRISTINE" ]; then
	warn "${PRISTINE#"$TOP"/} is incomplete (an interrupted run?): making it again"
	mv "$PRISTINE" "$old"
	rm -rf "$old"
fi
mkdir -p "$SRCDIR"
trap 'rm -rf "$tmp"' EXIT

if [ -z "$KSRC" ]; then
	tarball=$(base_tarball)
	msg "unpacking ${tarball#"$TOP"/}"
	mkdir -p "$tmp"
	progress "unpack" tar -C "$tmp" --strip-components=1 -xf "$tarball"
	ver=$(check_version "$tmp")
	desc="Debian $BASE_PACKAGE ($ver)"
	msg "recording $desc as a git repo (one-off)"
	git -C "$tmp" init -q
	progress "git add" kgit "$tmp" add -A -f
	# One commit for one tarball on every machine, so that the cover
	# letter's base-commit names it: the package as author and committer,
	# dated by the tarball's Makefile (Debian's SOURCE_DATE_EPOCH).
	when="@$(stat -c %Y "$tmp/Makefile") +0000"
	GIT_AUTHOR_NAME="$BASE_PACKAGE" GIT_AUTHOR_EMAIL="$BASE_PACKAGE@packages.debian.org" \
	GIT_COMMITTER_NAME="$BASE_PACKAGE" GIT_COMMITTER_EMAIL="$BASE_PACKAGE@packages.debian.org" \
	GIT_AUTHOR_DATE=$when GIT_COMMITTER_DATE=$when \
		kgit "$tmp" commit -q -m "Linux $ver: $desc"
else
	ver=$(check_version "$KSRC")
	if git -C "$KSRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		[ -z "$(git -C "$KSRC" status --porcelain --untracked-files=no)" ] ||
			die "KSRC=$KSRC has uncommitted changes; commit or stash them first (nothing was changed)"
		msg "cloning $KSRC ($ver, $(git -C "$KSRC" rev-parse --short HEAD))"
		progress "clone" git clone -q --local --no-hardlinks --no-checkout "$KSRC" "$tmp" 2>/dev/null ||
			progress "clone" git clone -q --local --no-checkout "$KSRC" "$tmp"
		kgit "$tmp" checkout -q --detach "$(git -C "$KSRC" rev-parse HEAD)"
	else
		[ ! -e "$KSRC/.config" ] ||
			die "KSRC=$KSRC has a .config (an in-tree build); run 'make mrproper' there or use a clean tree"
		msg "copying $KSRC ($ver, not a git tree)"
		mkdir -p "$tmp"
		progress "copy" cp -a "$KSRC/." "$tmp/"
		git -C "$tmp" init -q
		progress "git add" kgit "$tmp" add -A -f
		kgit "$tmp" commit -q -m "Linux $ver from $KSRC"
	fi
fi
kgit "$tmp" tag -f "$BASE_TAG" >/dev/null
# A build cache, not a history: no background gc racing clones and worktrees.
git -C "$tmp" config gc.auto 0
git -C "$tmp" config gc.autoDetach false
echo "$ver" > "$tmp/.git/avc-base-version"
mv "$tmp" "$PRISTINE"
trap - EXIT
msg "pristine tree: $PRISTINE (Linux $ver)"
