#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check step "unprivileged": the guest side of make bench and make
# matrix done by an ordinary user.  Builds the benchmark initramfs twice
# (the two must be byte-identical) and the matrix initramfs twice (the
# same), then boots one short benchmark guest on the patched kernel
# (SELinux enforcing, BENCH_SCALE=1) that must print all its results and
# its end marker.
# Run as root (CI), it drops to uid/gid UNPRIV_UID with setpriv; either way
# it works on a copy of the files it needs in a temporary directory that
# user owns, with HOME, TMPDIR and CCACHE_DIR in there too.
# Usage: unprivileged.sh [FLAVOR]      (default x86_64-guest+matrix, the
#                                      kernel make check builds)
# Environment:
#   UNPRIV_UID=N        the user to run as when started as root (65534)
#   UNPRIV_TIMEOUT=S    seconds before the guest is killed (default 300)
#   KERNEL_patched=...  the bzImage to boot (see guest_image in lib.sh)
# Output: build/logs/unprivileged-guest.log (the guest's console).
. "$(dirname "$0")/lib.sh"

M=SELINUX-AVC-BENCH
UNPRIV_TIMEOUT=${UNPRIV_TIMEOUT:-300}
case $UNPRIV_TIMEOUT in ''|*[!0-9]*|0) die "UNPRIV_TIMEOUT must be a positive integer" ;; esac

# As the user, in the copy: the images, then the guest.
if [ "${1:-}" = --as-user ]; then
	img=$2
	[ "$(id -u)" -ne 0 ] || die "the unprivileged part runs as root"
	lock_build
	B=$TOP/tools/testing/selinux-avc-bench
	for i in 1 2; do
		"$B/guest.sh" project
		cp "$GUEST_POLICY_DIR/initrd-project.gz" "$BUILD/bench-$i.gz"
		"$TOP/tools/testing/selinux-avc-matrix/guest.sh"
		cp "$MATRIX_DIR/initrd.gz" "$BUILD/matrix-$i.gz"
	done
	for i in bench matrix; do
		cmp "$BUILD/$i-1.gz" "$BUILD/$i-2.gz" >&2 ||
			die "two builds of the $i initramfs from the same inputs differ"
	done
	msg "initramfs images built as uid $(id -u); built twice, each is byte-identical"
	log=$BUILD/console.log
	msg "booting the patched kernel as uid $(id -u): SELinux enforcing, BENCH_SCALE=1"
	t0=$SECONDS
	rc=0
	progress "guest" bench_guest "$UNPRIV_TIMEOUT" "$img" "$GUEST_POLICY_DIR/initrd-project.gz" \
		"console=ttyS0 quiet BENCH_SCALE=1" "$log" || rc=$?
	n=$(grep -ac "$M: RESULT" "$log" || true)
	want=$(bench_nresults)
	[ $rc -eq 0 ] || die "qemu exit $rc$([ $rc -eq 124 ] && echo " (timeout after ${UNPRIV_TIMEOUT}s)")"
	grep -aq "$M: BEGIN mode=enforcing" "$log" || die "the guest did not start the benchmark with SELinux enforcing"
	! grep -aE "$M: (ERROR|CHECK FAILED)" "$log" >&2 || die "the guest reported errors"
	[ "$n" -eq "$want" ] || die "the guest printed $n of $want results"
	grep -aq "$M: END" "$log" || die "the guest did not reach its end marker"
	msg "guest: enforcing, $want results and the end marker, in $((SECONDS - t0))s"
	exit 0
fi

lock_build
flavor=${1:-$MATRIX_FLAVOR}
need_guest_images "$flavor" patched
img=$(guest_image patched "$flavor")
for f in usr/gen_init_cpio.c scripts/selinux/mdp/mdp.c include security/selinux/include; do
	[ -e "$PRISTINE/$f" ] || die "no $PRISTINE/$f: run 'make source' first"
done
asuser=()
if [ "$(id -u)" -eq 0 ]; then
	uid=${UNPRIV_UID:-65534}
	command -v setpriv >/dev/null || die "setpriv not found: apt-get install util-linux"
	asuser=(setpriv --reuid="$uid" --regid="$uid" --clear-groups)
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/avc-unpriv.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
msg "copying what the guest build needs to $tmp"
c=$tmp/top
# The copy has no KSRC: its source is debian-<base>, whatever this run's is.
cid=debian-$BASE
mkdir -p "$c/tools/testing" "$c/configs" "$c/build/src/$cid/pristine" "$tmp/home/tmp"
cp -r "$TOP/scripts" "$c/"
cp -r "$TOP/configs/arch" "$TOP/configs/base" "$c/configs/"
cp -r "$TOP/tools/testing/selinux-avc-bench" "$TOP/tools/testing/selinux-avc-matrix" \
	"$TOP/tools/testing/selinux-avc-common" "$c/tools/testing/"
(cd "$PRISTINE" && cp -r --parents usr/gen_init_cpio.c scripts/selinux/mdp/mdp.c \
	include security/selinux/include "$c/build/src/$cid/pristine/")
# policy.sh takes mdp's filesystem options from the stock guest config.
conf=$OUTDIR/stock-x86_64-guest/include/generated/autoconf.h
if [ -f "$conf" ]; then
	mkdir -p "$c/build/out/$cid/stock-x86_64-guest/include/generated"
	cp "$conf" "$c/build/out/$cid/stock-x86_64-guest/include/generated/"
fi
cp "$img" "$tmp/bzImage"
[ ${#asuser[@]} -eq 0 ] || chown -R "$uid:$uid" "$tmp"

rc=0
env -i PATH="$PATH" LANG=C HOME="$tmp/home" TMPDIR="$tmp/home/tmp" \
	CCACHE_DIR="$tmp/home/ccache" JOBS="$JOBS" BASE="$BASE" ${QEMU:+QEMU="$QEMU"} \
	UNPRIV_TIMEOUT="$UNPRIV_TIMEOUT" \
	"${asuser[@]}" bash "$c/scripts/unprivileged.sh" --as-user "$tmp/bzImage" || rc=$?
mkdir -p "$BUILD/logs"
cp "$c/build/console.log" "$BUILD/logs/unprivileged-guest.log" 2>/dev/null || true
[ $rc -eq 0 ] || die "the unprivileged guest build or boot failed (console: ${BUILD#"$TOP"/}/logs/unprivileged-guest.log)"
msg "unprivileged: images and a benchmark guest as uid ${uid:-$(id -u)}, console in ${BUILD#"$TOP"/}/logs/unprivileged-guest.log"
