#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write the patched tree's commits as the postable series: git format-patch
# output, signed off by whoever runs it, with a cover letter whose subject
# and text are taken from the base's 0000-cover-letter.patch (patches/<base>/), and a quilt
# series file.  Usage: format-series.sh OUTDIR (emptied first).
# Used by export.sh (OUTDIR patches/<base>/) and series.sh (build/series/<base>/).
. "$(dirname "$0")/lib.sh"

out=${1:?usage: format-series.sh OUTDIR}
if [ -n "${SERIES_FROM:-}" ]; then PATCHED=$SERIES_FROM; fi
need_tree
base=$(kgit "$PRISTINE" rev-parse "$BASE_TAG")
[ -n "$(kgit "$PATCHED" rev-list "$base..HEAD")" ] || die "no commits on $PATCHED above $BASE_TAG"
cover_src=$PATCHDIR/0000-cover-letter.patch
[ -f "$cover_src" ] || die "no cover letter: ${cover_src#"$TOP"/} is missing"
# The version of the series is in the cover letter's subject: [PATCH v2 00/11].
prefix=$(sed -n 's/^Subject: \[\(PATCH[^]]*\) [0-9]*\/[0-9]*\].*/\1/p' "$cover_src" | head -1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kgit "$PATCHED" format-patch -q -s --zero-commit --cover-letter --base="$base" \
	--subject-prefix="${prefix:-PATCH}" -o "$tmp" "$base..HEAD" >/dev/null ||
	die "git format-patch failed in $PATCHED"
python3 - "$tmp/0000-cover-letter.patch" "$cover_src" <<'PY' || die "cannot fill the cover letter from ${cover_src#"$TOP"/}"
import re, sys
path, src = sys.argv[1:]
text = open(path).read()
old = open(src).read()
m = re.search(r'^Subject: \[[^]]*\] (.*(?:\n .*)*)$', old, re.M)
head, _, body = old.partition('\n\n')
lines = body.split('\n')
# The blurb ends where format-patch's shortlog begins: "Name (N):".
end = next((i for i, l in enumerate(lines) if re.match(r'^\S.* \(\d+\):$', l)), None)
if not m or end is None:
    sys.exit('no subject or no shortlog in the cover letter')
blurb = '\n'.join(lines[:end]).strip('\n')
# The cover letter keeps its date, so that an export of the same series
# gives the same file.
d = re.search(r'^Date: .*$', old, re.M)
if d:
    text = re.sub(r'^Date: .*$', lambda _: d.group(0), text, count=1, flags=re.M)
text = text.replace('*** SUBJECT HERE ***', m.group(1).replace('\n ', ' '))
text = text.replace('*** BLURB HERE ***', blurb)
open(path, 'w').write(text)
PY
(cd "$tmp" && ls -- 0*.patch | grep -v "^0000-") > "$tmp/series.new" && mv "$tmp/series.new" "$tmp/series"
mkdir -p "$out"
rm -f "$out"/*.patch "$out/series"
cp "$tmp"/*.patch "$tmp/series" "$out/"
msg "series: $(wc -l < "$tmp/series") patches and a cover letter in ${out#"$TOP"/}"
