#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Export the patched tree's commits as a git format-patch series with a
# cover letter, signed off by whoever runs it.  Output: build/series/
# (or SERIES_DIR).
. "$(dirname "$0")/lib.sh"
lock_build

need_tree
dir=${SERIES_DIR:-$BUILD/series}
rm -rf "$dir"
mkdir -p "$dir"
kgit "$PATCHED" format-patch -q -s --cover-letter --no-signature \
	--subject-prefix="PATCH" -o "$dir" "$BASE_TAG..HEAD" >/dev/null
cover=$dir/0000-cover-letter.patch
[ -f "$cover" ] || die "format-patch wrote no cover letter"
subject=$(head -1 "$TOP/patches/cover-letter")
python3 - "$cover" "$TOP/patches/cover-letter" "$subject" <<'PY'
import sys
path, blurb_path, subject = sys.argv[1:]
text = open(path).read()
blurb = open(blurb_path).read().split('\n', 1)[1].strip('\n')
text = text.replace('*** SUBJECT HERE ***', subject)
text = text.replace('*** BLURB HERE ***', blurb)
open(path, 'w').write(text)
PY
n=$(ls "$dir"/*.patch | wc -l)
msg "series: $((n - 1)) patches and a cover letter in ${dir#$TOP/}"
