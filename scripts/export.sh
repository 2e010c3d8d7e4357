#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Developer tool: turn the commits on the patched tree's branch back into
# patches/ and the overlay files.  Files a commit adds go to the repo at the
# same path and are listed on its series line; everything else is a diff.
. "$(dirname "$0")/lib.sh"
lock_build

need_tree
if [ -n "${EXPORT_FROM:-}" ]; then PATCHED=$EXPORT_FROM; fi
[ -z "$(kgit "$PATCHED" status --porcelain --untracked-files=no)" ] ||
	die "$PATCHED has uncommitted changes; commit them first"
base=$(kgit "$PRISTINE" rev-parse "$BASE_TAG")
commits=$(kgit "$PATCHED" rev-list --reverse "$base..HEAD")
[ -n "$commits" ] || die "no commits on $PATCHED above $BASE_TAG"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
{ echo "# Applied in order by scripts/apply-series.sh: PATCH [NEW-FILE...]"; } > "$tmp/series"
for c in $commits; do
	n=$((n + 1))
	subj=$(kgit "$PATCHED" log -1 --format=%s "$c")
	slug=$(echo "$subj" | sed 's/[^A-Za-z0-9]\+/-/g; s/^-//; s/-$//' | cut -c1-52 | sed 's/-$//')
	name=$(printf '%04d-%s.patch' "$n" "$slug")
	new=$(kgit "$PATCHED" diff-tree --no-commit-id --name-only -r --diff-filter=A "$c")
	excl=()
	for f in $new; do
		excl+=(":(exclude)$f")
		if [ -n "$(kgit "$PATCHED" log --format=%h "$c..HEAD" -- "$f")" ]; then
			warn "$f is added by '$subj' and changed later; the later change stays a diff"
		fi
		mkdir -p "$TOP/$(dirname "$f")"
		kgit "$PATCHED" show "$c:$f" > "$TOP/$f"
	done
	{
		echo "Subject: [PATCH] $subj"
		echo
		kgit "$PATCHED" log -1 --format=%b "$c" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
		echo "---"
		kgit "$PATCHED" diff --stat=72 "$c^" "$c" -- . "${excl[@]}"
		echo
		kgit "$PATCHED" diff "$c^" "$c" -- . "${excl[@]}"
	} > "$tmp/$name"
	echo "$name" $new >> "$tmp/series"
done
rm -f "$TOP"/patches/*.patch
cp "$tmp"/*.patch "$TOP/patches/"
cp "$tmp/series" "$TOP/patches/series"
# Record the tree as generated so tree.sh does not see foreign commits.
"$TOP/scripts/tree.sh" >/dev/null 2>&1 || true
msg "exported $n commits to patches/"
