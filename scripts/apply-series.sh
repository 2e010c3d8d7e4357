#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Apply the series (patches/series) as commits on top of HEAD of a git tree.
# Usage: apply-series.sh DIR
# Each series line is "PATCH [NEW-FILE...]": the patch (a commit message and
# a diff of stock files) plus the files the project wrote whole, which enter
# with that commit.  On any failure DIR is put back to where it was and the
# patch and file that failed are named.
. "$(dirname "$0")/lib.sh"

dir=${1:?usage: apply-series.sh DIR}
PATCHDIR=${PATCHDIR:-$TOP/patches}
OVERLAY=${OVERLAY:-$TOP}
series=$PATCHDIR/series
[ -f "$series" ] || die "no series file $series"
orig=$(kgit "$dir" rev-parse HEAD)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

undo() {
	kgit "$dir" reset -q --hard "$orig"
	local f
	for f in "${added[@]-}"; do
		if [ -n "$f" ]; then rm -f "$dir/$f"; fi
	done
	return 0
}

added=()
n=0
while read -r name files; do
	case $name in ''|'#'*) continue ;; esac
	n=$((n + 1))
	p=$PATCHDIR/$name
	[ -f "$p" ] || { undo; die "series line $n: no such patch patches/$name"; }
	git mailinfo -k "$work/msg" "$work/diff" < "$p" > "$work/info" ||
		{ undo; die "patches/$name is not a patch (git mailinfo failed)"; }
	subject=$(sed -n 's/^Subject: //p' "$work/info")
	[ -n "$subject" ] || { undo; die "patches/$name has no Subject line"; }
	subject=${subject#\[PATCH*\] }
	if [ -s "$work/diff" ] &&
	   ! kgit "$dir" apply --index --whitespace=nowarn "$work/diff" 2>"$work/err"; then
		file=$(sed -n 's/^error: patch failed: \([^:]*\):.*/\1/p; s/^error: \([^:]*\): does not exist in index/\1/p; s/^error: \([^:]*\): already exists in index/\1/p' "$work/err" | head -1)
		undo
		die "patches/$name does not apply${file:+ to $file} (base $(kernel_version "$dir")); nothing was changed.
$(sed 's/^/    /' "$work/err")"
	fi
	for f in $files; do
		src=$OVERLAY/$f
		[ -f "$src" ] || { undo; die "patches/$name: new file $f is missing from the repo"; }
		if [ -e "$dir/$f" ]; then
			undo
			die "patches/$name adds $f, which already exists in $dir"
		fi
		mkdir -p "$dir/$(dirname "$f")"
		cp "$src" "$dir/$f"
		added+=("$f")
		kgit "$dir" add -f -- "$f"
	done
	{ echo "$subject"; echo; cat "$work/msg"; } > "$work/commitmsg"
	kgit "$dir" commit -q --no-verify -F "$work/commitmsg" ||
		{ undo; die "commit of patches/$name failed"; }
	added=()
done < "$series"
[ "$n" -gt 0 ] || die "series $series is empty"
msg "applied $n patches to $dir"
