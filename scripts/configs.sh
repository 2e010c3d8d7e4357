#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make configs: security/selinux of the patched tree builds, without a
# warning, in configurations a user will build besides the guest's: the
# per-CPU cache off (CONFIG_SECURITY_SELINUX_AVC_PCPU_CACHE=n), its
# statistics off (CONFIG_SECURITY_SELINUX_AVC_STATS=n), and the fewest and
# the most slots (16 and 256).  Each starts from the patched guest
# kernel's .config, in an out-of-tree directory of its own, and builds
# only security/selinux (about a minute each, the first time).
. "$(dirname "$0")/lib.sh"
lock_build

need_tree
from=$OUTDIR/patched-x86_64-guest/.config
[ -f "$from" ] || die "no $from: run 'make kernel-patched' first"
mkdir -p "$BUILD/logs"

# name: scripts/config arguments
variants=(
	"cache-off: -d SECURITY_SELINUX_AVC_PCPU_CACHE"
	"stats-off: -d SECURITY_SELINUX_AVC_STATS"
	"slots-16: --set-val SECURITY_SELINUX_AVC_PCPU_SLOTS 16"
	"slots-256: --set-val SECURITY_SELINUX_AVC_PCPU_SLOTS 256"
)
fail=0
for v in "${variants[@]}"; do
	name=${v%%:*}
	read -r -a opts <<< "${v#*:}"
	out=$OUTDIR/config-$name
	log=$BUILD/logs/configs-$name.log
	mkdir -p "$out"
	cp "$from" "$out/.config"
	"$PATCHED/scripts/config" --file "$out/.config" "${opts[@]}"
	msg "configs: $name (${v#*: })"
	if make -C "$PATCHED" O="$out" ARCH=x86_64 CC="ccache gcc" -j"$JOBS" \
		olddefconfig security/selinux/ >"$log" 2>&1 &&
	   ! grep -E 'security/selinux/.*(warning|error):' "$log"; then
		# The option must really have taken: olddefconfig may drop
		# a value its range or dependencies refuse.
		case ${opts[0]} in
		-d) want="# CONFIG_${opts[1]} is not set" ;;
		*) want="CONFIG_${opts[1]}=${opts[2]}" ;;
		esac
		if grep -qx "$want" "$out/.config"; then
			echo "ok - security/selinux builds with $name"
		else
			echo "not ok - $name: the .config has no '$want'"
			fail=1
		fi
	else
		echo "not ok - security/selinux does not build with $name (log ${log#"$TOP"/})"
		fail=1
	fi
done
[ $fail -eq 0 ] || die "security/selinux does not build in every configuration"
