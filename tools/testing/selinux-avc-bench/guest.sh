#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the benchmark guest's initramfs:
#   build/guest/initrd-<policy>.gz
# busybox-static, the static benchmarks from tools/testing/selinux-avc-bench,
# the SELinux policy (policy.sh), a copy of sys/types.h, rows.conf and the
# init script from guest/; where BENCH_ARCH's settings say BA_INIT=c (no
# busybox for it), sinit.c is /init and there is no shell.  The
# compiler's flags and C library are the architecture's (guest_cc in
# scripts/lib.sh: on SH4 with Debian's compiler, musl).
# Usage: guest.sh [project|debian]   (default: $POLICY or project)
. "$(dirname "$0")/../../../scripts/lib.sh"
lock_build

kind=${1:-${POLICY:-project}}
# BENCH_ARCH's programs and initramfs in $GUEST_DIR (build/guest for
# x86_64); the policy, the same for every architecture, in build/guest.
P=$GUEST_POLICY_DIR
G=$GUEST_DIR
root=$G/root-$kind
initrd=$G/initrd-$kind.gz
BUSYBOX=
[ "$BA_INIT" = c ] || BUSYBOX=$(guest_busybox)

need_initramfs_tools
guest_cc
types_h=
for f in ${ARCH_LIBC_DIR:+"$ARCH_LIBC_DIR/include/sys/types.h"} \
	"$BA_SYSROOT/include/sys/types.h" /usr/include/x86_64-linux-gnu/sys/types.h; do
	[ -f "$f" ] && { types_h=$f; break; }
done
[ -n "$types_h" ] || die "no $BA_SYSROOT/include/sys/types.h: apt-get install $BA_PACKAGES"

msg "building benchmarks ($BENCH_ARCH, $BA_CC)"
make -s -C "$TOP/tools/testing/selinux-avc-bench" OUT="$G/bin" CC="$GUEST_CC" ||
	die "benchmark build failed"
"$TOP/tools/testing/selinux-avc-bench/policy.sh" "$kind"

msg "assembling initramfs ($kind policy)"
rm -rf "$root"
mkdir -p "$root"/{bin,bench,dev,proc,sys,tmp,policy,usr/include/sys}
[ -z "$BUSYBOX" ] || install_busybox "$BUSYBOX" "$root"
for b in lat_syscall lat_pipe lat_fs pathwalk churn serun lat_proc lat_mmap \
	lat_unix_connect lat_make hello settle lat_kill; do
	cp "$G/bin/$b" "$root/bench/$b"
done
cp "$G/bin/hello" "$root/bench/hello_trans"
ln -s ../bench/serun "$root/bin/serun"
cp "$TOP/tools/testing/selinux-avc-bench/guest/run.sh" "$root/bench/run.sh"
# The benchmarks to run, for run.sh and sinit.c alike.
cp "$TOP/tools/testing/selinux-avc-bench/rows.conf" "$root/bench/rows.conf"
cp "$TOP/tools/testing/selinux-avc-bench/guest/make.sh" "$root/bench/make.sh"
if [ -n "$BUSYBOX" ]; then
	cp "$TOP/tools/testing/selinux-avc-bench/guest/init" "$root/init"
else
	cp "$G/bin/sinit" "$root/init"
fi
chmod 755 "$root/init"
cp "$types_h" "$root/usr/include/sys/types.h"
echo secret > "$root/secret"
cp "$P/policy-$kind"/{policy.bin,policy-na.bin,policy-scale.bin,scale_cats,labels,domain,permissive_domain,neveraudit_domain,churn,kind} "$root/policy/"
# Owners, modes, times and the console node come from make_initramfs (no
# root needed); the same inputs give the same image.
make_initramfs "$root" "$initrd"
msg "initramfs: ${initrd#$TOP/} ($(du -k "$initrd" | cut -f1) KiB)"
