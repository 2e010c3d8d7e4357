#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Text size of vmlinux and of security/selinux, stock vs patched.
# Usage: size.sh FLAVOR OUT.csv KERNEL...
. "$(dirname "$0")/lib.sh"
lock_build

flavor=${1:?usage: size.sh FLAVOR OUT.csv KERNEL...}
out=${2:?usage: size.sh FLAVOR OUT.csv KERNEL...}
shift 2
[ $# -gt 0 ] || set -- stock patched

# sizes FILE: "text data bss" of a file; archives are summed over members
sizes() {
	"${BA_CROSS}size" -t "$1" 2>/dev/null | awk 'END { print $1, $2, $3 }'
}

# vmlinux's .text is padded to a 2 MiB boundary, so size(1) of vmlinux
# hides small changes; vmlinux.o (the same code before the final link) and
# its .text section show them.
OBJS="vmlinux vmlinux.o vmlinux.o:.text security/selinux/built-in.a"
echo "kernel,object,text,data,bss" > "$out"
declare -A text=()
for k in "$@"; do
	o=$OUTDIR/$k-$flavor
	for obj in vmlinux vmlinux.o security/selinux/built-in.a; do
		[ -f "$o/$obj" ] || die "no $o/$obj: build the $k kernel first"
		read -r t d b < <(sizes "$o/$obj")
		[ -n "$t" ] || die "size $o/$obj failed"
		echo "$k,$obj,$t,$d,$b" >> "$out"
		text[$k:$obj]=$t
	done
	t=$("${BA_CROSS}size" -A "$o/vmlinux.o" | awk '$1 == ".text" {print $2}')
	[ -n "$t" ] || die "no .text in $o/vmlinux.o"
	echo "$k,vmlinux.o:.text,$t,," >> "$out"
	text[$k:vmlinux.o:.text]=$t
done
printf '%-28s' "text bytes"
for k in "$@"; do printf '%12s' "$k"; done
if [ $# -eq 2 ]; then printf '%12s' "delta"; fi
echo
for obj in $OBJS; do
	printf '%-28s' "$obj"
	for k in "$@"; do printf '%12s' "${text[$k:$obj]}"; done
	if [ $# -eq 2 ]; then
		a=${text[$1:$obj]}
		b=${text[$2:$obj]}
		printf '%+12d' $((b - a))
	fi
	echo
done
