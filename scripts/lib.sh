# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the scripts in this directory. Source it, don't run it.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
KSRC=${KSRC:-}
JOBS=${JOBS:-$(nproc)}

msg()  { printf '>>> %s\n' "$*" >&2; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die()  { printf 'error: %s\n' "$*" >&2; exit 1; }

# kernel_version DIR: print VERSION.PATCHLEVEL.SUBLEVEL of a kernel tree
kernel_version() {
	local mk=$1/Makefile v p s
	[ -f "$mk" ] || return 1
	v=$(sed -n 's/^VERSION = *//p' "$mk" | head -1)
	p=$(sed -n 's/^PATCHLEVEL = *//p' "$mk" | head -1)
	s=$(sed -n 's/^SUBLEVEL = *//p' "$mk" | head -1)
	[ -n "$v" ] && [ -n "$p" ] || return 1
	echo "$v.$p.${s:-0}"
}

# Bases: one file per kernel base in configs/base/ (the BASE_* variables:
# the Debian source package and where it comes from, the kernel versions
# it covers, the series for it), shell assignments only.  BASE picks one
# (default 6.12); with KSRC and no BASE, the base whose versions match
# the user's tree.
bases() {
	(cd "$TOP/configs/base" && ls -- *.conf | sed 's/\.conf$//')
}
if [ -z "${BASE:-}" ] && [ -n "$KSRC" ] && v=$(kernel_version "$KSRC" 2>/dev/null); then
	for b in $(bases); do
		# shellcheck disable=SC2254 # BASE_VERSIONS is a pattern
		case $v in $(. "$TOP/configs/base/$b.conf"; echo "$BASE_VERSIONS")) BASE=$b ;; esac
	done
fi
DEFAULT_BASE=6.12
BASE=${BASE:-$DEFAULT_BASE}
if [ ! -f "$TOP/configs/base/$BASE.conf" ] || [ -n "${BASE//[0-9a-z._-]/}" ]; then
	echo "error: BASE=$BASE: no configs/base/$BASE.conf (known: $(bases | tr '\n' ' '))" >&2
	exit 2
fi
# shellcheck source=../configs/base/6.12.conf
. "$TOP/configs/base/$BASE.conf"
export BASE
PATCHDIR=${PATCHDIR:-$TOP/$BASE_PATCHES}

# One directory per kernel source: the Debian tarball of the base or the
# user's tree.
if [ -n "$KSRC" ]; then
	KSRC=$(cd "$KSRC" 2>/dev/null && pwd) ||
		{ echo "error: KSRC=${KSRC}: no such directory" >&2; exit 2; }
	SRCID=ksrc-$(printf '%s' "$KSRC" | md5sum | cut -c1-8)
else
	SRCID=debian-$BASE
fi
SRCDIR=$BUILD/src/$SRCID
PRISTINE=$SRCDIR/pristine
PATCHED=$SRCDIR/patched
# Stock plus the series' first patch only, the standalone fix for stock
# SELinux (make window): a detached worktree made by need_stockfix.
STOCKFIX=$SRCDIR/stockfix
OUTDIR=$BUILD/out/$SRCID
# Results: results/ for the default base, results/<base>/ for another.
if [ "$BASE" = "$DEFAULT_BASE" ]; then
	RESULTS_TOP=$TOP/results
else
	RESULTS_TOP=$TOP/results/$BASE
fi
BASE_TAG=avc-base
BRANCH=avc-pcpu

# Architectures: one file of settings per architecture in configs/arch/
# (the BA_* variables: toolchain, image, qemu, console, KUnit), shell
# assignments only.  A file with a BA_FRAGMENT (a config fragment of its
# guest) is a benchmark architecture; one without (i386, um) only runs
# the KUnit suites (scripts/kunit.sh).
#
# An architecture whose toolchain needs more than its settings names a
# file of shell functions in BA_HOOKS (a path under the top directory:
# sh4's is scripts/arch/sh4.sh), which may define these hooks; for every
# other architecture they do nothing.
#   arch_cc_setup: set ARCH_CFLAGS to the flags ${BA_CROSS}gcc needs to
#     compile correctly (the kernel's KCFLAGS, and the guest programs')
#   arch_libc_setup: after arch_cc_setup, set ARCH_LIBC_FLAGS to the gcc
#     flags that link the static guest programs against a C library that
#     works, and ARCH_LIBC_DIR to that library's prefix (its headers);
#     both empty: the toolchain's own
# load_arch NAME: the BA_* variables and hooks of configs/arch/NAME.conf,
# and none left from another architecture's.
load_arch() {
	# shellcheck disable=SC2046 # the names of the BA_* variables set
	unset $(compgen -v BA_)
	# Defaults of the optional settings: the guest's memory in MiB (a
	# board may fix it: sh4's r2d has 64 MiB) and its /init (busybox:
	# the shell scripts of guest/; c: sinit.c, for an architecture
	# without busybox).
	BA_MEM=512
	BA_INIT=busybox
	BA_HOOKS=
	arch_cc_setup() { ARCH_CFLAGS=; }
	arch_libc_setup() { ARCH_LIBC_FLAGS= ARCH_LIBC_DIR=; }
	# shellcheck source=../configs/arch/x86_64.conf
	. "$TOP/configs/arch/$1.conf"
	if [ -n "$BA_HOOKS" ]; then
		# shellcheck source=arch/sh4.sh
		. "$TOP/$BA_HOOKS"
	fi
	ARCH_CFLAGS=
	ARCH_LIBC_FLAGS=
	ARCH_LIBC_DIR=
}

# bench_arches: the benchmark architectures, one a line.
bench_arches() {
	(cd "$TOP/configs/arch" && grep -l '^BA_FRAGMENT=.' -- *.conf | sed 's/\.conf$//')
}

# The benchmark's architecture (BENCH_ARCH, default x86_64; not ARCH, which
# kbuild owns).
BENCH_ARCH=${BENCH_ARCH:-x86_64}
if [ ! -f "$TOP/configs/arch/$BENCH_ARCH.conf" ] || [ -n "${BENCH_ARCH//[a-z0-9_]/}" ]; then
	echo "error: BENCH_ARCH=$BENCH_ARCH: no configs/arch/$BENCH_ARCH.conf (known: $(bench_arches | tr '\n' ' '))" >&2
	exit 2
fi
load_arch "$BENCH_ARCH"
if [ -z "${BA_FRAGMENT:-}" ]; then
	echo "error: BENCH_ARCH=$BENCH_ARCH: configs/arch/$BENCH_ARCH.conf has no guest (no BA_FRAGMENT), only KUnit: scripts/kunit.sh $BENCH_ARCH (benchmark architectures: $(bench_arches | tr '\n' ' '))" >&2
	exit 2
fi
# The decision matrix's guest kernels (make matrix, make check): the
# benchmark guest plus configs/matrix.config (SysV IPC, POSIX message
# queues, keys), so that the benchmark guest stays as it is.  make check
# builds and uses only this flavor; make check-cross its arm64 twin.
MATRIX_FLAVOR=$BA_FRAGMENT+matrix
# The guest policies, built from the base's own class declarations (its
# mdp), shared by the architectures: build/guest, build/guest-<base> for
# a base other than the default.  The benchmark guest's programs and
# initramfs: there for x86_64, in GUEST_POLICY_DIR-<arch> for another.
if [ "$BASE" = "$DEFAULT_BASE" ]; then
	GUEST_POLICY_DIR=$BUILD/guest
else
	GUEST_POLICY_DIR=$BUILD/guest-$BASE
fi
if [ "$BENCH_ARCH" = x86_64 ]; then
	GUEST_DIR=$GUEST_POLICY_DIR
else
	GUEST_DIR=$GUEST_POLICY_DIR-$BENCH_ARCH
fi
# The decision matrix's guest, policy and logs: build/matrix for the
# default base on x86_64, with -<base> and -<arch> for the others.
MATRIX_DIR=$BUILD/matrix
[ "$BASE" = "$DEFAULT_BASE" ] || MATRIX_DIR=$MATRIX_DIR-$BASE
[ "$BENCH_ARCH" = x86_64 ] || MATRIX_DIR=$MATRIX_DIR-$BENCH_ARCH

# ccache: hash paths under build/ relative to the build directory, so that
# another clone of this repo (CI) reuses the objects this one compiled.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$BUILD}

# lock_build: serialize the runs that write under build/.  Takes an flock
# on build/.lock for the rest of the run; a second run in the same
# checkout waits, naming the run that holds it.  A script started by a
# locked run inherits the locked descriptor (BUILD_LOCK_FD) and does not
# lock again, so nested scripts cannot deadlock, and the lock is held as
# long as any process of the run is alive.  The kernel drops an flock
# when the last process holding it exits, so a killed run leaves no stale
# lock behind.  A waiting run says so again every LOCK_POLL seconds (60).
lock_build() {
	local lock=$BUILD/.lock holder pids cmd parent t0=$SECONDS
	if [ -n "${BUILD_LOCK_FD:-}" ] &&
	   [ "$(readlink "/proc/$$/fd/$BUILD_LOCK_FD" 2>/dev/null)" = "$(readlink -f "$lock")" ]; then
		return 0
	fi
	mkdir -p "$BUILD" 2>/dev/null && [ -w "$BUILD" ] ||
		die "cannot write to $BUILD (owned by $(stat -c %U "$BUILD" 2>/dev/null || echo another user); left by a run as root? fix with: sudo chown -R $(id -un): $BUILD)"
	command -v flock >/dev/null || die "flock not found: apt-get install util-linux"
	exec {BUILD_LOCK_FD}<>"$lock" || die "cannot open $lock"
	if ! flock -n "$BUILD_LOCK_FD"; then
		holder=$(head -1 "$lock" 2>/dev/null)
		msg "waiting for ${lock#"$TOP"/}: another run in this checkout holds it (${holder:-pid unknown})"
		until flock -w "${LOCK_POLL:-60}" "$BUILD_LOCK_FD"; do
			holder=$(head -1 "$lock" 2>/dev/null)
			# find fails on processes that exit while it looks, and
			# grep when no other process is left: neither is an error.
			pids=$(find /proc/[0-9]*/fd -lname "$(readlink -f "$lock")" 2>/dev/null |
				cut -d/ -f3 | grep -vx "$$" | sort -un | tr '\n' ' ') || true
			msg "still waiting after $((SECONDS - t0))s for ${holder:-the run holding the lock}${pids:+; processes with the lock open: $pids}"
		done
		msg "got ${lock#"$TOP"/} after $((SECONDS - t0))s"
	fi
	# Who holds it, for the message of a run that waits: this script and,
	# when make started it, the make command.
	cmd=$(tr '\0' ' ' < "/proc/$$/cmdline" | sed "s|$TOP/||g; s/ *$//; s|^[^ ]*/bash ||")
	parent=$(tr '\0' ' ' < "/proc/$PPID/cmdline" 2>/dev/null | sed 's/ *$//')
	case $parent in make*|*/make*) cmd="$cmd, from '$parent'" ;; esac
	printf 'pid %s: %s, since %s\n' "$$" "$cmd" "$(date '+%F %T')" > "$lock"
	export BUILD_LOCK_FD
}

# Print "elapsed" every few seconds while a long command runs.
progress() {
	local what=$1; shift
	local start=$SECONDS n=0
	"$@" &
	local pid=$!
	# Look every second (short commands end at once), print every fifth.
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		n=$((n + 1))
		[ $((n % 5)) -eq 0 ] && kill -0 "$pid" 2>/dev/null &&
			printf '    ... %s: %ds\n' "$what" $((SECONDS - start)) >&2
	done
	wait "$pid"
}

# check_version DIR: print the kernel version of DIR if the base covers it
check_version() {
	local ver
	ver=$(kernel_version "$1") ||
		die "$1 is not a kernel tree (no VERSION/PATCHLEVEL in its Makefile)"
	# shellcheck disable=SC2254 # BASE_VERSIONS is a pattern
	case $ver in
	$BASE_VERSIONS) echo "$ver" ;;
	*) die "$1 is Linux $ver; the series of BASE=$BASE is for $BASE_VERSIONS (bases: $(bases | tr '\n' ' '))" ;;
	esac
}

# git in a tree, quiet and with a fixed identity fallback for fresh machines
kgit() {
	local dir=$1; shift
	git -C "$dir" -c gc.auto=0 -c user.name="${GIT_AUTHOR_NAME:-$(git config user.name || echo builder)}" \
		-c user.email="${GIT_AUTHOR_EMAIL:-$(git config user.email || echo builder@localhost)}" \
		-c advice.detachedHead=false -c core.autocrlf=false "$@"
}

# worktree_ok DIR: DIR is a git work tree that git can use (not one whose
# creation was interrupted, nor one whose repository was made again).
worktree_ok() {
	[ -e "$1/.git" ] &&
	[ "$(git -C "$1" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$1" && pwd -P)" ]
}

# clear_index_lock DIR: remove the index.lock that a git command killed in
# the work tree DIR leaves behind.  Only for trees under build/ that no one
# but these scripts uses, with the build lock held: no git of ours runs there.
clear_index_lock() {
	local f
	f=$(git -C "$1" rev-parse --absolute-git-dir)/index.lock
	if [ -e "$f" ]; then
		warn "removing ${f#"$TOP"/}, left by an interrupted run"
		rm -f "$f"
	fi
}

# scratch_worktree DIR REV: DIR is a detached worktree of the pristine tree,
# clean at REV, whatever state an interrupted run left it in.
scratch_worktree() {
	local dir=$1 rev=$2
	if [ -e "$dir" ] && ! worktree_ok "$dir"; then
		warn "${dir#"$TOP"/} is not a usable git worktree (an interrupted run?): making it again"
		rm -rf "$dir"
	fi
	if [ ! -d "$dir" ]; then
		kgit "$PRISTINE" worktree prune
		kgit "$PRISTINE" worktree add -q --detach "$dir" "$rev"
	fi
	clear_index_lock "$dir"
	kgit "$dir" reset -q --hard "$rev"
	kgit "$dir" clean -q -fdx
}

need_tree() {
	[ -d "$PATCHED/.git" ] || [ -f "$PATCHED/.git" ] ||
		die "no patched tree in $PATCHED: run 'make tree' first"
}

# need_stockfix: make $STOCKFIX hold the base plus the first commit of the
# patched tree (the stock fix at the head of the series), and nothing else.
need_stockfix() {
	need_tree
	local first
	first=$(kgit "$PATCHED" rev-list --reverse "$BASE_TAG..HEAD")
	first=${first%%$'\n'*}
	[ -n "$first" ] || die "the patched tree has no commits above $BASE_TAG"
	if [ ! -e "$STOCKFIX/.git" ]; then
		kgit "$PRISTINE" worktree prune
		kgit "$PRISTINE" worktree add -q --detach "$STOCKFIX" "$first"
	fi
	# Already there: leave it alone (make window builds it with a change
	# applied, and restores it afterwards).
	[ "$(kgit "$STOCKFIX" rev-parse HEAD)" != "$first" ] || return 0
	[ -z "$(kgit "$STOCKFIX" status --porcelain --untracked-files=no)" ] ||
		die "$STOCKFIX has uncommitted changes"
	kgit "$STOCKFIX" checkout -q --detach "$first"
}

# guest_image KERNEL FLAVOR: the bzImage to boot for KERNEL (stock, patched,
# or any name given as KERNEL_<name>=path in the environment).
guest_image() {
	local var=KERNEL_$1
	if [ -n "${!var:-}" ]; then
		echo "${!var}"
	else
		echo "$OUTDIR/$1-$2/$BA_IMAGE"
	fi
}

# need_guest_images FLAVOR KERNEL...: every image exists, or name each
# one that does not and how to build it, and exit.
need_guest_images() {
	local flavor=$1 k img missing=
	shift
	for k in "$@"; do
		img=$(guest_image "$k" "$flavor")
		[ -f "$img" ] && continue
		printf 'error: no %s kernel: %s is missing; build it first: %sscripts/build.sh %s %s\n' \
			"$k" "${img#"$TOP"/}" "$([ "$BASE" = "$DEFAULT_BASE" ] || echo "BASE=$BASE ")" "$k" "$flavor" >&2
		missing=1
	done
	[ -z "$missing" ] || exit 1
}

# need_checkout VAR TARGET WHAT FILE...: VAR names the user's checkout
# (make TARGET VAR=DIR), WHAT says of what ("an lmbench checkout (...)"):
# it is set, a directory and has every FILE, or the run stops saying
# which is not so.  Sets VAR to the checkout's absolute path.
need_checkout() {
	local var=$1 target=$2 what=$3 dir f
	shift 3
	dir=${!var:-}
	[ -n "$dir" ] || die "$var is not set: make $target $var=DIR, DIR $what"
	[ -d "$dir" ] || die "$var=$dir: no such directory"
	dir=$(cd "$dir" && pwd)
	for f in "$@"; do
		[ -f "$dir/$f" ] || die "$var=$dir is not ${what%% (*}: it has no $f"
	done
	printf -v "$var" %s "$dir"
}

# guest_cc: set GUEST_CC to the command that compiles BENCH_ARCH's static
# guest programs: BA_CC with the flags of the architecture's hooks.
guest_cc() {
	command -v "$BA_CC" >/dev/null ||
		die "$BA_CC not found: apt-get install $BA_PACKAGES (or run scripts/deps.sh)"
	arch_cc_setup
	arch_libc_setup
	GUEST_CC="$BA_CC${ARCH_CFLAGS:+ $ARCH_CFLAGS}${ARCH_LIBC_FLAGS:+ $ARCH_LIBC_FLAGS}"
}

# The benchmark's rows and guest benchmarks (the header of the file says
# what each line means).
BENCH_ROWS=$TOP/tools/testing/selinux-avc-bench/rows.conf

# bench_nresults [SCENARIO]: the RESULT lines a benchmark guest of
# BENCH_ARCH prints, one per row of BENCH_ROWS (with a SCENARIO, churn or
# neveraudit: per row of its benchmarks); a guest without busybox
# (BA_INIT=c) has no shell for the benchmarks that need one.
bench_nresults() {
	awk -v scen="${1:-}" -v noshell="$([ "$BA_INIT" = c ] && echo 1)" '
		$1 == "op" { needs[$2] = $4 }
		scen != "" && $1 == scen { for (i = 2; i <= NF; i++) inscen[$i] = 1 }
		$1 == "row" && (scen == "" || inscen[$3]) && !(noshell && needs[$3] != "-") { n++ }
		END { print n + 0 }' "$BENCH_ROWS"
}

# bench_row OP TARGET FLAVOR: the row OP of make bench (BENCH_ROWS' row
# lines) for a per-row tool (make profile, make cache): sets guest_op (the
# guest's benchmark), mask (its windows: lat_fs times a warm-up create and
# unlink, then the measured create, window 3, and unlink, window 4) and
# unit (run for the macro row, a whole workload; operation otherwise), or
# dies with "usage: make TARGET OP=<row>" and the rows.  Then checks what
# the guests need: qemu, gcc, nm, python3 and each of KERNELS' FLAVOR
# kernels.
bench_row() {
	local op=$1 target=$2 flavor=$3 kind key gop windows u t k
	local -A rows=()
	while read -r kind key gop windows u _; do
		if [ "$kind" = row ]; then
			rows[$key]=$gop:$windows:$u
		fi
	done < "$BENCH_ROWS"
	[ -n "$op" ] && [ -n "${rows[$op]:-}" ] ||
		die "usage: make $target OP=<row>; rows: $(echo "${!rows[@]}" | tr ' ' '\n' | sort | tr '\n' ' ')"
	IFS=: read -r guest_op mask unit <<<"${rows[$op]}"
	[ "$unit" = run ] || unit=operation
	need_tools "$QEMU:$BA_PACKAGES" gcc:gcc nm:binutils python3:python3
	need_kernels "$flavor" vmlinux
}

# need_tools TOOL:PACKAGES...: die naming the apt-get line for the first
# TOOL that is not on PATH.
need_tools() {
	local t
	for t in "$@"; do
		command -v "${t%%:*}" >/dev/null ||
			die "${t%%:*} not found: apt-get install ${t#*:} (or run scripts/deps.sh)"
	done
}

# need_kernels FLAVOR FILE: each kernel of KERNELS (stock, patched) has FILE
# in its O= directory of FLAVOR.
need_kernels() {
	local k
	for k in $KERNELS; do
		case $k in stock|patched) ;; *) die "KERNELS: unknown kernel '$k'" ;; esac
		[ -f "$OUTDIR/$k-$1/$2" ] ||
			die "no $k kernel: ${OUTDIR#"$TOP"/}/$k-$1/$2 is missing; build it first (make kernel)"
	done
}

# qemu_plugin NAME: build/tools/NAME.so, the qemu plugin NAME.c of
# tools/testing/selinux-avc-profile, built with the host gcc when missing or
# older than a source there (its .c and the headers); prints its path.
qemu_plugin() {
	local name=$1 psrc=$TOP/tools/testing/selinux-avc-profile f new=
	local so=$BUILD/tools/$name.so
	[ -f "$so" ] || new=1
	for f in "$psrc/$name.c" "$psrc"/*.h; do
		if [ "$f" -nt "$so" ]; then
			new=1
		fi
	done
	if [ -n "$new" ]; then
		mkdir -p "$BUILD/tools"
		gcc -O2 -Wall -Wextra -Wno-unused-parameter -shared -fPIC \
			-fvisibility=hidden -o "$so.tmp" "$psrc/$name.c" >&2 ||
			die "cannot build the qemu plugin $name"
		mv "$so.tmp" "$so"
	fi
	echo "$so"
}

# guest_finished LOG: die unless the bench guest of LOG ran to its end
# without an error.
guest_finished() {
	grep -aq 'SELINUX-AVC-BENCH: END' "$1" || die "guest did not finish: $1"
	! grep -aq 'SELINUX-AVC-BENCH: ERROR' "$1" ||
		die "guest error: $(grep -a 'SELINUX-AVC-BENCH: ERROR' "$1" | head -1)"
}

# bench_guest TIMEOUT BZIMAGE INITRD APPEND LOG [QEMU-ARG...]: boot one
# benchmark guest under qemu TCG, console to LOG.  The virtual clock counts
# instructions and the RTC starts at a fixed date, so the guest sees the
# same time, and seeds its RNG the same way, on every run.
bench_guest() {
	local t=$1 img=$2 initrd=$3 append=$4 log=$5
	shift 5
	# shellcheck disable=SC2086 # BA_QEMU_ARGS: several arguments
	timeout --foreground -k 5 "$t" "${QEMU:-$BA_QEMU}" $BA_QEMU_ARGS -accel tcg \
		-icount shift=0,sleep=off -rtc base=2025-01-01T00:00:00,clock=vm \
		-smp 1 -m "$BA_MEM" -nographic -no-reboot \
		-kernel "$img" -initrd "$initrd" -append "$append" "$@" \
		</dev/null >"$log" 2>&1
}

# run_guests TAG DIR RUN...: boot the benchmark guests RUN (KERNEL:MODE),
# BENCH_JOBS at a time, each by the caller's function boot KERNEL MODE
# LOG, console to DIR/KERNEL-MODE.log.  Every ten seconds, print each
# running guest's time and its results so far: its log's
# "SELINUX-AVC-BENCH: TAG" lines, of the caller's nresults MODE.  Sets
# failed to the runs whose qemu failed (a timeout: BENCH_TIMEOUT).
run_guests() {
	local tag=$1 dir=$2 r rc n status start=$SECONDS next=0
	shift 2
	local -a runs=("$@")
	local -A pids=() started=()
	failed=
	while [ $next -lt ${#runs[@]} ] || [ ${#pids[@]} -gt 0 ]; do
		while [ $next -lt ${#runs[@]} ] && [ ${#pids[@]} -lt "$BENCH_JOBS" ]; do
			r=${runs[$next]}
			boot "${r%:*}" "${r#*:}" "$dir/${r/:/-}.log" &
			pids[$r]=$!
			started[$r]=$SECONDS
			next=$((next + 1))
		done
		sleep 2
		status=
		for r in "${!pids[@]}"; do
			if ! kill -0 "${pids[$r]}" 2>/dev/null; then
				rc=0
				wait "${pids[$r]}" || rc=$?
				if [ $rc -ne 0 ]; then
					warn "guest $r: qemu exit $rc$([ $rc -eq 124 ] && echo " (timeout after ${BENCH_TIMEOUT}s)")"
					failed="$failed $r"
				fi
				msg "guest $r done in $((SECONDS - ${started[$r]}))s"
				unset "pids[$r]"
				continue
			fi
			n=$(grep -ac "SELINUX-AVC-BENCH: $tag " "$dir/${r/:/-}.log" || true)
			status="$status $r:$((SECONDS - ${started[$r]}))s,$n/$(nresults "${r#*:}")"
		done
		if [ -n "$status" ] && [ $(((SECONDS - start) % 10)) -lt 2 ]; then
			printf '    ... %ds:%s\n' $((SECONDS - start)) "$status" >&2
		fi
	done
	msg "guests finished in $((SECONDS - start))s"
}

# private_apt DIR LINE [DEB-ARCH]: set PAPT to an apt-get command whose
# state, cache and sources (the one sources.list line LINE) are under DIR,
# and fetch its package lists (log: DIR/apt.log).  It reads the host's
# trusted keys and nothing else of its apt configuration, writes nothing
# outside DIR, and is for download and source only: nothing is installed.
private_apt() {
	local d=$1 line=$2 arch=${3:-}
	command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
		die "apt-get and dpkg-deb are needed to download Debian packages into ${d#"$TOP"/}"
	mkdir -p "$d/state/lists/partial" "$d/cache/archives/partial"
	echo "$line" > "$d/sources.list"
	PAPT=(apt-get -q -o "Dir::State=$d/state" -o "Dir::Cache=$d/cache"
		-o "Dir::State::status=/dev/null" -o "Dir::Etc::SourceList=$d/sources.list"
		-o "Dir::Etc::SourceParts=/dev/null" -o APT::Sandbox::User=root)
	[ -z "$arch" ] || PAPT+=(-o "APT::Architecture=$arch" -o "APT::Architectures::=$arch")
	"${PAPT[@]}" update > "$d/apt.log" 2>&1
}

# debian_suite: the host's Debian codename (bookworm on Debian 12).
debian_suite() {
	local c
	c=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	echo "${c:-bookworm}"
}

# guest_busybox: print the path of a static busybox for BENCH_ARCH's
# guest: the host's for x86_64; for another architecture Debian's
# busybox-static of that architecture, downloaded once (not installed:
# private_apt under build/deps/) and unpacked.
guest_busybox() {
	local d=$BUILD/deps/$BA_DEB_ARCH deb
	if [ -n "${BUSYBOX:-}" ] || [ "$BA_DEB_ARCH" = amd64 ]; then
		echo "${BUSYBOX:-/bin/busybox}"
		return
	fi
	if [ ! -x "$d/root/bin/busybox" ]; then
		msg "fetching Debian's busybox-static for $BA_DEB_ARCH (once, into ${d#"$TOP"/})"
		mkdir -p "$d/deb"
		private_apt "$d" "deb ${DEBIAN_MIRROR:-http://deb.debian.org/debian} $(debian_suite) main" "$BA_DEB_ARCH" &&
			(cd "$d/deb" && "${PAPT[@]}" download "busybox-static:$BA_DEB_ARCH") >>"$d/apt.log" 2>&1 ||
			die "cannot download busybox-static:$BA_DEB_ARCH from the Debian archive (log: ${d#"$TOP"/}/apt.log); or set BUSYBOX to a static busybox for $BA_DEB_ARCH"
		deb=$(ls "$d"/deb/busybox-static_*_"$BA_DEB_ARCH".deb | tail -1)
		rm -rf "$d/root"
		dpkg-deb -x "$deb" "$d/root" || die "cannot unpack $deb"
		[ -x "$d/root/bin/busybox" ] || die "$deb has no bin/busybox"
	fi
	echo "$d/root/bin/busybox"
}

# base_tarball: print the path of the base's source tarball.  A base from
# the host's apt sources (BASE_SUITE empty) has it where its package
# installs it (scripts/deps.sh); one from another suite is downloaded once
# (BASE_PACKAGE at BASE_DEB_VERSION, private_apt under build/deps/, checked
# by apt) and the tarball taken out of the package.  TARBALL=FILE: that file.
base_tarball() {
	local d=$BUILD/deps/$BASE_PACKAGE want deb
	if [ -n "${TARBALL:-}" ]; then
		[ -f "$TARBALL" ] ||
			die "kernel source TARBALL=$TARBALL not found; unset TARBALL to use $BASE_PACKAGE, or pass KSRC=/path/to/linux-${BASE_VERSIONS%.\*}"
		echo "$TARBALL"
		return
	fi
	if [ -z "$BASE_SUITE" ]; then
		[ -f "$BASE_TARBALL" ] ||
			die "kernel source $BASE_TARBALL not found; install it (apt-get install -y $BASE_PACKAGE) or pass KSRC=/path/to/linux-${BASE_VERSIONS%.\*}"
		echo "$BASE_TARBALL"
		return
	fi
	want=$BASE_PACKAGE${BASE_DEB_VERSION:+=$BASE_DEB_VERSION}
	if [ ! -f "$d/root$BASE_TARBALL" ] || [ "$(cat "$d/version" 2>/dev/null)" != "$want" ]; then
		msg "downloading $want from Debian $BASE_SUITE (once, into ${d#"$TOP"/}; not installed)"
		rm -rf "$d/deb" "$d/root" "$d/version"
		mkdir -p "$d/deb"
		private_apt "$d" "deb ${DEBIAN_MIRROR:-http://deb.debian.org/debian} $BASE_SUITE main" ||
			die "cannot read the package lists of Debian $BASE_SUITE (log: ${d#"$TOP"/}/apt.log); or pass TARBALL=linux-source.tar.xz or KSRC=/path/to/linux-${BASE_VERSIONS%.\*}"
		(cd "$d/deb" && "${PAPT[@]}" download "$want") >>"$d/apt.log" 2>&1 ||
			die "cannot download $want from Debian $BASE_SUITE: $(grep -E '^E:' "$d/apt.log" | tail -1) (log: ${d#"$TOP"/}/apt.log); BASE_DEB_VERSION in configs/base/$BASE.conf names the version, or pass TARBALL=linux-source.tar.xz or KSRC=/path/to/linux-${BASE_VERSIONS%.\*}"
		deb=$(ls "$d"/deb/"${BASE_PACKAGE}"_*.deb | tail -1)
		progress "unpack $(basename "$deb")" dpkg-deb -x "$deb" "$d/root" || die "cannot unpack $deb"
		[ -f "$d/root$BASE_TARBALL" ] || die "$deb has no $BASE_TARBALL"
		echo "$want" > "$d/version"
	fi
	echo "$d/root$BASE_TARBALL"
}

# newer_tool DIR PKG BIN SUITE: print the command that runs BIN (a path in
# Debian's package PKG) from Debian SUITE with that suite's C library:
# both downloaded once into DIR (private_apt under build/deps/, nothing
# installed) and run by that library's own loader.  For a tool that Debian
# 12's is too old for; amd64 hosts only.  Returns 1, saying why, when they
# cannot be had.
newer_tool() {
	local d=$1 pkg=$2 bin=$3 suite=$4 lib deb
	lib=$d/root/usr/lib/x86_64-linux-gnu
	if [ ! -x "$d/root$bin" ] || [ ! -x "$lib/ld-linux-x86-64.so.2" ]; then
		[ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ] || {
			warn "a newer $pkg is fetched for amd64 hosts only"
			return 1
		}
		msg "fetching Debian's $pkg and its C library from $suite (once, into ${d#"$TOP"/}; not installed)"
		rm -rf "$d/deb" "$d/root"
		mkdir -p "$d/deb"
		if ! private_apt "$d" "deb ${DEBIAN_MIRROR:-http://deb.debian.org/debian} $suite main" ||
		   ! (cd "$d/deb" && "${PAPT[@]}" download "$pkg" libc6) >>"$d/apt.log" 2>&1; then
			warn "cannot download $pkg and libc6 from Debian $suite (log: ${d#"$TOP"/}/apt.log)"
			return 1
		fi
		for deb in "$d"/deb/*.deb; do
			dpkg-deb -x "$deb" "$d/root" || { warn "cannot unpack $deb"; return 1; }
		done
		[ -x "$d/root$bin" ] || { warn "Debian $suite's $pkg has no $bin"; return 1; }
	fi
	echo "$lib/ld-linux-x86-64.so.2 --library-path $lib $d/root$bin"
}

# checkpolicy_na: print the command of a checkpolicy that writes policy
# version 35 (neveraudit types), for the neveraudit scenario of a base that
# has them: CHECKPOLICY_NA if set, else the host's checkpolicy if it is
# new enough (Debian 12's 3.4 writes 33), else Debian's checkpolicy from
# CHECKPOLICY_NA_SUITE (default sid), by newer_tool.  Fails, saying why,
# when none can be had.
checkpolicy_na() {
	local d=$BUILD/deps/checkpolicy-na cmd v
	if [ -n "${CHECKPOLICY_NA:-}" ]; then
		echo "$CHECKPOLICY_NA"
		return
	fi
	v=$(checkpolicy -V 2>/dev/null | cut -d' ' -f1)
	if [ "${v:-0}" -ge 35 ] 2>/dev/null; then
		echo checkpolicy
		return
	fi
	cmd=$(newer_tool "$d" checkpolicy /usr/bin/checkpolicy "${CHECKPOLICY_NA_SUITE:-sid}") ||
		{ warn "set CHECKPOLICY_NA to a checkpolicy that writes policy version 35"; return 1; }
	v=$($cmd -V 2>/dev/null | cut -d' ' -f1)
	if ! [ "${v:-0}" -ge 35 ] 2>/dev/null; then
		warn "the checkpolicy in ${d#"$TOP"/} writes policy version ${v:-unknown}, not 35"
		return 1
	fi
	echo "$cmd"
}

# sparse_check SRC: print the CHECK command that runs sparse on the kernel
# tree SRC: SPARSE if set, else the host's sparse if the tree accepts it
# (a tree with scripts/checker-valid.sh asks for features Debian 12's
# sparse 0.6.4 lacks: 7.3 does), else Debian's sparse from SPARSE_SUITE
# (default sid), by newer_tool.  Dies, saying why, when the tree accepts
# none.
sparse_check() {
	local src=$1 cmd
	sparse_ok() {
		[ ! -x "$src/scripts/checker-valid.sh" ] ||
			[ "$("$src/scripts/checker-valid.sh" "$@" 2>/dev/null)" = 1 ]
	}
	if [ -n "${SPARSE:-}" ]; then
		# shellcheck disable=SC2086
		sparse_ok $SPARSE || die "SPARSE=$SPARSE: ${src#"$TOP"/}/scripts/checker-valid.sh refuses it"
		echo "$SPARSE"
		return
	fi
	command -v sparse >/dev/null || die "sparse is missing: apt-get install -y sparse"
	if sparse_ok sparse; then
		echo sparse
		return
	fi
	msg "the host's sparse is too old for ${src#"$TOP"/}"
	cmd=$(newer_tool "$BUILD/deps/sparse" sparse /usr/bin/sparse "${SPARSE_SUITE:-sid}") ||
		die "no sparse that ${src#"$TOP"/} accepts; set SPARSE"
	# shellcheck disable=SC2086
	sparse_ok $cmd || die "Debian ${SPARSE_SUITE:-sid}'s sparse is too old for ${src#"$TOP"/} too; set SPARSE"
	echo "$cmd"
}

# install_busybox BUSYBOX ROOT: BUSYBOX as ROOT/bin/busybox, with a link
# for each applet.  The applet list comes from the guest's busybox where
# the host can run it, else from the host's (the same Debian package,
# built the same way).
install_busybox() {
	local bb=$1 root=$2 applets a
	cp "$bb" "$root/bin/busybox"
	applets=$("$bb" --list 2>/dev/null) || applets=$(/bin/busybox --list) ||
		die "cannot list busybox's applets: apt-get install busybox-static"
	for a in $applets; do
		[ "$a" = busybox ] || ln -s busybox "$root/bin/$a"
	done
}

# need_initramfs_tools: what building a guest initramfs takes.
need_initramfs_tools() {
	local t
	for t in gcc gzip checkpolicy; do
		command -v $t >/dev/null || die "$t not found: run scripts/deps.sh"
	done
	# A guest without busybox (BA_INIT=c) leaves BUSYBOX empty.
	[ -z "${BUSYBOX:-}" ] && [ "$BA_INIT" = c ] && return 0
	[ -x "$BUSYBOX" ] || die "no $BUSYBOX: apt-get install busybox-static"
	if file -L "$BUSYBOX" 2>/dev/null | grep -q 'dynamically linked'; then
		die "$BUSYBOX is dynamically linked: install busybox-static"
	fi
}

# gen_init_cpio: print the path of the kernel's usr/gen_init_cpio, built
# with the host gcc from the pristine tree into build/tools/ when missing
# or older than its source.
gen_init_cpio() {
	local src=$PRISTINE/usr/gen_init_cpio.c bin=$BUILD/tools/gen_init_cpio
	[ -f "$src" ] || die "no $src: run 'make source' first"
	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
		mkdir -p "$BUILD/tools"
		gcc -O2 -o "$bin.tmp" "$src" || die "building gen_init_cpio from $src failed"
		mv "$bin.tmp" "$bin"
	fi
	echo "$bin"
}

# make_initramfs ROOT OUT: pack the staged tree ROOT, plus the console node
# /dev/console (c 5 1, 0600), into the gzip'd newc archive OUT, without
# privileges: gen_init_cpio writes owners and device nodes from a text
# list.  Every entry is owned by 0:0 with mtime 0; directories are 0755,
# files 0755 if their owner may execute them and 0644 otherwise, symlinks
# 0777.  Entries are in byte order of their paths and inode numbers count
# up from a fixed start, so the same ROOT gives the same bytes.
make_initramfs() {
	local root=$1 out=$2 cpio list=$2.list
	cpio=$(gen_init_cpio)
	[ -d "$root/dev" ] || die "make_initramfs: $root has no dev/ for the console"
	[ ! -e "$root/dev/console" ] || die "make_initramfs: $root/dev/console exists; the console node is added here"
	# The list is split at white space.
	case $root in *[[:space:]]*) die "make_initramfs: white space in the path $root" ;; esac
	! (cd "$root" && find . -name '*[[:space:]]*' | grep -q .) ||
		die "make_initramfs: a path under $root contains white space"
	{
		echo "dir . 0755 0 0"
		{
			echo "dev/console	nod /dev/console 0600 0 0 c 5 1"
			(cd "$root" && find . -mindepth 1 -printf '%P %y %m %l\n') |
				while read -r p type perm target; do
					case $type in
					d) echo "$p	dir /$p 0755 0 0" ;;
					f) mode=0644
					   [ $((8#$perm & 8#100)) -eq 0 ] || mode=0755
					   echo "$p	file /$p $root/$p $mode 0 0" ;;
					l) echo "$p	slink /$p $target 0777 0 0" ;;
					*) echo "error: make_initramfs: $root/$p is not a file, directory or symlink" >&2
					   exit 1 ;;
					esac
				done
		} | LC_ALL=C sort -t '	' -k1,1 | cut -f2-
	} > "$list" || die "make_initramfs: listing $root failed"
	"$cpio" -t 0 "$list" | gzip -9 -n > "$out.tmp" || die "gen_init_cpio failed on $list"
	mv "$out.tmp" "$out"
}

# mutant_table SPEC: "name tool..." for every catch line of SPEC
# (scripts/mutants.txt) whose mutant BASE's series has: a catch line's
# optional fourth field lists the only bases it applies to.
mutant_table() {
	awk -F' @@ ' -v base="$BASE" '!/^#/ && $2 == "catch" {
		if (NF >= 4 && (" " $4 " ") !~ (" " base " "))
			next
		print $1, $3
	}' "$1"
}

# mutant_image VARIANT SPEC NAME IMG [FLAVOR]: build the x86_64 guest
# kernel of VARIANT (stock or patched; FLAVOR, default x86_64-guest) with
# change NAME of SPEC applied by scripts/mutate.py, copy its bzImage to
# IMG, then put the tree back and rebuild it, so the tree and its build
# directory end as they were.
mutant_image() {
	local variant=$1 spec=$2 name=$3 img=$4 flavor=${5:-x86_64-guest} tree=$PRISTINE rc=0
	[ "$variant" = patched ] && tree=$PATCHED
	[ "$variant" = stockfix ] && tree=$STOCKFIX
	[ -f "$OUTDIR/$variant-$flavor/arch/x86/boot/bzImage" ] ||
		die "build the $variant kernel first (scripts/build.sh $variant $flavor)"
	[ -z "$(kgit "$tree" status --porcelain --untracked-files=no)" ] ||
		die "$tree has uncommitted changes"
	# shellcheck disable=SC2064
	trap "kgit '$tree' checkout -q -- security" EXIT
	python3 "$TOP/scripts/mutate.py" "$spec" "$tree" "$name" || rc=1
	[ $rc -ne 0 ] || { "$TOP/scripts/build.sh" "$variant" "$flavor" &&
		cp "$OUTDIR/$variant-$flavor/arch/x86/boot/bzImage" "$img"; } || rc=2
	kgit "$tree" checkout -q -- security
	trap - EXIT
	"$TOP/scripts/build.sh" "$variant" "$flavor" >/dev/null 2>&1 || warn "rebuild of the $variant kernel failed"
	[ $rc -ne 1 ] || die "$name does not apply to the $variant tree; update ${spec#"$TOP"/}"
	[ $rc -eq 0 ] || die "the $variant kernel with $name did not build"
}

# kunit_tcg_path QEMU: the PATH for kunit.py runs.  kunit.py starts qemu
# with "-accel kvm -accel hvf -accel tcg" (7.3's does); a /dev/kvm that
# opens but cannot run the guest (a nested hypervisor for guests of its
# own) then hangs the boot.  Every guest here runs under TCG: a QEMU
# (e.g. qemu-system-x86_64) written to $BUILD/kunit-qemu and put first in
# PATH drops kunit.py's -accel options and asks for TCG.  Without QEMU
# (UML), PATH as it is.
kunit_tcg_path() {
	local qemu=$1 qreal qdir
	if [ -z "$qemu" ]; then
		echo "$PATH"
		return
	fi
	qreal=$(command -v "$qemu") || die "$qemu missing: run 'make deps'"
	qdir=$BUILD/kunit-qemu
	# Called in \$(...), where set -e does not hold: each step is checked.
	mkdir -p "$qdir" || die "cannot make $qdir"
	cat > "$qdir/$qemu.tmp" <<QEMU || die "cannot write $qdir/$qemu.tmp"
#!/bin/bash
# Written by scripts/lib.sh (kunit_tcg_path): $qemu under TCG only.
a=()
while [ \$# -gt 0 ]; do
	if [ "\$1" = -accel ] && [ \$# -gt 1 ]; then shift 2; continue; fi
	a+=("\$1"); shift
done
exec "$qreal" -accel tcg "\${a[@]}"
QEMU
	chmod +x "$qdir/$qemu.tmp" && mv "$qdir/$qemu.tmp" "$qdir/$qemu" ||
		die "cannot install $qdir/$qemu"
	echo "$qdir:$PATH"
}
