#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the benchmark guest's initramfs:
#   build/guest/initrd-<policy>.gz
# busybox-static, the static benchmarks from tools/testing/selinux-avc-bench,
# the SELinux policy (policy.sh), a copy of sys/types.h and the init
# script from guest/.
# Usage: guest.sh [project|debian]   (default: $POLICY or project)
. "$(dirname "$0")/../../../scripts/lib.sh"
lock_build

kind=${1:-${POLICY:-project}}
G=$BUILD/guest
root=$G/root-$kind
initrd=$G/initrd-$kind.gz
BUSYBOX=${BUSYBOX:-/bin/busybox}

need_initramfs_tools
types_h=
for f in /usr/include/sys/types.h /usr/include/x86_64-linux-gnu/sys/types.h; do
	[ -f "$f" ] && { types_h=$f; break; }
done
[ -n "$types_h" ] || die "no sys/types.h on the host: apt-get install libc6-dev"

msg "building benchmarks"
make -s -C "$TOP/tools/testing/selinux-avc-bench" OUT="$G/bin" ||
	die "benchmark build failed"
"$TOP/tools/testing/selinux-avc-bench/policy.sh" "$kind"

msg "assembling initramfs ($kind policy)"
rm -rf "$root"
mkdir -p "$root"/{bin,bench,dev,proc,sys,tmp,policy,usr/include/sys}
cp "$BUSYBOX" "$root/bin/busybox"
for a in $("$BUSYBOX" --list); do
	[ "$a" = busybox ] || ln -s busybox "$root/bin/$a"
done
for b in lat_syscall lat_pipe lat_fs pathwalk churn serun lat_proc lat_mmap \
	lat_unix_connect lat_make hello; do
	cp "$G/bin/$b" "$root/bench/$b"
done
cp "$G/bin/hello" "$root/bench/hello_trans"
ln -s ../bench/serun "$root/bin/serun"
cp "$TOP/tools/testing/selinux-avc-bench/guest/run.sh" "$root/bench/run.sh"
cp "$TOP/tools/testing/selinux-avc-bench/guest/make.sh" "$root/bench/make.sh"
cp "$TOP/tools/testing/selinux-avc-bench/guest/init" "$root/init"
chmod 755 "$root/init"
cp "$types_h" "$root/usr/include/sys/types.h"
echo secret > "$root/secret"
cp "$G/policy-$kind"/{policy.bin,labels,domain,permissive_domain,churn,kind} "$root/policy/"
# Owners, modes, times and the console node come from make_initramfs (no
# root needed); the same inputs give the same image.
make_initramfs "$root" "$initrd"
msg "initramfs: ${initrd#$TOP/} ($(du -k "$initrd" | cut -f1) KiB)"
