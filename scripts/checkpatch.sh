#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict on every patch of the exported series: any error,
# warning or check fails.
. "$(dirname "$0")/lib.sh"
lock_build

dir=${SERIES_DIR:-$BUILD/series/$BASE}
ls "$dir"/0001-*.patch >/dev/null 2>&1 || die "no series in $dir: run 'make series'"
# The trees are Debian's source unpacked into git, without upstream's
# history, so checkpatch cannot look up the commit a Fixes: tag names
# (UNKNOWN_COMMIT_ID); the tag's form is still checked.
fail=0
for p in "$dir"/0*.patch; do
	case $p in */0000-cover-letter.patch) continue ;; esac
	out=$(PATH=/usr/bin:$PATH "$PRISTINE/scripts/checkpatch.pl" --strict --no-summary --quiet \
		--ignore UNKNOWN_COMMIT_ID --root="$PATCHED" "$p" 2>&1) || true
	if [ -n "$out" ]; then
		echo "checkpatch: ${p##*/}:" >&2
		echo "$out" | sed 's/^/    /' >&2
		fail=1
	fi
done
[ $fail -eq 0 ] || die "checkpatch --strict is not clean"
msg "checkpatch --strict: clean on $(ls "$dir"/0*.patch | grep -vc cover-letter) patches"
