#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A no-change "make" of the kernel-like tree lat_make builds, in the
# guest's sh (busybox ash), for lat_make's macro row.
# Usage: make.sh TREE            the top level
#        make.sh TREE DIR        the sub-make of one directory
# What it does is what a no-change make of a kernel tree does, by the
# system calls: the top level reads the configuration, checks that
# auto.conf is newer than .config, runs a tool for a $(shell ...) (cat of
# kernel.release) and runs a sub-make per directory (a fork+exec of this
# script, as make runs "make -f scripts/Makefile.build obj=DIR").  Each
# sub-make reads the directory's Makefile and every .cmd file (an open and
# a read each), compares the saved command line, stats every object
# against each of its prerequisites and built-in.a against every object,
# and runs a filechk step for modules.order: the list written to a
# temporary file, cmp (a fork+exec) and rm of the temporary file.
# It exits 1, naming the file, if anything would be rebuilt.
set -e
cd "$1"

stale() {
	echo "make.sh: $1 is out of date ($2)" >&2
	exit 1
}

if [ -n "${2:-}" ]; then
	d=$2
	. "./$d/Makefile"
	for o in $objs; do
		t=$d/$o.o
		. "./$d/.$o.o.cmd"
		[ "$savedcmd" = "gcc -Wp,-MMD,$d/.$o.o.d -nostdinc -Iinclude -O2 -c -o $t $d/$o.c" ] ||
			stale "$t" "command line changed"
		for p in $deps; do
			[ "$t" -nt "$p" ] || stale "$t" "$p is newer"
		done
	done
	for o in $objs; do
		[ "$d/built-in.a" -nt "$d/$o.o" ] || stale "$d/built-in.a" "$d/$o.o is newer"
	done
	for o in $objs; do
		echo "$d/$o.o"
	done > "$d/modules.order.tmp"
	if cmp -s "$d/modules.order" "$d/modules.order.tmp"; then
		rm -f "$d/modules.order.tmp"
	else
		mv -f "$d/modules.order.tmp" "$d/modules.order"
		stale "$d/modules.order" "its contents changed"
	fi
	exit 0
fi

. ./.config
[ include/config/auto.conf -nt .config ] || stale include/config/auto.conf ".config is newer"
release=$(cat include/config/kernel.release)
[ -n "$release" ] || stale include/config/kernel.release "empty"
for d in $dirs; do
	sh "$0" "$1" "$d"
done
