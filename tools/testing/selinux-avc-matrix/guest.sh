#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the decision-matrix/stress guest: build/matrix/initrd.gz with
# busybox-static, the programs from tools/testing/selinux-avc-matrix, the
# policy versions listed in policy/policies.conf and guest/init.
# Class declarations and policy capabilities come from the benchmark's
# policy.sh (tools/testing/selinux-avc-bench/policy.sh)
# (the kernel's mdp tool; capabilities checkpolicy 3.4 rejects are dropped
# there); the policy itself is ours (base.te + the version's files).
. "$(dirname "$0")/../../../scripts/lib.sh"
lock_build

MX=$TOP/tools/testing/selinux-avc-matrix
BP=$TOP/tools/testing/selinux-avc-bench/policy
# BENCH_ARCH's programs and busybox; matrix.sh names the directory
# (MATRIX_DIR of scripts/lib.sh: build/matrix for x86_64 on the default
# base).
MOUT=${MATRIX_OUT:-$MATRIX_DIR}
G=$MOUT/guest
root=$G/root
pol=$MOUT/policy
BUSYBOX=$(guest_busybox)

need_initramfs_tools

msg "building the matrix programs"
guest_cc
make -s -C "$TOP/tools/testing/selinux-avc-matrix" OUT="$G/bin" CC="$GUEST_CC" ||
	die "building tools/testing/selinux-avc-matrix failed"

# Class and permission declarations from mdp, via the benchmark's policy
# builder (it also keeps only the policy capabilities checkpolicy knows).
"$TOP/tools/testing/selinux-avc-bench/policy.sh" project >/dev/null 2>"$G.policy.log" || {
	cat "$G.policy.log" >&2
	die "tools/testing/selinux-avc-bench/policy.sh project failed"
}
decls=$GUEST_POLICY_DIR/policy-project/decls.conf
caps=$GUEST_POLICY_DIR/policy-project/policycaps.conf
[ -s "$decls" ] && [ -s "$caps" ] || die "no $decls or $caps from the benchmark's policy.sh"
classes=$(awk '/^class [a-z0-9_]+$/ && !seen[$2]++ {print $2}' "$decls")

mkdir -p "$pol"
# One class of the matrix's own first: every kernel class then has a policy
# value one above its kernel value, so that code which takes one for the
# other (the label cache's keys, a userspace query of
# /sys/fs/selinux/create) gets another class and a test can see it.
{
	echo "class matrix_first"
	cat "$decls"
	printf 'class matrix_first\n{\n\tm_first\n}\n'
} >"$pol/decls.conf"
grep -v '^[[:space:]]*#' "$MX/policy/policies.conf" | while read -r name files; do
	[ -n "$name" ] || continue
	conf=$pol/$name.conf
	{
		cat "$pol/decls.conf" "$BP/mls.conf"
		grep -v '^#' "$caps"
		cat "$MX/policy/base.te"
		for f in $files; do cat "$MX/policy/$f"; done
		echo "# generated: the unconfined domain may do everything"
		for c in $classes; do
			echo "allow unconfined_domain { domain file_type }:$c *;"
		done
		cat "$MX/policy/users.conf"
		echo "# generated: initial SID contexts"
		for sid in $(awk '/^sid [a-z0-9_]+$/ {print $2}' "$decls"); do
			t=$(awk -v s="$sid" '$1 == s {print $2}' "$BP/initial_sids")
			echo "sid $sid system_u:object_r:${t:-unlabeled_t}:s0"
		done
		# fs_use lines come before genfscon: the matrix's first
		cat "$MX/policy/fs.conf" "$BP/fs.conf"
	} > "$conf"
	sed -i 's/^\(sid \(kernel\|init\|any_socket\|port\|netif\|netmsg\|node\) system_u:\)object_r/\1system_r/' "$conf"
	checkpolicy -M -U allow -o "$pol/$name.bin" "$conf" >"$pol/$name.log" 2>&1 || {
		cat "$pol/$name.log" >&2
		die "checkpolicy failed on ${conf#$TOP/}"
	}
done

msg "assembling the matrix initramfs"
rm -rf "$root"
mkdir -p "$root"/{bin,dev,proc,sys,tmp,matrix/policy}
install_busybox "$BUSYBOX" "$root"
cp "$G/bin"/{avcmatrix,avcstress,avclabels,exit0,selfcon} "$root/matrix/"
cp "$MX/objects.conf" "$MX/phases.conf" "$root/matrix/"
cp "$pol"/*.bin "$root/matrix/policy/"
cp "$MX/guest/init" "$root/init"
chmod 755 "$root/init"
make_initramfs "$root" "$MOUT/initrd.gz"
msg "initramfs: ${MOUT#"$TOP"/}/initrd.gz ($(du -k "$MOUT/initrd.gz" | cut -f1) KiB)"
