#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the memory guest's initramfs, GUEST_DIR/initrd-memory-<policy>.gz
# (build/guest/ for x86_64): the benchmark guest's tree as
# tools/testing/selinux-avc-bench/guest.sh stages it (busybox, the
# benchmarks, serun, the policy and its labels), plus memfill in /bench/
# and guest/init of this folder as /init.  The benchmark's own initramfs,
# which that script writes too, stays as it is.
# Usage: guest.sh [project]   (default: $POLICY or project)
. "$(dirname "$0")/../../../scripts/lib.sh"
lock_build

kind=${1:-${POLICY:-project}}
[ "$kind" = project ] ||
	die "the memory guest runs the project policy only (its labels and its confined domain), not '$kind'"
[ "$BA_INIT" = busybox ] ||
	die "the memory guest's init is a shell script: BENCH_ARCH=$BENCH_ARCH has no busybox guest"
here=$TOP/tools/testing/selinux-avc-memory
G=$GUEST_DIR
root=$G/root-memory-$kind
initrd=$G/initrd-memory-$kind.gz

"$TOP/tools/testing/selinux-avc-bench/guest.sh" "$kind"
guest_cc
make -s -C "$here" OUT="$G/bin" CC="$GUEST_CC" || die "memfill build failed"

msg "assembling the memory guest's initramfs ($kind policy)"
rm -rf "$root"
cp -a "$G/root-$kind" "$root"
cp "$G/bin/memfill" "$root/bench/memfill"
cp "$here/guest/init" "$root/init"
chmod 755 "$root/init"
make_initramfs "$root" "$initrd"
msg "initramfs: ${initrd#"$TOP"/} ($(du -k "$initrd" | cut -f1) KiB)"
