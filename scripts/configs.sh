#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make configs: security/selinux of the patched tree builds, without a
# warning, in configurations a user will build besides the guest's: the
# per-CPU cache off (CONFIG_SECURITY_SELINUX_AVC_PCPU_CACHE=n), its
# statistics off (CONFIG_SECURITY_SELINUX_AVC_STATS=n), the fewest and the
# most slots (16 and 256), KUnit as a module (CONFIG_KUNIT=m: the suites
# live in avc.c and services.c, as landlock's do in its files, so they need
# KUNIT=y and are left out, which the build must survive), and Debian's own
# 6.12 configuration (linux-config-6.12, amd64), where the series' options
# take their defaults.  Each starts from the patched guest kernel's
# .config (the matrix's guest, x86_64-guest+matrix, the kernel make check
# builds; Debian's for the last), in an out-of-tree directory of its own,
# and builds only security/selinux (about a minute each, the first time;
# Debian's a few, for its larger prepare step).
. "$(dirname "$0")/lib.sh"
lock_build

need_tree
from=$OUTDIR/patched-$MATRIX_FLAVOR/.config
[ -f "$from" ] || die "no $from: run 'make kernel-matrix' first"
debian=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
[ -f "$debian" ] || die "no $debian: apt-get install linux-config-6.12 (or run scripts/deps.sh)"
mkdir -p "$BUILD/logs"

# name|base (guest or debian)|scripts/config arguments|.config lines it
# must then have (grep -x, ";"-separated; "!" first: must not have)
variants=(
	"cache-off|guest|-d SECURITY_SELINUX_AVC_PCPU_CACHE|# CONFIG_SECURITY_SELINUX_AVC_PCPU_CACHE is not set"
	"stats-off|guest|-d SECURITY_SELINUX_AVC_STATS|# CONFIG_SECURITY_SELINUX_AVC_STATS is not set"
	"slots-16|guest|--set-val SECURITY_SELINUX_AVC_PCPU_SLOTS 16|CONFIG_SECURITY_SELINUX_AVC_PCPU_SLOTS=16"
	"slots-256|guest|--set-val SECURITY_SELINUX_AVC_PCPU_SLOTS 256|CONFIG_SECURITY_SELINUX_AVC_PCPU_SLOTS=256"
	"kunit-m|guest|-e MODULES -m KUNIT -e SECURITY_SELINUX_DEVELOP -e SECURITY_SELINUX_AVC_STATS -e SECURITY_SELINUX_AVC_KUNIT_TEST|CONFIG_KUNIT=m;!CONFIG_SECURITY_SELINUX_AVC_KUNIT_TEST=y"
	"debian|debian||CONFIG_SECURITY_SELINUX_AVC_PCPU_CACHE=y;CONFIG_SECURITY_SELINUX_LABEL_CACHE=y"
)
fail=0
for v in "${variants[@]}"; do
	IFS='|' read -r name base args wants <<< "$v"
	read -r -a opts <<< "$args"
	out=$OUTDIR/config-$name
	log=$BUILD/logs/configs-$name.log
	mkdir -p "$out"
	if [ "$base" = debian ]; then
		xz -dc "$debian" > "$out/.config" || die "cannot read $debian"
	else
		cp "$from" "$out/.config"
	fi
	[ ${#opts[@]} -eq 0 ] || "$PATCHED/scripts/config" --file "$out/.config" "${opts[@]}"
	msg "configs: $name ($base config${args:+, $args})"
	if make -C "$PATCHED" O="$out" ARCH=x86_64 CC="ccache gcc" -j"$JOBS" \
		olddefconfig security/selinux/ >"$log" 2>&1 &&
	   ! grep -E 'security/selinux/.*(warning|error):' "$log"; then
		# The options must really have taken: olddefconfig may drop
		# a value its range or dependencies refuse.
		bad=
		IFS=';' read -r -a lines <<< "$wants"
		for w in "${lines[@]}"; do
			case $w in
			!*) ! grep -qx "${w#!}" "$out/.config" || bad="$bad; has '${w#!}'" ;;
			*) grep -qx "$w" "$out/.config" || bad="$bad; has no '$w'" ;;
			esac
		done
		if [ -z "$bad" ]; then
			echo "ok - security/selinux builds with $name"
		else
			echo "not ok - $name: the .config${bad#;}"
			fail=1
		fi
	else
		echo "not ok - security/selinux does not build with $name (log ${log#"$TOP"/})"
		fail=1
	fi
done
[ $fail -eq 0 ] || die "security/selinux does not build in every configuration"
