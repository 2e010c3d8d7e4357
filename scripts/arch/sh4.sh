# SPDX-License-Identifier: GPL-2.0
# sh4's toolchain hooks (configs/arch/sh4.conf names this file in
# BA_HOOKS; scripts/lib.sh's load_arch sources it).  Shell functions
# only, for the scripts that source lib.sh.

arch_cc_setup() { sh_cc_setup "$BA_CROSS"; }
arch_libc_setup() { sh_libc_setup "$BA_CROSS"; }

# sh_cc_probe PREFIX [FLAG...]: does PREFIX's gcc, with FLAGs, compile
# "return *p ? 3 : 9" at -O2 with a load of *p?  (Compiled, not run.)
sh_cc_probe() {
	local pre=$1 dis
	shift
	mkdir -p "$BUILD"
	printf 'int probe(const int *p)\n{\n\treturn *p ? 3 : 9;\n}\n' >"$BUILD/.sh-cc-probe.c" &&
		"${pre}gcc" "$@" -O2 -c -o "$BUILD/.sh-cc-probe.o" "$BUILD/.sh-cc-probe.c" ||
		die "${pre}gcc $* cannot compile a 4-line probe"
	dis=$("${pre}objdump" -d "$BUILD/.sh-cc-probe.o") || die "${pre}objdump failed on the probe"
	rm -f "$BUILD/.sh-cc-probe.c" "$BUILD/.sh-cc-probe.o"
	grep -qE 'mov\.l[[:space:]]+@r4,' <<<"$dis"
}

# sh_cc_setup PREFIX: set ARCH_CFLAGS, the flags PREFIX's SH cross
# compiler needs to compile correctly.  Debian 12's gcc-sh4-linux-gnu
# (12.2.0-13cross1) drops the test of a loaded value at -O1 and above:
# for "return *p ? 3 : 9" its sh_treg_combine passes delete the load and
# the tst and branch on whatever the T bit holds; kernels it builds hang
# at boot (the zImage decompressor takes its "no input" path; vmlinux
# spins in printk_delay()).  Such a compiler is used with
# tools/testing/selinux-avc-bench/sh4-no-treg-combine.c, a GCC plugin that
# turns those passes off, built here with the host's g++ against its
# plugin headers; it is refused if the plugin cannot be built or does not
# cure the probe.
sh_cc_setup() {
	local pre=$1 plugdir src so
	ARCH_CFLAGS=
	command -v "${pre}gcc" >/dev/null || return 0
	sh_cc_probe "$pre" && return 0
	src=$TOP/tools/testing/selinux-avc-bench/sh4-no-treg-combine.c
	so=$BUILD/tools/sh4-no-treg-combine.so
	plugdir=$("${pre}gcc" -print-file-name=plugin)
	if [ ! -f "$plugdir/include/gcc-plugin.h" ] || ! command -v g++ >/dev/null; then
		die "${pre}gcc ($("${pre}gcc" -dumpfullversion 2>/dev/null || echo '?')) miscompiles: 'return *p ? 3 : 9' at -O2 has no load of *p (its sh_treg_combine passes delete the load and the tst), so kernels it builds hang at boot; the plugin that turns those passes off needs its headers and g++: apt-get install gcc-12-plugin-dev-sh4-linux-gnu g++ (or give a working SH4 toolchain: SH4_CROSS=/path/to/sh4-linux-)"
	fi
	if [ ! -f "$so" ] || [ "$src" -nt "$so" ]; then
		mkdir -p "$BUILD/tools"
		g++ -shared -fPIC -fno-rtti -O2 -I"$plugdir/include" -x c++ "$src" -o "$so.tmp" ||
			die "building the SH4 compiler plugin ${src#"$TOP"/} failed"
		mv "$so.tmp" "$so"
	fi
	sh_cc_probe "$pre" -fplugin="$so" ||
		die "${pre}gcc miscompiles 'return *p ? 3 : 9' even with ${so#"$TOP"/}: give a working SH4 toolchain: SH4_CROSS=/path/to/sh4-linux-"
	ARCH_CFLAGS=-fplugin=$so
	msg "${pre}gcc drops the test of a loaded value; compiling with ${ARCH_CFLAGS#-fplugin="$TOP"/} (sh_treg_combine off)"
}

# sh_libc_setup PREFIX: after sh_cc_setup, set ARCH_LIBC_FLAGS (gcc flags
# that link static programs against a C library that works) and
# ARCH_LIBC_DIR (its prefix).  Both stay empty when the compiler needed no
# plugin: its own C library is used.  Otherwise that library was built by
# the same faulty compiler, and Debian's libc6-dev-sh4-cross shows it:
# its static __libc_start_main() spins on the envp scan ("bf.s ." with no
# load or test), so every program hangs before main().  The programs are
# then linked against musl, built here once, with the plugin, from Debian's
# musl source package (fetched with a private apt state under
# build/deps/; DEBIAN_MIRROR picks the mirror) or from MUSL_SRC=DIR, an
# unpacked musl source tree.
sh_libc_setup() {
	local pre=$1 d=$BUILD/deps/musl-sh4 src tgz target
	ARCH_LIBC_FLAGS=
	ARCH_LIBC_DIR=
	[ -n "$ARCH_CFLAGS" ] || return 0
	if [ ! -f "$d/inst/lib/libc.a" ] || [ ! -f "$d/inst/lib/musl-gcc.specs" ]; then
		src=${MUSL_SRC:-}
		if [ -z "$src" ]; then
			msg "fetching Debian's musl source package (once, into ${d#"$TOP"/})"
			rm -rf "$d/src"
			mkdir -p "$d/src"
			private_apt "$d" "deb-src ${DEBIAN_MIRROR:-http://deb.debian.org/debian} $(debian_suite) main" &&
				(cd "$d/src" && "${PAPT[@]}" source --download-only musl) >>"$d/apt.log" 2>&1 ||
				die "cannot download Debian's musl source package (log: ${d#"$TOP"/}/apt.log); or set MUSL_SRC to an unpacked musl source tree"
			tgz=$(ls "$d"/src/musl_*.orig.tar.gz 2>/dev/null | tail -1)
			[ -n "$tgz" ] || die "Debian's musl source package has no musl_*.orig.tar.gz (log: ${d#"$TOP"/}/apt.log)"
			mkdir -p "$d/src/musl"
			tar -xzf "$tgz" -C "$d/src/musl" --strip-components=1 || die "cannot unpack $tgz"
			src=$d/src/musl
		fi
		[ -x "$src/configure" ] && [ -d "$src/arch/sh" ] ||
			die "${src#"$TOP"/} is not a musl source tree with SH support (no configure or arch/sh)"
		target=$(basename "${pre%-}")
		case $target in sh*) ;; *) target=sh4-linux ;; esac
		msg "building musl for $target with the plugin (once, into ${d#"$TOP"/}/inst)"
		rm -rf "$d/obj" "$d/inst"
		mkdir -p "$d/obj"
		(cd "$d/obj" &&
			CC="${pre}gcc $ARCH_CFLAGS" CROSS_COMPILE=$pre "$src/configure" \
				--target="$target" --prefix="$d/inst" --disable-shared &&
			make -j"$(nproc)" && make install) >"$d/build.log" 2>&1 ||
			die "building musl from ${src#"$TOP"/} failed (log: ${d#"$TOP"/}/build.log)"
		[ -f "$d/inst/lib/musl-gcc.specs" ] ||
			die "musl's build installed no lib/musl-gcc.specs (log: ${d#"$TOP"/}/build.log)"
	fi
	ARCH_LIBC_DIR=$d/inst
	ARCH_LIBC_FLAGS="-specs $d/inst/lib/musl-gcc.specs"
	msg "linking against musl (${d#"$TOP"/}/inst), built with the plugin: ${pre}gcc's own C library has the same fault"
}
