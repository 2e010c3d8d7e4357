#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make testsuite TESTSUITE=DIR: the SELinux project's functional test
# suite (a checkout of selinux-testsuite in DIR, which is only read: it is
# copied into build/) in a qemu guest on the stock and the patched kernel,
# and the two pass/fail lists compared.  The guest boots a Debian root
# file system built with mmdebstrap (ext4 on virtio-blk, cached under
# build/testsuite/), the kernels of the flavor x86_64-guest+matrix+testsuite
# (configs/testsuite.config).  Not part of make check.
#
# Usage: testsuite.sh [--check-input] [FLAVOR]
#   FLAVOR: default x86_64-guest+matrix+testsuite; --check-input: only
#   check TESTSUITE and TESTSUITE_TESTS (make testsuite does so before
#   it builds the kernels)
# Environment:
#   TESTSUITE=DIR          the selinux-testsuite checkout (required)
#   TESTSUITE_TESTS=WHICH  default: the subset listed in
#                          tools/testing/selinux-avc-testsuite/default-tests
#                          (under 30 minutes); all: every test the suite's
#                          tests/Makefile enables for this guest; or a
#                          list of test directories, e.g. "file mmap"
#   KERNELS="stock patched"  kernels to run; the first is the reference,
#                          and it also boots the one-time preparation
#   TESTSUITE_PARALLEL=1   boot the kernels' guests side by side (0: one
#                          after the other)
#   TESTSUITE_TIMEOUT=S    seconds before a test guest is killed (default
#                          2400; 14400 with TESTSUITE_TESTS=all)
#   TESTSUITE_TEST_TIMEOUT=S  seconds for one test script (default 900)
#   TESTSUITE_PREPARE_TIMEOUT=S  the preparation guest (default 3600)
#   TESTSUITE_MEM=MiB      guest memory (default 2048)
#   TESTSUITE_DEBIAN=SUITE Debian release of the root file system
#                          (default bookworm); TESTSUITE_MIRROR=URL its
#                          mirror (default: mmdebstrap's)
#   TESTSUITE_MMDEBSTRAP_MODE=MODE  mmdebstrap --mode (default unshare)
# Outputs: build/testsuite/<kernel>/{console.log,out/}, results/testsuite.txt
# (summary), results/testsuite.json, results/testsuite-<kernel>.csv.
# Exit status: 0 when every kernel passes exactly the reference's tests.
. "$(dirname "$0")/lib.sh"

TS=$TOP/tools/testing/selinux-avc-testsuite
check_only=
if [ "${1:-}" = --check-input ]; then
	check_only=1
	shift
fi
flavor=${1:-$MATRIX_FLAVOR+testsuite}
TESTSUITE=${TESTSUITE:-}
TESTSUITE_TESTS=${TESTSUITE_TESTS:-default}
KERNELS=${KERNELS:-stock patched}
TESTSUITE_PARALLEL=${TESTSUITE_PARALLEL:-1}
if [ "$TESTSUITE_TESTS" = all ]; then
	TESTSUITE_TIMEOUT=${TESTSUITE_TIMEOUT:-14400}
else
	TESTSUITE_TIMEOUT=${TESTSUITE_TIMEOUT:-2400}
fi
TESTSUITE_TEST_TIMEOUT=${TESTSUITE_TEST_TIMEOUT:-900}
TESTSUITE_PREPARE_TIMEOUT=${TESTSUITE_PREPARE_TIMEOUT:-3600}
TESTSUITE_MEM=${TESTSUITE_MEM:-2048}
TESTSUITE_DEBIAN=${TESTSUITE_DEBIAN:-bookworm}
TESTSUITE_MIRROR=${TESTSUITE_MIRROR:-}
TESTSUITE_MMDEBSTRAP_MODE=${TESTSUITE_MMDEBSTRAP_MODE:-unshare}
# The root file system's size: the image is sparse, so this is room for
# the test programs and the files the tests make, not disk used.
ROOTFS_SIZE=6G
OUT=$BUILD/testsuite
RESULTS=${RESULTS:-$RESULTS_TOP}
M=AVC-TESTSUITE

# 1. Bad input first: no build, no lock, nothing written.
[ "$BENCH_ARCH" = x86_64 ] ||
	die "make testsuite runs on the x86_64 guest only (BENCH_ARCH=$BENCH_ARCH)"
need_checkout TESTSUITE testsuite \
	"a selinux-testsuite checkout (the SELinux project's, github SELinuxProject/selinux-testsuite)" \
	tests/Makefile tests/runtests.pl policy/Makefile
case $TESTSUITE/ in "$BUILD"/testsuite/*)
	die "TESTSUITE=$TESTSUITE is inside build/testsuite/, which this script writes: use your own checkout" ;;
esac
for v in TESTSUITE_TIMEOUT TESTSUITE_TEST_TIMEOUT TESTSUITE_PREPARE_TIMEOUT TESTSUITE_MEM; do
	case ${!v} in ''|*[!0-9]*) die "$v must be a number of $([ $v = TESTSUITE_MEM ] && echo MiB || echo seconds), not '${!v}'" ;; esac
done
case $TESTSUITE_PARALLEL in 0|1) ;; *) die "TESTSUITE_PARALLEL must be 0 or 1" ;; esac
[ -n "$KERNELS" ] || die "KERNELS is empty"

# The tests to run: a list of test directories under tests/, or "all".
case $TESTSUITE_TESTS in
default) tests=$(sed 's/#.*//' "$TS/default-tests" | tr -s ' \t\n' ' ') ;;
all) tests=all ;;
*) tests=$(echo "$TESTSUITE_TESTS" | tr -s ' \t\n,' ' ') ;;
esac
if [ "$tests" != all ]; then
	for t in $tests; do
		case $t in
		*[!a-z0-9_/-]*|/*|*..*) die "TESTSUITE_TESTS: '$t' is not a test directory name (default, all, or names like 'file mmap inet_socket/tcp')" ;;
		esac
	done
	# The default list may name tests an older checkout lacks: leave them
	# out and say so.  Names given by the user must all be there.
	tarr=()
	absent=
	for t in $tests; do
		if [ -e "$TESTSUITE/tests/$t/test" ]; then
			tarr+=("$t")
		elif [ "$TESTSUITE_TESTS" = default ]; then
			absent="$absent $t"
		else
			die "TESTSUITE_TESTS: the suite has no test '$t' (no tests/$t/test in $TESTSUITE)"
		fi
	done
	[ -z "$absent" ] || warn "tests of the default list that this checkout does not have:$absent"
	tests="${tarr[*]-}"
	[ -n "$tests" ] || die "TESTSUITE_TESTS selects no test"
fi

[ -z "$check_only" ] || exit 0

# Tools, with the packages that bring them: one apt-get line for all.
missing=()
for t in mmdebstrap:mmdebstrap genext2fs:genext2fs mke2fs:e2fsprogs tune2fs:e2fsprogs \
	resize2fs:e2fsprogs e2fsck:e2fsprogs "$BA_QEMU:qemu-system-x86" python3:python3 \
	tar:tar timeout:coreutils; do
	command -v "${t%%:*}" >/dev/null || PATH=$PATH:/usr/sbin:/sbin command -v "${t%%:*}" >/dev/null ||
		case " ${missing[*]-} " in *" ${t#*:} "*) ;; *) missing+=("${t#*:}") ;; esac
done
[ ${#missing[@]} -eq 0 ] ||
	die "missing packages for make testsuite: apt-get install -y ${missing[*]} (or: scripts/deps.sh testsuite)"
export PATH=$PATH:/usr/sbin:/sbin

lock_build
# shellcheck disable=SC2086
need_guest_images "$flavor" $KERNELS
mkdir -p "$OUT" "$RESULTS"
t_all=$SECONDS
declare -A phase_s=()

# logged LOG CMD...: CMD with its output to LOG (under progress()).
# shellcheck disable=SC2317 # called through progress()
logged() {
	local log=$1
	shift
	"$@" >"$log" 2>&1
}

# files_hash FILE|DIR...: one hash of the names, modes and contents.
files_hash() {
	local p
	for p in "$@"; do
		(cd "$(dirname "$p")" && find "$(basename "$p")" \( -type f -o -type l \) -printf '%p %m %l\n' | LC_ALL=C sort &&
			find "$(basename "$p")" -type f -print0 | LC_ALL=C sort -z | xargs -0 -r md5sum)
	done | md5sum | cut -c1-12
}

# 2. The root file system: Debian with the suite's dependencies, built once
# per package list (tools/testing/selinux-avc-testsuite/packages and
# rootfs/) and release.  mmdebstrap writes an ext2 image without root
# (--mode=unshare: a user namespace for an ordinary user; as root it keeps
# root's user namespace and unshares the rest); tune2fs makes it ext4.
t0=$SECONDS
rkey=$({ files_hash "$TS/packages" "$TS/rootfs"; echo "$TESTSUITE_DEBIAN $TESTSUITE_MIRROR $ROOTFS_SIZE"; } | md5sum | cut -c1-12)
rootfs=$OUT/rootfs-$rkey.img
if [ -f "$rootfs" ]; then
	msg "root file system: reusing ${rootfs#"$TOP"/}"
else
	pkgs=$(sed 's/#.*//' "$TS/packages" | tr -s ' \t\n' ',' | sed 's/^,//; s/,$//')
	log=$OUT/rootfs-$rkey.log
	msg "root file system: Debian $TESTSUITE_DEBIAN with $(echo "$pkgs" | tr ',' '\n' | wc -l) packages and their dependencies (mmdebstrap --mode=$TESTSUITE_MMDEBSTRAP_MODE; log: ${log#"$TOP"/})"
	rm -rf "$rootfs.tmp" "$OUT/tmp"
	mkdir -p "$OUT/tmp"
	# shellcheck disable=SC2086 # TESTSUITE_MIRROR: empty or one word
	TMPDIR=$OUT/tmp progress "mmdebstrap" logged "$log" mmdebstrap --mode="$TESTSUITE_MMDEBSTRAP_MODE" --variant=apt --format=ext2 \
		--include="$pkgs" \
		--dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
		--dpkgopt='path-exclude=/usr/share/doc/*' \
		--customize-hook="sync-in $TS/rootfs /" \
		"$TESTSUITE_DEBIAN" "$rootfs.tmp" $TESTSUITE_MIRROR ||
		{ tail -20 "$log" >&2; rm -f "$rootfs.tmp"; die "mmdebstrap failed (log: ${log#"$TOP"/}); with --mode=unshare as an ordinary user it needs /etc/subuid and /etc/subgid entries (apt-get install uidmap)"; }
	{
		tune2fs -O extents,uninit_bg,dir_index,has_journal "$rootfs.tmp" &&
		{ e2fsck -fyD "$rootfs.tmp" || [ $? -le 1 ]; } &&
		resize2fs "$rootfs.tmp" "$ROOTFS_SIZE" &&
		{ e2fsck -fy "$rootfs.tmp" || [ $? -le 1 ]; }
	} >>"$log" 2>&1 || { tail -20 "$log" >&2; die "making ${rootfs#"$TOP"/} ext4 failed (log: ${log#"$TOP"/})"; }
	mv "$rootfs.tmp" "$rootfs"
	rm -rf "$OUT/tmp"
	for f in "$OUT"/rootfs-*.img "$OUT"/prepared-*.img; do
		case $f in "$rootfs"|*'*'*) ;; *) msg "removing the old image ${f#"$TOP"/}"; rm -f "$f" ;; esac
	done
	msg "root file system built in $((SECONDS - t0))s: ${rootfs#"$TOP"/} ($(du -h "$rootfs" | cut -f1) used of $ROOTFS_SIZE)"
fi
phase_s[rootfs]=$((SECONDS - t0))

# 3. The user's checkout, copied: the guest builds in its copy, never in
# the checkout.  In a git checkout, the files git tracks and the untracked
# ones it does not ignore (not the user's build products).
t0=$SECONDS
rm -rf "$OUT/suite"
mkdir -p "$OUT/suite"
if git -C "$TESTSUITE" rev-parse --show-toplevel 2>/dev/null | grep -qxF "$TESTSUITE"; then
	(cd "$TESTSUITE" && git ls-files -z -co --exclude-standard) |
		(cd "$TESTSUITE" && tar --null -T - -cf -) | tar -C "$OUT/suite" -xf - ||
		die "copying the checkout $TESTSUITE failed"
	suite_rev=$(git -C "$TESTSUITE" describe --always --dirty 2>/dev/null || echo unknown)
else
	tar -C "$TESTSUITE" --exclude=.git -cf - . | tar -C "$OUT/suite" -xf - ||
		die "copying $TESTSUITE failed"
	suite_rev="not a git checkout"
fi
msg "selinux-testsuite: $TESTSUITE ($suite_rev), copied to ${OUT#"$TOP"/}/suite"

# job_disk NAME MODE: the job disk of a guest (ext4, read only in the
# guest): the guest script, its settings and, to prepare, the suite.
job_disk() {
	local name=$1 mode=$2 dir=$OUT/job-$1 size
	rm -rf "$dir" "$OUT/job-$name.img"
	mkdir -p "$dir"
	cp "$TS/guest.sh" "$TS/subdirs.mk" "$dir/"
	[ "$mode" != prepare ] || cp -a "$OUT/suite" "$dir/suite"
	{
		echo "MODE=$mode"
		echo "TESTS='$tests'"
		echo "TEST_TIMEOUT=$TESTSUITE_TEST_TIMEOUT"
	} > "$dir/job.conf"
	size=$(( $(du -sm "$dir" | cut -f1) * 2 + 32 ))
	mke2fs -q -t ext4 -d "$dir" -L job "$OUT/job-$name.img" "${size}M" >/dev/null ||
		die "mke2fs of the job disk ${OUT#"$TOP"/}/job-$name.img failed"
	rm -rf "$dir"
}

# boot NAME KERNEL ROOT ROOT-SNAPSHOT TIMEOUT JOB: one guest, plain TCG (no
# -icount: the suite's tests wait for their servers and children in real
# time, which a virtual clock that skips idle time would shorten, and it
# runs faster so).  Disks: the root file system (with snapshot=on its
# writes are thrown away when qemu exits), the job disk, and a raw disk
# the guest writes its results to as a tar archive.  No network card: the
# tests use the loopback interfaces only.
boot() {
	local name=$1 k=$2 root=$3 snap=$4 t=$5 job=$6 dir=$OUT/$1
	mkdir -p "$dir"
	rm -rf "$dir/console.log" "$dir/out" "$dir/out.img"
	truncate -s 256M "$dir/out.img"
	# shellcheck disable=SC2086 # BA_QEMU_ARGS: several arguments
	timeout --foreground -k 10 "$t" "$BA_QEMU" $BA_QEMU_ARGS -accel tcg -cpu max \
		-smp 1 -m "$TESTSUITE_MEM" -nographic -no-reboot -nic none \
		-kernel "$(guest_image "$k" "$flavor")" \
		-append "console=$BA_CONSOLE root=/dev/vda rw rootfstype=ext4 init=/usr/sbin/avc-testsuite-init selinux=1 enforcing=0 panic=-1 quiet log_buf_len=8M" \
		-drive "file=$root,format=raw,if=virtio,snapshot=$snap" \
		-drive "file=$OUT/job-$job.img,format=raw,if=virtio,readonly=on" \
		-drive "file=$dir/out.img,format=raw,if=virtio" \
		</dev/null >"$dir/console.log" 2>&1
}

# watch NAME...: show the guests' progress until their qemu exits.
watch_guests() {
	local start=$SECONDS running k line
	declare -A last=()
	while :; do
		running=
		for k in "$@"; do
			kill -0 "${pids[$k]}" 2>/dev/null || continue
			line=$(grep -a "^$M: \(STEP\|TEST\|RESULT\)" "$OUT/$k/console.log" 2>/dev/null | tail -1 | tr -d '\r' | sed "s/^$M: //") || true
			running="$running $k: ${line:-booting}; "
		done
		[ -n "$running" ] || break
		if [ $(( (SECONDS - start) % 30 )) -lt 5 ] || [ "$running" != "${last[x]:-}" ]; then
			printf '    ... %ds:%s\n' $((SECONDS - start)) "${running%; }" >&2
			last[x]=$running
		fi
		sleep 5
	done
}

# collect NAME: the guest's results, unpacked from its tar disk.
collect() {
	local dir=$OUT/$1
	mkdir -p "$dir/out"
	tar -C "$dir/out" -xf "$dir/out.img" 2>/dev/null && [ -f "$dir/out/status" ] || return 1
	rm -f "$dir/out.img"
}

guest_errors() {
	grep -a "^$M: ERROR\|Kernel panic\|BUG:\|WARNING:\|Oops" "$OUT/$1/console.log" | tr -d '\r' | head -20 >&2 || true
}

# 4. Preparing, once per root file system, checkout and test selection,
# on the first kernel: label the file system, build and load the suite's
# test policy (make -C policy load), build the test programs.  The result
# is a new image that every kernel then boots with snapshot=on.
t0=$SECONDS
first=${KERNELS%% *}
pkey=$({ echo "$rkey $tests"; files_hash "$OUT/suite" "$TS/guest.sh" "$TS/subdirs.mk"; } | md5sum | cut -c1-12)
prepared=$OUT/prepared-$pkey.img
if [ -f "$prepared" ]; then
	msg "prepared image: reusing ${prepared#"$TOP"/}"
else
	for f in "$OUT"/prepared-*.img; do
		[ -e "$f" ] && { msg "removing the old image ${f#"$TOP"/}"; rm -f "$f"; }
	done
	cp --sparse=always "$rootfs" "$prepared.tmp"
	job_disk prepare prepare
	msg "preparing on the $first kernel: label the root file system, build and load the test policy, build the tests (some minutes under TCG; log: ${OUT#"$TOP"/}/prepare/console.log)"
	declare -A pids=()
	boot prepare "$first" "$prepared.tmp" off "$TESTSUITE_PREPARE_TIMEOUT" prepare &
	pids[prepare]=$!
	watch_guests prepare
	rc=0
	wait "${pids[prepare]}" || rc=$?
	if ! collect prepare || [ "$(cat "$OUT/prepare/out/status")" != prepared ]; then
		guest_errors prepare
		tail -30 "$OUT/prepare/out/prepare.log" 2>/dev/null >&2 || true
		rm -f "$prepared.tmp"
		die "preparing the guest failed (qemu exit $rc$([ "$rc" -eq 124 ] && echo ", timeout after ${TESTSUITE_PREPARE_TIMEOUT}s")); console: ${OUT#"$TOP"/}/prepare/console.log"
	fi
	mv "$prepared.tmp" "$prepared"
	msg "prepared in $((SECONDS - t0))s: ${prepared#"$TOP"/}"
fi
phase_s[prepare]=$((SECONDS - t0))

# 5. The test runs, one guest per kernel.
t0=$SECONDS
job_disk run run
declare -A pids=() qrc=()
msg "running the tests ($([ "$tests" = all ] && echo "all that the suite enables" || echo "$(echo "$tests" | wc -w) test directories")) on: $KERNELS$([ "$TESTSUITE_PARALLEL" = 1 ] && echo ", side by side")"
for k in $KERNELS; do
	boot "$k" "$k" "$prepared" on "$TESTSUITE_TIMEOUT" run &
	pids[$k]=$!
	if [ "$TESTSUITE_PARALLEL" = 0 ]; then
		watch_guests "$k"
		qrc[$k]=0
		wait "${pids[$k]}" || qrc[$k]=$?
	fi
done
# shellcheck disable=SC2086
[ "$TESTSUITE_PARALLEL" = 0 ] || watch_guests $KERNELS
failed=
runs=()
for k in $KERNELS; do
	rc=0
	if [ -n "${qrc[$k]:-}" ]; then
		rc=${qrc[$k]}
	else
		wait "${pids[$k]}" || rc=$?
	fi
	if ! collect "$k" || [ "$(cat "$OUT/$k/out/status")" != "done" ]; then
		guest_errors "$k"
		warn "$k guest: no complete results (qemu exit $rc$([ "$rc" -eq 124 ] && echo ", timeout after ${TESTSUITE_TIMEOUT}s")); console: ${OUT#"$TOP"/}/$k/console.log"
		failed="$failed $k"
	fi
	runs+=("$k=$OUT/$k/out")
done
phase_s[tests]=$((SECONDS - t0))
rm -f "$OUT"/job-*.img

# 6. The lists and their comparison.
t0=$SECONDS
times="rootfs ${phase_s[rootfs]}s, prepare ${phase_s[prepare]}s, tests ${phase_s[tests]}s"
rc=0
python3 "$TS/report.py" --results "$RESULTS" --expected "$TS/expected-failures" \
	--suite "$TESTSUITE ($suite_rev)" --selection "$TESTSUITE_TESTS" --flavor "$flavor" \
	--times "$times" --failed "${failed# }" "${runs[@]}" || rc=1
echo "testsuite: total time $((SECONDS - t_all))s ($times)"
exit $rc
