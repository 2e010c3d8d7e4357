#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Developer tool: write the commits on the patched tree's branch back to
# the base's series directory (patches/<base>/), as git format-patch output (new files inside their patch) with
# the cover letter's text kept and a quilt series file.
. "$(dirname "$0")/lib.sh"
lock_build

need_tree
if [ -n "${EXPORT_FROM:-}" ]; then PATCHED=$EXPORT_FROM; fi
[ -z "$(kgit "$PATCHED" status --porcelain --untracked-files=no)" ] ||
	die "$PATCHED has uncommitted changes; commit them first"
SERIES_FROM=$PATCHED "$TOP/scripts/format-series.sh" "$PATCHDIR"
# Record the tree as generated so tree.sh does not see foreign commits.
[ -n "${EXPORT_FROM:-}" ] || "$TOP/scripts/tree.sh" >/dev/null 2>&1 || true
msg "exported $(wc -l < "$PATCHDIR/series") commits to ${PATCHDIR#"$TOP"/}/"
