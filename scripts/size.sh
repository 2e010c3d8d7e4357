#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Text size of vmlinux and of security/selinux, stock vs patched.
# Usage: size.sh FLAVOR OUT.csv KERNEL...
. "$(dirname "$0")/lib.sh"

flavor=${1:?usage: size.sh FLAVOR OUT.csv KERNEL...}
out=${2:?usage: size.sh FLAVOR OUT.csv KERNEL...}
shift 2
[ $# -gt 0 ] || set -- stock patched

# sizes FILE: "text data bss" of a file; archives are summed over members
sizes() {
	size -t "$1" 2>/dev/null | awk 'END { print $1, $2, $3 }'
}

# code FILE: from _stext to the last text symbol before _etext, from a
# System.map.  vmlinux's .text section and _etext are padded to a 2 MiB
# boundary, so size(1) alone hides small changes.
code() {
	local s e
	s=$(awk '$3 == "_stext" {print $1}' "$1")
	e=$(awk '$3 == "_etext" {print $1}' "$1")
	e=$(awk -v e="$e" '$2 ~ /^[tT]$/ && $1 < e && $1 > m {m = $1} END {print m}' "$1")
	[ -n "$s" ] && [ -n "$e" ] || return 1
	echo $((0x$e - 0x$s))
}

OBJS="vmlinux vmlinux:text-symbols security/selinux/built-in.a"
echo "kernel,object,text,data,bss" > "$out"
declare -A text=()
for k in "$@"; do
	o=$OUTDIR/$k-$flavor
	[ -f "$o/System.map" ] || die "no $o/System.map: build the $k kernel first"
	t=$(code "$o/System.map") || die "no _stext/_etext in $o/System.map"
	echo "$k,vmlinux:text-symbols,$t,," >> "$out"
	text[$k:vmlinux:text-symbols]=$t
	for obj in vmlinux security/selinux/built-in.a; do
		[ -f "$o/$obj" ] || die "no $o/$obj: build the $k kernel first"
		read -r t d b < <(sizes "$o/$obj")
		[ -n "$t" ] || die "size $o/$obj failed"
		echo "$k,$obj,$t,$d,$b" >> "$out"
		text[$k:$obj]=$t
	done
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
