#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The postable series, from the patched tree (make tree applies patches/<base>/),
# signed off by whoever runs it: build/series/<base>/ (or SERIES_DIR).
. "$(dirname "$0")/lib.sh"
lock_build

"$TOP/scripts/format-series.sh" "${SERIES_DIR:-$BUILD/series/$BASE}"
