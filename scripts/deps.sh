#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the targets need, or say how to.
# Usage: deps.sh [group...]   groups: build source guest bench arch cross testsuite
#   (default: all but cross, which only make check-cross needs, and
#   testsuite, which only make testsuite needs: mmdebstrap and genext2fs
#   build its Debian guest's root file system; arch is what BENCH_ARCH's
#   benchmark needs, configs/arch/<arch>.conf)
. "$(dirname "$0")/lib.sh"

# cross: the packages of every cross-built architecture of configs/arch/.
cross=
for a in "$TOP"/configs/arch/*.conf; do
	a=${a##*/}
	cross="$cross $(load_arch "${a%.conf}"; [ -z "$BA_CROSS" ] || echo "$BA_PACKAGES")"
done
declare -A PKG=(
	[build]="bc flex bison libelf-dev libssl-dev cpio ccache sparse xz-utils git make gcc python3 python3-ply python3-git perl linux-config-6.12"
	# The base's source package if the host's apt sources have it; a base
	# from another suite is downloaded when unpacked (scripts/source.sh).
	[source]="$([ -n "$BASE_SUITE" ] || echo "$BASE_PACKAGE")"
	[guest]="qemu-system-x86 busybox-static checkpolicy selinux-policy-default"
	[bench]="gnuplot-nox"
	[cross]="$cross"
	[testsuite]="mmdebstrap genext2fs uidmap e2fsprogs qemu-system-x86"
	[arch]="$BA_PACKAGES"
)
groups=${*:-build source guest bench arch}
want=(${DEPS_EXTRA:-})
for g in $groups; do
	[ -n "${PKG[$g]+x}" ] || die "deps.sh: unknown group '$g'"
	for p in ${PKG[$g]}; do want+=("$p"); done
done
# Skip the source package when the user brings their own tree.
if [ -n "$KSRC" ]; then
	want=("${want[@]/$BASE_PACKAGE/}")
fi

missing=()
for p in "${want[@]}"; do
	[ -n "$p" ] || continue
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get install -y ${missing[*]}"
# Installing is the one step that needs root; everything else runs as
# the user, so say how to install and stop.
if [ "$(id -u)" -ne 0 ]; then
	printf 'error: missing packages: %s\n' "${missing[*]}" >&2
	printf 'installing them needs root; run this once, then again as yourself what you ran:\n' >&2
	printf '    sudo %s\n' "$line" >&2
	printf 'or, without sudo:\n' >&2
	printf "    su -c '%s'\n" "$line" >&2
	exit 1
fi
msg "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || warn "apt-get update failed; trying the install anyway"
apt-get install -y -qq "${missing[@]}" >/dev/null ||
	die "apt-get failed; try by hand: $line"
