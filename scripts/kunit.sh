#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the project's KUnit suites with tools/testing/kunit/kunit.py.
# Usage: kunit.sh [ARCH|x86_64-guest] [patched]
#   ARCH: an architecture of configs/arch/ (um, the default, x86_64, i386,
#         arm64, sh4), or the kernel's name of one (sh: sh4's).  Its file
#         gives the toolchain (BA_CROSS), qemu (BA_QEMU, none for um), the
#         packages to name when they are missing, the CPUs of the run
#         (BA_KUNIT_CPUS: 2 runs the multi-CPU and CPU hotplug cases) and
#         jump labels (BA_JUMP_LABEL); kunit.py's own qemu settings of
#         the kernel architecture (BA_KARCH) give the machine and console.
#   x86_64-guest: the suites built into the patched matrix guest kernel
#         (configs/matrix.config: x86_64, SMP, CPU hotplug, jump labels,
#         hardware breakpoints), booted under qemu -smp 2 with
#         kunit.enable=1; no kernel build of its own (make check)
# Extra kunit.py arguments can be passed in KUNIT_ARGS.
. "$(dirname "$0")/lib.sh"

arch=${1:-um}
variant=${2:-patched}
[ "$variant" = patched ] || die "kunit.sh: the suites exist only in the patched tree"
if [ "$arch" != x86_64-guest ]; then
	# The architecture's file: ARCH's own, or the one whose kernel ARCH
	# it is.
	case $arch in
	''|*[!a-z0-9_]*) conf= ;;
	*) conf=$arch
	   [ -f "$TOP/configs/arch/$conf.conf" ] ||
		conf=$(cd "$TOP/configs/arch" && grep -lx "BA_KARCH=$arch" -- *.conf | sed 's/\.conf$//') ||
		conf= ;;
	esac
	[ -n "$conf" ] && [ "$(wc -l <<<"$conf")" -eq 1 ] ||
		die "kunit.sh: arch must be x86_64-guest or one of configs/arch/ ($(cd "$TOP/configs/arch" && ls -- *.conf | sed 's/\.conf$//' | tr '\n' ' ')or the kernel ARCH of one), not '$arch'"
	load_arch "$conf"
fi
lock_build
need_tree
src=$PATCHED
out=$OUTDIR/$variant-kunit-$arch
log=$BUILD/logs/kunit-$SRCID-$variant-$arch.log
mkdir -p "$BUILD/logs" "$OUTDIR"

if [ "$arch" = x86_64-guest ]; then
	# The matrix guest's configuration builds the suites in and leaves
	# them off at boot (CONFIG_KUNIT_DEFAULT_ENABLED=n), so the matrix
	# boots never run them; this boot does, then the kernel reboots and
	# qemu, -no-reboot, exits.  kunit.py parses the console.
	[ "$BENCH_ARCH" = x86_64 ] || die "kunit.sh x86_64-guest: the x86_64 matrix guest only (BENCH_ARCH=$BENCH_ARCH)"
	kdir=$OUTDIR/$variant-$MATRIX_FLAVOR
	img=$kdir/$BA_IMAGE
	[ -f "$img" ] || die "no patched matrix guest kernel: ${img#"$TOP"/} is missing; build it first: scripts/build.sh patched $MATRIX_FLAVOR"
	for l in CONFIG_KUNIT=y CONFIG_SECURITY_SELINUX_AVC_KUNIT_TEST=y CONFIG_SECURITY_SELINUX_SS_KUNIT_TEST=y CONFIG_SECURITY_SELINUX_LABEL_CACHE_KUNIT_TEST=y CONFIG_SMP=y CONFIG_HOTPLUG_CPU=y; do
		grep -qxF "$l" "$kdir/.config" ||
			die "${kdir#"$TOP"/}/.config lacks $l: the matrix guest must build the suites (configs/matrix.config)"
	done
	command -v "$BA_QEMU" >/dev/null || die "$BA_QEMU not found: apt-get install $BA_PACKAGES"
	msg "KUnit in the patched matrix guest (${img#"$TOP"/}), qemu -smp 2, log ${log#"$TOP"/}"
	start=$SECONDS
	# shellcheck disable=SC2086 # BA_QEMU_ARGS: several arguments
	# Two sockets: the guest has no ACPI, and SeaBIOS's MP table, which it
	# reads instead, names one CPU per socket.
	timeout --foreground -k 5 "${KUNIT_TIMEOUT:-1800}" "$BA_QEMU" $BA_QEMU_ARGS \
		-accel tcg,thread=multi -smp 2,sockets=2,cores=1,threads=1 -m 512 \
		-nographic -no-reboot -kernel "$img" \
		-append "console=$BA_CONSOLE kunit.enable=1 kunit.filter_glob=selinux_* kunit_shutdown=reboot panic=-1" \
		</dev/null >"$log.console" 2>&1
	qrc=$?
	(cd "$PATCHED" && ./tools/testing/kunit/kunit.py parse "$log.console") >"$log" 2>&1
	rc=$?
	grep -E '^\[..:..:..\] (Testing complete|=+ |\[(FAILED|SKIPPED|CRASHED)\])|not ok' "$log" >&2
	summary=$(grep -E 'Testing complete\.' "$log" | tail -1)
	msg "KUnit x86_64-guest: ${summary:-no summary} ($((SECONDS - start))s)"
	[ "$qrc" -eq 0 ] || die "the KUnit guest did not finish (qemu status $qrc; console: ${log#"$TOP"/}.console)"
	[ "$rc" -eq 0 ] || die "KUnit in the matrix guest failed (log: ${log#"$TOP"/})"
	# The multi-CPU and hotplug cases skip on one CPU: here they must run.
	! grep -E '# SKIP needs (two CPUs|CPU hotplug)' "$log.console" ||
		die "the KUnit guest had one CPU: the multi-CPU cases skipped (console: ${log#"$TOP"/}.console)"
	# Every suite must have run, or the boot proved less than it says.
	for suite in selinux_avc selinux_label_cache selinux_compute_av; do
		grep -qE "^\[..:..:..\] =+ $suite \(" "$log" ||
			die "the suite $suite did not run in the guest (log: ${log#"$TOP"/})"
	done
	exit 0
fi
cc=${BA_CROSS}gcc
[ -z "$BA_CROSS" ] || command -v "$cc" >/dev/null || die "$cc not found: apt-get install $BA_PACKAGES"
[ -z "$BA_QEMU" ] || command -v "$BA_QEMU" >/dev/null ||
	die "$BA_QEMU not found: apt-get install $BA_PACKAGES"
arch_cc_setup
args=(run --kunitconfig security/selinux --build_dir "$out" --jobs "$JOBS" --timeout 1800
      --arch "$BA_KARCH")
[ -z "$BA_CROSS" ] || args+=(--cross_compile "$BA_CROSS")
if [ "$BA_KUNIT_CPUS" -gt 1 ]; then
	args+=(--qemu_args "-smp $BA_KUNIT_CPUS" --kconfig_add CONFIG_SMP=y
	       --kconfig_add CONFIG_HOTPLUG_CPU=y)
fi
[ "$BA_JUMP_LABEL" != y ] || args+=(--kconfig_add CONFIG_JUMP_LABEL=y)
args+=(--make_options "CC=ccache $cc")
[ -z "$ARCH_CFLAGS" ] || args+=(--make_options "KCFLAGS=$ARCH_CFLAGS")
command -v ccache >/dev/null || die "ccache missing: run 'make deps'"

qpath=$(kunit_tcg_path "$BA_QEMU")
msg "KUnit on $arch ($variant), build dir ${out#$TOP/}, log ${log#$TOP/}"
start=$SECONDS
set +e
(cd "$src" && PATH=$qpath ./tools/testing/kunit/kunit.py "${args[@]}" ${KUNIT_ARGS:-}) 2>&1 |
	tee "$log" | grep --line-buffered -E '^\[..:..:..\] (Building|Starting|Testing complete|Ran|=+ |\[(PASSED|FAILED|SKIPPED|CRASHED)\]|# |    )|ERROR|error:|FAILED|not ok' >&2
rc=${PIPESTATUS[0]}
set -e
summary=$(grep -E 'Testing complete\.' "$log" | tail -1)
msg "KUnit $arch: ${summary:-no summary} ($((SECONDS - start))s)"
[ "$rc" -eq 0 ] || die "KUnit on $arch failed (log: $log)"
