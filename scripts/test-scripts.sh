#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tests of the tooling itself: every bad input gets a clear error and
# nothing is changed.  Runs in a scratch directory; prints TAP-like lines
# and "N passed, N failed".
. "$(dirname "$0")/lib.sh"

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 failn=0 n=0
ok()   { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); failn=$((failn + 1)); echo "not ok $n - $1"; sed 's/^/    # /' "$T/out" 2>/dev/null | head -20; }
# expect_fail NAME REGEX CMD...: CMD must fail and say REGEX
expect_fail() {
	local name=$1 re=$2; shift 2
	if "$@" >"$T/out" 2>&1; then fail "$name (succeeded)"; return; fi
	if grep -qE "$re" "$T/out"; then ok "$name"; else fail "$name (message)"; fi
}

# A minimal fake kernel tree: just a versioned Makefile and a file.
fake_tree() {
	local dir=$1 ver=$2
	mkdir -p "$dir/security"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\nEXTRAVERSION =\n' \
		${ver//./ } > "$dir/Makefile"
	echo "stock" > "$dir/security/file.c"
	git -C "$dir" init -q
	kgit "$dir" add -A -f
	kgit "$dir" commit -q -m base
}

# 1. missing kernel source
expect_fail "missing source tarball is reported" "not found.*linux-source-6.12" \
	env BUILD="$T/b1" TARBALL="$T/none.tar.xz" KSRC= "$TOP/scripts/source.sh"
[ ! -e "$T/b1/src/debian-6.12/pristine" ] && ok "missing source leaves no tree" || fail "missing source leaves no tree"

# 2. KSRC that does not exist
expect_fail "nonexistent KSRC is reported" "KSRC=.*no such directory" \
	env BUILD="$T/b2" KSRC="$T/nope" "$TOP/scripts/source.sh"

# 3. wrong version
fake_tree "$T/v61" 6.1.99
expect_fail "wrong version names the version" "Linux 6\.1\.99.*BASE=6\.12 is for 6\.12\.\*" \
	env BUILD="$T/b3" KSRC="$T/v61" "$TOP/scripts/source.sh"
expect_fail "make apply refuses a wrong version" "Linux 6\.1\.99" \
	env BUILD="$T/b3" KSRC="$T/v61" "$TOP/scripts/apply.sh"
[ -z "$(git -C "$T/v61" status --porcelain)" ] && ok "wrong-version tree untouched" || fail "wrong-version tree untouched"

# 3b. bases: an unknown BASE names the known ones; a user's tree picks the
#     base its version belongs to, and BASE= given names the one to check.
expect_fail "an unknown BASE lists the bases" "BASE=9\.9: no configs/base/9\.9\.conf \(known: 6\.12 7\.3" \
	env BUILD="$T/b3" BASE=9.9 "$TOP/scripts/source.sh"
fake_tree "$T/v73" 7.3.9
if env BUILD="$T/b3b" KSRC="$T/v73" BASE= "$TOP/scripts/source.sh" >"$T/out" 2>&1 &&
   grep -q 'Linux 7\.3\.9' "$T/out" &&
   [ "$(cat "$T"/b3b/src/ksrc-*/pristine/.git/avc-base-version)" = 7.3.9 ]; then
	ok "a 7.3 tree as KSRC is taken as BASE=7.3"
else
	fail "a 7.3 tree as KSRC is taken as BASE=7.3"
fi
expect_fail "BASE=6.12 refuses a 7.3 tree" "Linux 7\.3\.9.*BASE=6\.12 is for 6\.12\.\*" \
	env BUILD="$T/b3c" KSRC="$T/v73" BASE=6.12 "$TOP/scripts/source.sh"

# 4. not a kernel tree
mkdir -p "$T/empty"
expect_fail "a directory without a kernel Makefile is refused" "not a kernel tree" \
	env BUILD="$T/b4" KSRC="$T/empty" "$TOP/scripts/source.sh"

# 5. dirty tree
fake_tree "$T/dirty" 6.12.9
echo "local edit" >> "$T/dirty/security/file.c"
expect_fail "make apply refuses a dirty tree" "uncommitted changes" \
	env BUILD="$T/b5" KSRC="$T/dirty" "$TOP/scripts/apply.sh"
expect_fail "make tree refuses a dirty KSRC" "uncommitted changes" \
	env BUILD="$T/b5" KSRC="$T/dirty" "$TOP/scripts/source.sh"
if grep -q "local edit" "$T/dirty/security/file.c" &&
   ! git -C "$T/dirty" rev-parse -q --verify refs/heads/avc-pcpu >/dev/null; then
	ok "dirty tree keeps its edit and gets no branch"
else
	fail "dirty tree keeps its edit and gets no branch"
fi

# 6. a patch that does not apply: named, with its file, nothing half-applied
fake_tree "$T/broken" 6.12.9
mkdir -p "$T/series/patches"
cat > "$T/series/patches/0001-good.patch" <<'P'
From: Test <test@example.org>
Date: Thu, 3 Dec 2026 10:00:00 +0000
Subject: [PATCH] good: change file.c

A change that applies.
---
diff --git a/security/file.c b/security/file.c
--- a/security/file.c
+++ b/security/file.c
@@ -1 +1 @@
-stock
+patched
P
cat > "$T/series/patches/0002-bad.patch" <<'P'
From: Test <test@example.org>
Date: Thu, 3 Dec 2026 10:00:00 +0000
Subject: [PATCH] bad: change a line that is not there

A change that does not apply.
---
diff --git a/security/file.c b/security/file.c
--- a/security/file.c
+++ b/security/file.c
@@ -1 +1 @@
-something else
+patched again
P
printf '0001-good.patch\n0002-bad.patch\n' > "$T/series/patches/series"
head=$(git -C "$T/broken" rev-parse HEAD)
expect_fail "broken patch is named with its file" "0002-bad.patch does not apply to security/file.c" \
	env PATCHDIR="$T/series/patches" "$TOP/scripts/apply-series.sh" "$T/broken"
if [ "$(git -C "$T/broken" rev-parse HEAD)" = "$head" ] &&
   [ -z "$(git -C "$T/broken" status --porcelain)" ] &&
   grep -qx stock "$T/broken/security/file.c"; then
	ok "broken series leaves the tree as it was"
else
	fail "broken series leaves the tree as it was"
fi

# 7. make apply on a tree where the series fails: back on its branch, no new branch
fake_tree "$T/apply" 6.12.9
orig=$(git -C "$T/apply" symbolic-ref --short HEAD)
expect_fail "make apply on a tree the series does not fit" "does not apply.*unchanged" \
	env BUILD="$T/b7" KSRC="$T/apply" "$TOP/scripts/apply.sh"
if [ "$(git -C "$T/apply" symbolic-ref --short HEAD)" = "$orig" ] &&
   ! git -C "$T/apply" rev-parse -q --verify refs/heads/avc-pcpu >/dev/null &&
   [ -z "$(git -C "$T/apply" status --porcelain)" ]; then
	ok "failed make apply restores branch and tree"
else
	fail "failed make apply restores branch and tree"
fi

# 8. make apply without KSRC
expect_fail "make apply without KSRC says what it needs" "needs KSRC=" \
	env KSRC= "$TOP/scripts/apply.sh"

# 9. missing packages as an ordinary user: deps.sh prints the exact install
#    line, with sudo and in the su -c form, and stops without running
#    apt-get.  A fake apt-get first in PATH records any call and fails.
#    Run as root, the test drops to uid 65534 for this.
mkdir -p "$T/fakebin" "$T/u"
printf '#!/bin/sh\necho "$0 $*" >> "%s"\nexit 1\n' "$T/u/apt-calls" > "$T/fakebin/apt-get"
chmod 755 "$T/fakebin" "$T/fakebin/apt-get"
chmod 711 "$T"
chmod 1777 "$T/u"
asuser=()
[ "$(id -u)" -ne 0 ] || asuser=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if [ ${#asuser[@]} -eq 0 ] || command -v setpriv >/dev/null; then
	expect_fail "missing packages as a user: the sudo line" \
		"^    sudo apt-get install -y avc-no-such-a avc-no-such-b$" \
		"${asuser[@]}" env PATH="$T/fakebin:$PATH" DEPS_EXTRA="avc-no-such-a avc-no-such-b" \
		bash "$TOP/scripts/deps.sh" build
	if grep -qxF "    su -c 'apt-get install -y avc-no-such-a avc-no-such-b'" "$T/out" &&
	   [ ! -e "$T/u/apt-calls" ]; then
		ok "missing packages as a user: the su -c line, and no apt-get run"
	else
		fail "missing packages as a user: the su -c line, and no apt-get run"
	fi
else
	ok "missing packages as a user # SKIP no setpriv to drop root"
	ok "missing packages as a user: su -c # SKIP no setpriv to drop root"
fi

# 10. deps is a no-op when everything is there: apt-get is never run.
if PATH="$T/fakebin:$PATH" "$TOP/scripts/deps.sh" >"$T/out" 2>&1 && [ ! -e "$T/u/apt-calls" ]; then
	ok "deps.sh is a no-op when all is installed"
else
	fail "deps.sh is a no-op when all is installed"
fi
# ... and a missing package is installed through apt-get, named on the line.
PATH="$T/fakebin:$PATH" DEPS_EXTRA=avc-no-such-package "$TOP/scripts/deps.sh" >"$T/out" 2>&1 || true
if { [ "$(id -u)" -ne 0 ] || grep -q 'install.*avc-no-such-package' "$T/u/apt-calls" 2>/dev/null; } &&
   grep -q 'apt-get install -y avc-no-such-package' "$T/out"; then
	ok "deps.sh installs a missing package and prints the apt-get line on failure"
else
	fail "deps.sh installs a missing package and prints the apt-get line on failure"
fi

# 12-14: two runs in one checkout, and runs killed half-way.  A fake 6.12
# tarball and fake tars first in PATH stand for a long unpack; the test
# lets them go on through files, so nothing depends on timing.
mkdir -p "$T/linux-6.12.9/security"
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 9\nEXTRAVERSION =\n' > "$T/linux-6.12.9/Makefile"
echo stock > "$T/linux-6.12.9/security/file.c"
tar -C "$T" -cJf "$T/linux.tar.xz" linux-6.12.9
realtar=$(command -v tar)
# wait_for FILE [REGEX]: wait (up to 5 minutes) until FILE exists, or
# until it has a line matching REGEX.
wait_for() {
	local i=0
	while [ $i -lt 3000 ]; do
		if [ $# -gt 1 ]; then
			grep -qE "$2" "$1" 2>/dev/null && return 0
		else
			[ -e "$1" ] && return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# source_ok BUILD: a complete pristine tree of the fake tarball
source_ok() {
	[ -f "$1/src/debian-6.12/pristine/security/file.c" ] &&
	[ -f "$1/src/debian-6.12/pristine/.git/avc-base-version" ] &&
	git -C "$1/src/debian-6.12/pristine" rev-parse -q --verify avc-base >/dev/null &&
	[ ! -e "$1/src/debian-6.12/.pristine.tmp" ]
}
mkdir -p "$T/slowbin" "$T/killbin"
# A long unpack: say that it runs, wait for tar-go, then unpack.
printf '#!/bin/sh\ntouch "%s"\nwhile [ ! -e "%s" ]; do sleep 0.1; done\nexec "%s" "$@"\n' \
	"$T/tar-started" "$T/tar-go" "$realtar" > "$T/slowbin/tar"
# An unpack that stops half-way: the Makefile only, then wait for tar-end.
printf '#!/bin/sh\n"%s" "$@" linux-6.12.9/Makefile\ntouch "%s"\nwhile [ ! -e "%s" ]; do sleep 0.1; done\nexit 1\n' \
	"$realtar" "$T/tar-partial" "$T/tar-end" > "$T/killbin/tar"
chmod +x "$T/slowbin/tar" "$T/killbin/tar"

# 12. the second of two runs waits for the first, names it, and goes on
#     when it is done.
env BUILD="$T/b12" TARBALL="$T/linux.tar.xz" KSRC= PATH="$T/slowbin:$PATH" \
	"$TOP/scripts/source.sh" >"$T/run1" 2>&1 &
p1=$!
if wait_for "$T/tar-started"; then
	env BUILD="$T/b12" TARBALL="$T/linux.tar.xz" KSRC= LOCK_POLL=1 \
		"$TOP/scripts/source.sh" >"$T/run2" 2>&1 &
	p2=$!
	# It keeps waiting past its periodic "still waiting" message.
	if wait_for "$T/run2" "waiting for .*lock.*pid $p1: scripts/source\.sh" &&
	   wait_for "$T/run2" "still waiting after [0-9]+s for pid $p1: .*processes with the lock open: .*$p1" &&
	   kill -0 "$p2" 2>/dev/null && [ ! -e "$T/b12/src/debian-6.12/pristine" ]; then
		ok "a second run waits, naming the run (pid, command) that holds build/"
	else
		cp "$T/run2" "$T/out"
		fail "a second run waits, naming the run (pid, command) that holds build/"
	fi
	touch "$T/tar-go"
	r1=0; wait "$p1" || r1=$?
	r2=0; wait "$p2" || r2=$?
	if [ $r1 -eq 0 ] && [ $r2 -eq 0 ] && source_ok "$T/b12" && grep -q "got .*lock after" "$T/run2"; then
		ok "both runs finish, one after the other"
	else
		cat "$T/run1" "$T/run2" > "$T/out"
		fail "both runs finish, one after the other (exit $r1, $r2)"
	fi
else
	touch "$T/tar-go"
	wait "$p1" || true
	cp "$T/run1" "$T/out"
	fail "a second run waits (the first run never started its unpack)"
	fail "both runs finish, one after the other"
fi

# 13. a script started by a locked run does not wait for its own run's lock
if env BUILD="$T/b13" TARBALL="$T/linux.tar.xz" KSRC= timeout 300 \
	bash -c '. "$1/scripts/lib.sh"; lock_build; "$1/scripts/source.sh"' _ "$TOP" >"$T/out" 2>&1 &&
   source_ok "$T/b13" && ! grep -q 'waiting for' "$T/out"; then
	ok "nested scripts take the lock once (no deadlock)"
else
	fail "nested scripts take the lock once (no deadlock)"
fi

# 14. an unpack killed half-way (SIGKILL: no cleanup runs) is redone by
#     the next run, and so is a pristine tree left incomplete.
# (Started from a subshell that is quiet about the kill.)
(env BUILD="$T/b14" TARBALL="$T/linux.tar.xz" KSRC= PATH="$T/killbin:$PATH" \
	"$TOP/scripts/source.sh" >"$T/run1" 2>&1 &
 echo $! > "$T/pid14"; wait) 2>/dev/null &
p0=$!
wait_for "$T/tar-partial" || true
kill -KILL "$(cat "$T/pid14")" 2>/dev/null || true
touch "$T/tar-end"
wait "$p0" || true
if [ -f "$T/b14/src/debian-6.12/.pristine.tmp/Makefile" ] &&
   [ ! -e "$T/b14/src/debian-6.12/.pristine.tmp/security/file.c" ] &&
   env BUILD="$T/b14" TARBALL="$T/linux.tar.xz" KSRC= "$TOP/scripts/source.sh" >"$T/out" 2>&1 &&
   source_ok "$T/b14" && grep -q 'left by an interrupted run' "$T/out"; then
	ok "an unpack killed half-way is redone by the next run"
else
	fail "an unpack killed half-way is redone by the next run"
fi
mkdir -p "$T/b15/src/debian-6.12/pristine/.git"
echo half > "$T/b15/src/debian-6.12/pristine/Makefile"
if env BUILD="$T/b15" TARBALL="$T/linux.tar.xz" KSRC= "$TOP/scripts/source.sh" >"$T/out" 2>&1 &&
   source_ok "$T/b15" && grep -q 'incomplete' "$T/out"; then
	ok "an incomplete pristine tree is made again"
else
	fail "an incomplete pristine tree is made again"
fi

# 11. the real series on a clean clone of the pristine tree (make apply happy path)
if [ -d "$PRISTINE/.git" ]; then
	git clone -q --local --no-checkout "$PRISTINE" "$T/real" 2>/dev/null
	kgit "$T/real" checkout -q -b main "$BASE_TAG"
	if KSRC="$T/real" BUILD="$T/b11" "$TOP/scripts/apply.sh" >"$T/out" 2>&1 &&
	   [ "$(git -C "$T/real" symbolic-ref --short HEAD)" = avc-pcpu ] &&
	   [ "$(git -C "$T/real" rev-list --count main..avc-pcpu)" = \
	     "$(grep -cvE '^(#|$)' "$PATCHDIR/series")" ]; then
		ok "make apply puts the series on a new branch of a clean $BASE tree"
	else
		fail "make apply puts the series on a new branch of a clean $BASE tree"
	fi
else
	ok "make apply happy path # SKIP no pristine tree yet"
fi

# 15. make litmus without herd7 (CI has none): a clear message, how to get it
expect_fail "make litmus without herd7 says how to get it" \
	"^7\.57 builds from source" \
	env HERD7="$T/no-herd7" "$TOP/scripts/litmus.sh"

# 15b. make microbench: a slot count or an architecture it cannot run is
# refused before anything builds.
expect_fail "MICROBENCH_SLOTS refuses what is no slot count" \
	"MICROBENCH_SLOTS: 48 is not a slot count of 16, 32, 64, 128 or 256" \
	env BUILD="$T/mb" MICROBENCH_SLOTS=48 "$TOP/scripts/microbench.sh"
expect_fail "microbench.sh refuses an architecture it has no run for" \
	"no microbenchmark on 'arm64' \(um or x86_64\)" \
	env BUILD="$T/mb" "$TOP/scripts/microbench.sh" arm64

# 15d. make walk and make cache: a tree or arguments they cannot use are
# refused before anything builds or boots.
expect_fail "WALK_TREES refuses what is not FANOUTxDEPTH" \
	"WALK_TREES: 'big' is not FANOUTxDEPTH" \
	env BUILD="$T/wk" WALK_TREES=big "$TOP/scripts/walk.sh"
expect_fail "WALK_TREES refuses a tree the guest's tmpfs cannot hold" \
	"WALK_TREES: '8x6' makes 299592 inodes; the guest's tmpfs holds 65,536" \
	env BUILD="$T/wk" WALK_TREES="4x5 8x6" "$TOP/scripts/walk.sh"
expect_fail "cache.sh refuses BENCH_OP_ARGS with a space" \
	"BENCH_OP_ARGS: words joined by commas, without spaces" \
	env BUILD="$T/wk" BENCH_OP_ARGS="-f 4" "$TOP/scripts/cache.sh" pathwalk
expect_fail "cache.sh refuses BENCH_OP_ARGS where the guest has no run.sh (sh4)" \
	"BENCH_OP_ARGS: the sh4 guest runs sinit.c" \
	env BUILD="$T/wk" BENCH_ARCH=sh4 BENCH_OP_ARGS="-f,4" "$TOP/scripts/cache.sh" pathwalk

# 15e. make scale: working sets, guests and a policy it cannot use are
# refused before anything builds or boots; scale.py sums up the guests'
# lines (two working sets, made-up counts) into costs and shares.
expect_fail "SCALE_KEYS refuses what is no key count" \
	"SCALE_KEYS: 'many' is not a positive integer" \
	env BUILD="$T/sc" SCALE_KEYS="16 many" "$TOP/scripts/scale.sh"
expect_fail "SCALE_KEYS refuses more keys than lat_kill makes" \
	"SCALE_KEYS: at most 16384 keys, not 20000" \
	env BUILD="$T/sc" SCALE_KEYS="16 20000" "$TOP/scripts/scale.sh"
expect_fail "make scale refuses another architecture's guest (sh4)" \
	"make scale runs the x86_64 guests only, not BENCH_ARCH=sh4" \
	env BUILD="$T/sc" BENCH_ARCH=sh4 "$TOP/scripts/scale.sh"
expect_fail "make scale refuses the Debian policy" \
	"make scale needs the project policy" \
	env BUILD="$T/sc" POLICY=debian "$TOP/scripts/scale.sh"
mkdir -p "$T/scale"
scale_log() {
	# scale_log FILE US16 US64 [STATS]: a guest's console, instructions
	# per signal as microseconds under -icount.
	{
		echo "SELINUX-AVC-BENCH: RESULT kill0 16 keys: $2 microseconds"
		[ -z "${3:-}" ] || echo "SELINUX-AVC-BENCH: RESULT kill0 64 keys: $3 microseconds"
		[ -z "${4:-}" ] || printf '%s\n' "$4"
	} > "$T/scale/$1"
}
st() { echo "SELINUX-AVC-BENCH: RESULT stats $1 $2 $3 $4"; }
scale_log stock-none 0.400 0.400
scale_log patched-none 0.400 0.400
scale_log stock-selinux 0.500 0.600 "$(st 16 cache_stats before 'lookups hits misses allocations reclaims frees')
$(st 16 cache_stats before '100 90 10 0 0 0')
$(st 16 cache_stats after 'lookups hits misses allocations reclaims frees')
$(st 16 cache_stats after '1100 1090 10 0 0 0')"
scale_log patched-selinux 0.450 0.700 "$(st 16 pcpu_cache_stats before 'lookups hits misses fills bypasses')
$(st 16 pcpu_cache_stats before '50 40 10 1 0')
$(st 16 pcpu_cache_stats after 'lookups hits misses fills bypasses')
$(st 16 pcpu_cache_stats after '850 790 60 2 0')
$(st 16 cache_stats before 'lookups hits misses allocations reclaims frees')
$(st 16 cache_stats before '10 5 5 0 0 0')
$(st 16 cache_stats after 'lookups hits misses allocations reclaims frees')
$(st 16 cache_stats after '210 195 15 0 0 0')"
if python3 "$TOP/tools/testing/selinux-avc-bench/scale.py" "$T/scale" 1000 \
	stock:none:"$T/scale/stock-none" stock:selinux:"$T/scale/stock-selinux" \
	patched:none:"$T/scale/patched-none" patched:selinux:"$T/scale/patched-selinux" > "$T/scale/out" 2>&1 &&
   grep -Eq '^ +16 +\+100 +\+50 +0\.50 +75\.0% +20\.0% +100\.0% +19\.0% +0\.0% +1\.0%$' "$T/scale/scale.txt" &&
   grep -Eq '^ +64 +\+200 +\+300 +1\.50 +- ' "$T/scale/scale.txt" &&
   [ "$(sed -n 2p "$T/scale/scale.csv" | cut -d, -f1,4,16)" = "16,100.000,0.500" ]; then
	ok "scale.py: cost per signal, SELinux minus none, and the shares of the checks"
else
	fail "scale.py: cost per signal, SELinux minus none, and the shares of the checks ($(cat "$T/scale/out" "$T/scale/scale.txt" 2>/dev/null | tail -5))"
fi
scale_log patched-none 0.400
if python3 "$TOP/tools/testing/selinux-avc-bench/scale.py" "$T/scale" 1000 \
	stock:none:"$T/scale/stock-none" stock:selinux:"$T/scale/stock-selinux" \
	patched:none:"$T/scale/patched-none" patched:selinux:"$T/scale/patched-selinux" > "$T/scale/out" 2>&1; then
	fail "scale.py refuses a guest without every working set"
elif grep -q "patched none has no result for \[64\] keys" "$T/scale/out"; then
	ok "scale.py refuses a guest without every working set"
else
	fail "scale.py refuses a guest without every working set ($(cat "$T/scale/out"))"
fi

# 15c. kunit_tcg_path: the qemu that kunit.py finds first drops its -accel
# options (a /dev/kvm that cannot run the guest hangs it) and asks for TCG.
mkdir -p "$T/fakeq"
printf '#!/bin/sh\necho "args: $*"\n' > "$T/fakeq/qemu-system-fake"
chmod +x "$T/fakeq/qemu-system-fake"
if out=$(BUILD="$T/kq" PATH="$T/fakeq:$PATH" bash -c '. "$1/scripts/lib.sh"; p=$(kunit_tcg_path qemu-system-fake); PATH=$p qemu-system-fake -m 1 -accel kvm -accel hvf -accel tcg -smp 2' _ "$TOP" 2>&1) &&
   [ "$out" = "args: -accel tcg -m 1 -smp 2" ]; then
	ok "kunit_tcg_path: kunit.py's -accel options become -accel tcg"
else
	echo "$out" > "$T/out"; fail "kunit_tcg_path: kunit.py's -accel options become -accel tcg"
fi

# 16a. BENCH_ARCH: an unknown architecture is named with the known ones,
# and a flavor of another architecture is refused before anything builds.
expect_fail "an unknown BENCH_ARCH lists the architectures" \
	"BENCH_ARCH=mips: no configs/arch/mips.conf \(known: arm64 sh4 x86_64" \
	env BENCH_ARCH=mips "$TOP/scripts/build.sh" stock
expect_fail "a KUnit-only architecture is no BENCH_ARCH" \
	"BENCH_ARCH=um: configs/arch/um.conf has no guest .*benchmark architectures: arm64 sh4 x86_64" \
	env BENCH_ARCH=um "$TOP/scripts/build.sh" stock
expect_fail "kunit.sh: an unknown architecture is named with those of configs/arch/" \
	"arch must be x86_64-guest or one of configs/arch/ \(arm64 i386 sh4 um x86_64 or the kernel ARCH of one\), not 'mips'" \
	env BUILD="$T/bk" "$TOP/scripts/kunit.sh" mips
# The kernel's name of an architecture finds its file: past the
# architecture, to the missing tree.
expect_fail "kunit.sh sh: sh4's settings (the kernel ARCH of configs/arch/sh4.conf)" \
	"no patched tree" \
	env BUILD="$T/bk" "$TOP/scripts/kunit.sh" sh
expect_fail "a flavor of another architecture is refused" \
	"flavor x86_64-guest is another architecture's than BENCH_ARCH=arm64" \
	env BENCH_ARCH=arm64 "$TOP/scripts/build.sh" stock x86_64-guest

# 16b. SH4: a cross compiler that drops the test of a loaded value is
# used only with the plugin that cures it, and refused with the apt-get
# line when the plugin cannot be built (stub toolchains, no plugin
# headers: the probe is judged by its disassembly).  The installed
# sh4-linux-gnu-gcc is judged too where it is.
mkdir -p "$T/shcc"
for v in bad good; do
	cat >"$T/shcc/$v-gcc" <<'STUB'
#!/bin/sh
case "$1" in -print-file-name=*) echo "${1#*=}"; exit 0 ;; -dumpfullversion) echo 0.0; exit 0 ;; esac
while [ $# -gt 0 ] && [ "$1" != -o ]; do shift; done
: > "$2"
STUB
	printf '#!/bin/sh\necho "probe:"\n' >"$T/shcc/$v-objdump"
done
echo 'echo "   0:	12 61	mov.l	@r4,r1"' >>"$T/shcc/good-objdump"
echo 'echo "   0:	fe 8f	bf.s	8"' >>"$T/shcc/bad-objdump"
chmod +x "$T/shcc/"*
expect_fail "an SH cross compiler that drops the test of *p, without the plugin's headers, is refused" \
	"bad-gcc .*miscompiles: 'return \*p \? 3 : 9' at -O2 has no load of \*p.*apt-get install gcc-12-plugin-dev-sh4-linux-gnu g\+\+" \
	env BENCH_ARCH=sh4 SH4_CROSS="$T/shcc/bad-" BUILD="$T/bsh" "$TOP/scripts/build.sh" stock
mkdir -p "$T/bsh"
if env BENCH_ARCH=sh4 BUILD="$T/bsh" bash -c ". '$TOP/scripts/lib.sh'; sh_cc_setup '$T/shcc/good-'; [ -z \"\$ARCH_CFLAGS\" ]" >"$T/out" 2>&1; then
	ok "an SH cross compiler that loads *p is used as it is"
else
	fail "an SH cross compiler that loads *p is used as it is"
fi
# The C library: the toolchain's own where the compiler needed no plugin;
# otherwise musl built with the plugin, and a MUSL_SRC that is not a musl
# tree is refused before anything is built.
if env BENCH_ARCH=sh4 BUILD="$T/bsh" bash -c ". '$TOP/scripts/lib.sh'; ARCH_CFLAGS=; sh_libc_setup '$T/shcc/good-'; [ -z \"\$ARCH_LIBC_FLAGS\" ] && [ ! -e '$T/bsh/deps' ]" >"$T/out" 2>&1; then
	ok "an SH compiler that needs no plugin links against its own C library"
else
	fail "an SH compiler that needs no plugin links against its own C library"
fi
mkdir -p "$T/notmusl"
expect_fail "a MUSL_SRC that is not a musl source tree is refused" \
	"notmusl is not a musl source tree with SH support" \
	env BENCH_ARCH=sh4 BUILD="$T/bsh" MUSL_SRC="$T/notmusl" bash -c ". '$TOP/scripts/lib.sh'; ARCH_CFLAGS=-fplugin=none.so; sh_libc_setup '$T/shcc/bad-'"
# Hooks are per architecture: loading another one's file leaves none of
# sh4's behind, and an architecture without hooks adds no flags.
if env BENCH_ARCH=sh4 SH4_CROSS="$T/shcc/bad-" BUILD="$T/bsh" bash -c ". '$TOP/scripts/lib.sh'; load_arch arm64; arch_cc_setup; arch_libc_setup; [ -z \"\$ARCH_CFLAGS\$ARCH_LIBC_FLAGS\$ARCH_LIBC_DIR\" ]" >"$T/out" 2>&1; then
	ok "an architecture without hooks adds no flags, after another's"
else
	fail "an architecture without hooks adds no flags, after another's"
fi
if command -v sh4-linux-gnu-gcc >/dev/null; then
	if env BENCH_ARCH=sh4 BUILD="$T/bsh" bash -c ". '$TOP/scripts/lib.sh'; sh_cc_setup sh4-linux-gnu-; sh_cc_probe sh4-linux-gnu- \$ARCH_CFLAGS" >"$T/out" 2>&1 ||
		grep -q "miscompiles" "$T/out"; then
		ok "the installed sh4-linux-gnu-gcc is judged ($(grep -q plugin-dev "$T/out" && echo 'refused: no plugin headers' || grep -q 'sh_treg_combine off' "$T/out" && echo 'used with the plugin' || echo 'used as it is'))"
	else
		fail "the installed sh4-linux-gnu-gcc is judged"
	fi
fi

# 16. make profile: an unknown row is named with the list of rows; the
# qemu plugin builds without a warning and exports what qemu looks up.
expect_fail "make profile with an unknown row lists the rows" \
	"usage: make profile OP=<row>; rows: .*exec_trans .*fs_create .*fs_mkdir .*socket .*stat" \
	"$TOP/scripts/profile.sh" no-such-row
# plugin_builds NAME WHAT: tools/testing/selinux-avc-profile/NAME.c builds
# as a qemu plugin without a warning and exports only what qemu looks up.
plugin_builds() {
	if gcc -O2 -Wall -Wextra -Werror -Wno-unused-parameter -shared -fPIC \
		-fvisibility=hidden -o "$T/$1.so" \
		"$TOP/tools/testing/selinux-avc-profile/$1.c" 2>"$T/out" &&
	   [ "$(nm -D --defined-only "$T/$1.so" | awk '{print $3}' | sort | tr '\n' ' ')" = \
	     "qemu_plugin_install qemu_plugin_version " ]; then
		ok "$2 plugin builds and exports qemu_plugin_install, qemu_plugin_version"
	else
		fail "$2 plugin build ($(head -1 "$T/out"))"
	fi
}
plugin_builds insn_profile profile
# make cache: the same for the cache model's plugin, and the model's own
# host test (strided walks, LRU, a line-crossing access, bad geometry
# files) on the geometries it ships.
expect_fail "make cache with an unknown row lists the rows" \
	"usage: make cache OP=<row>; rows: .*fs_create .*stat" \
	"$TOP/scripts/cache.sh" no-such-row
plugin_builds cache_model "cache model"
expect_fail "cache.sh refuses CACHE_DLINES other than 0 or 1" \
	"CACHE_DLINES must be 0 or 1" \
	env BUILD="$T/wk" CACHE_DLINES=yes "$TOP/scripts/cache.sh" stat
# cache.py names a data line's access (CACHE_DLINES=1) by the image's data
# symbol that holds it, else by where it is: 64-bit and 32-bit layouts.
if python3 - "$TOP/tools/testing/selinux-avc-profile" >"$T/out" 2>&1 <<'PY'
import importlib.util, os, sys
spec = importlib.util.spec_from_file_location(
    'cache', os.path.join(sys.argv[1], 'cache.py'))
c = importlib.util.module_from_spec(spec)
spec.loader.exec_module(c)
k = 0xffffffff81000000
d64 = ([k + 0x1000, k + 0x2000], ['avc_pcpu_gen', 'selinux_state'],
       k, k + 0x3000)
d32 = ([0x8c001000], ['selinux_state'], 0x8c000000, 0x8c002000)
want = [
    (d64, k + 0x1008, 'avc_pcpu_gen'),
    (d64, k + 0x2fff, 'selinux_state'),
    (d64, 0xffff888000123440, 'outside the image (slab, per-CPU, pages)'),
    (d64, 0x7ffd00001000, 'user memory'),
    (d32, 0x8c001004, 'selinux_state'),
    (d32, 0x8d000000, 'outside the image (slab, per-CPU, pages)'),
    (d32, 0x00401000, 'user memory'),
]
for dsyms, addr, label in want:
    got = c.data_label(dsyms, addr)
    if got != label:
        sys.exit('%#x: %r, not %r' % (addr, got, label))
PY
then
	ok "cache.py names data lines by symbol, heap and user memory"
else
	fail "cache.py names data lines by symbol, heap and user memory"
fi
if gcc -O2 -Wall -Wextra -Werror -o "$T/cache_sim_test" \
	"$TOP/tools/testing/selinux-avc-profile/cache_sim_test.c" 2>"$T/out" &&
   "$T/cache_sim_test" "$TOP"/tools/testing/selinux-avc-profile/caches/*.conf >"$T/out" 2>&1 &&
   ! grep -q '^not ok' "$T/out" && grep -q '^ok ' "$T/out"; then
	ok "cache model: its host test passes ($(grep -c '^ok ' "$T/out") checks)"
else
	fail "cache model: its host test ($(grep -m1 -v '^ok ' "$T/out"))"
fi
# Each installed compiler of a benchmark architecture puts into
# bench_begin()/bench_end() the exact marker words the plugin matches
# (x86_64: nopl 0x5e1ba00N(%rax,%rax,1); arm64: movz xzr, #0xa00N; SH4:
# tst #0xaN,r0), checked on the object's bytes.
printf '#include "bench.h"\nunsigned long long f(void) { return bench_end(bench_begin(), 1); }\n' >"$T/mark.c"
for m in gcc:0f1f840001a01b5e:0f1f840002a01b5e \
	 aarch64-linux-gnu-gcc:3f0094d2:5f0094d2 \
	 sh4-linux-gnu-gcc:a1c8:a2c8; do
	IFS=: read -r cc b e <<<"$m"
	command -v "$cc" >/dev/null || continue
	hex=
	if "$cc" -O2 -I"$TOP/tools/testing/selinux-avc-bench" -I"$TOP/tools/testing/selinux-avc-common" \
		-c -o "$T/mark.o" "$T/mark.c" 2>"$T/out" &&
	   "${cc%gcc}objcopy" -O binary -j .text "$T/mark.o" "$T/mark.bin" 2>>"$T/out" &&
	   hex=$(od -An -v -tx1 "$T/mark.bin" | tr -d ' \n') &&
	   [[ $hex == *"$b"* && $hex == *"$e"* ]]; then
		ok "$cc: the benchmarks' window markers are the words the profile plugin matches"
	else
		echo "text: ${hex:-none}" >>"$T/out"
		fail "$cc: the benchmarks' window markers are the words the profile plugin matches"
	fi
done

# 17a. rows.conf: the guest's run.sh runs each op line's program with
#      -N (the count scaled, plus one) and its arguments, in order; the
#      churn scenario its ops; BENCH_OP one, with its windows.  Under
#      busybox sh, with programs that print their command line as a result.
if [ -x /bin/busybox ]; then
	G=$T/rows/bench
	mkdir -p "$G"
	sed "s|/bench|$G|g" "$TOP/tools/testing/selinux-avc-bench/guest/run.sh" >"$G/run.sh"
	sed "s|/bench|$G|g" "$TOP/tools/testing/selinux-avc-bench/rows.conf" >"$G/rows.conf"
	for p in $(awk '$1 == "op" { print $5 }' "$G/rows.conf") serun; do
		printf '#!/bin/sh\necho "${0##*/} $*${BENCH_WINDOWS:+ windows}: 1.0 microseconds" >&2\n' >"$G/$p"
		chmod +x "$G/$p"
	done
	(cd "$T/rows" && env -i PATH=/bin:/usr/bin BENCH_SCALE=10 /bin/busybox sh "$G/run.sh") 2>&1 |
		sed -n "s|$G|/bench|g; s|^SELINUX-AVC-BENCH: RESULT ||p" >"$T/rows/all"
	(cd "$T/rows" && env -i PATH=/bin:/usr/bin BENCH_SCENARIO=churn /bin/busybox sh "$G/run.sh") 2>&1 |
		sed -n 's|^SELINUX-AVC-BENCH: RESULT ||p' >"$T/rows/churn"
	(cd "$T/rows" && env -i PATH=/bin:/usr/bin BENCH_OP=fs_dir /bin/busybox sh "$G/run.sh") 2>&1 |
		sed -n 's|^SELINUX-AVC-BENCH: RESULT ||p' >"$T/rows/op"
	cp "$T/rows/all" "$T/out"
	if [ "$(wc -l <"$T/rows/all")" -eq "$(grep -c '^op ' "$G/rows.conf")" ] &&
	   [ "$(head -1 "$T/rows/all")" = "lat_syscall -N 20001 null: 1.0 microseconds" ] &&
	   grep -qx 'lat_fs -N 501 -d /tmp: 1.0 microseconds' "$T/rows/all" &&
	   grep -qx 'lat_proc -N 101 -p /bench/hello_trans exec_trans: 1.0 microseconds' "$T/rows/all" &&
	   [ "$(tail -1 "$T/rows/all")" = "lat_make -N 1 /tmp /bench/make.sh: 1.0 microseconds" ] &&
	   [ "$(cut -d' ' -f1,4 "$T/rows/churn" | tr '\n' ' ')" = "lat_syscall stat: lat_syscall read: lat_syscall open: pathwalk /tmp: " ] &&
	   [ "$(cat "$T/rows/op")" = "lat_fs -N 5001 -d /tmp windows: 1.0 microseconds" ]; then
		ok "rows.conf: run.sh runs its benchmarks, the churn scenario's and BENCH_OP's"
	else
		fail "rows.conf: run.sh runs its benchmarks, the churn scenario's and BENCH_OP's"
	fi
fi
# Each guest benchmark's results are rows: the guest prints as many
# results as bench.sh waits for.
if [ "$(bench_nresults)" -eq 23 ] && [ "$(bench_nresults churn)" -eq 4 ] &&
   [ "$(BA_INIT=c bench_nresults)" -eq 21 ]; then
	ok "rows.conf: 23 results (21 without a shell), 4 in the churn scenario"
else
	fail "rows.conf: 23 results (21 without a shell), 4 in the churn scenario"
fi

# 17. report.py: the suite's table and files as before, the churn scenario
#     in a table of its own and after the suite's rows, and a churn run
#     that went wrong is refused.  Logs made up here, figures in us.
R=$TOP/tools/testing/selinux-avc-bench/report.py
M=SELINUX-AVC-BENCH
# fake_log FILE MODE SCALE [churn]: a guest log of MODE (selinux|none)
# whose figures are the base ones times SCALE
fake_log() {
	local f=$1 mode=$2 scale=$3 l v
	{
		if [ "$mode" = selinux ]; then
			echo "$M: BEGIN mode=enforcing policy=project domain=system_u:system_r:bench_t:s0"
			echo "$M: CONTEXT system_u:system_r:bench_t:s0"
		else
			echo "$M: BEGIN mode=none policy=none"
			echo "$M: CONTEXT none"
		fi
		if [ "${4:-}" = churn ]; then
			echo "$M: CHURN start: 64 files, a stat every 20 us, cache_threshold 32"
			for l in "Simple stat:5" "Simple read:0.8" "Simple open/close:8" \
				 "Path walk 4096 files depth 4:7"; do
				v=$(awk -v a="${l##*:}" -v b="$scale" 'BEGIN { printf "%.4f", a * b }')
				echo "$M: RESULT ${l%:*}: $v microseconds"
			done
			echo "$M: CHURN churn: 1280 stats of 64 files"
			if [ "$mode" = selinux ]; then
				echo "$M: STAT cache_stats_start lookups hits misses allocations reclaims frees"
				echo "$M: STAT cache_stats_start 100 90 10 10 0 0"
				echo "$M: STAT cache_stats lookups hits misses allocations reclaims frees"
				echo "$M: STAT cache_stats 5100 3590 1510 2854 1500 2800"
			fi
		else
			for l in "Simple syscall:0.2" "Simple read:0.4" "Simple write:0.3" \
				 "Simple stat:3" "Simple fstat:0.6" "Simple open/close:4" \
				 "Simple socket/close:5" \
				 "Pipe self write+read:1.5" "Pipe latency:7" \
				 "AF_UNIX sock stream latency:10" "File create:20" \
				 "File unlink:8" "File create+unlink:28" \
				 "Dir mkdir:22" "Dir rmdir:9" \
				 "Path walk 4096 files depth 4:3.4" \
				 "Process fork+exit:110" "Process fork+execve:250" \
				 "Process fork+execve domain transition:260" \
				 "Process fork+/bin/sh -c:700" "Mmap file:11" \
				 "AF_UNIX connect:20" "Make no-change:400000"; do
				v=$(awk -v a="${l##*:}" -v b="$scale" 'BEGIN { printf "%.4f", a * b }')
				echo "$M: RESULT ${l%:*}: $v microseconds"
			done
		fi
		echo "$M: END"
	} > "$f"
}
mkdir -p "$T/r1" "$T/r2" "$T/r3"
fake_log "$T/sn.log" none 1
fake_log "$T/ss.log" selinux 1.3
fake_log "$T/pn.log" none 1
fake_log "$T/ps.log" selinux 1.2
fake_log "$T/csn.log" none 1 churn
fake_log "$T/css.log" selinux 1.5 churn
fake_log "$T/cpn.log" none 1 churn
fake_log "$T/cps.log" selinux 1.35 churn
suite=(stock:none:"$T/sn.log" stock:selinux:"$T/ss.log" patched:none:"$T/pn.log" patched:selinux:"$T/ps.log")
churn=(stock:churn-none:"$T/csn.log" stock:churn-selinux:"$T/css.log"
       patched:churn-none:"$T/cpn.log" patched:churn-selinux:"$T/cps.log")
if python3 "$R" "$T/r1" "${suite[@]}" > "$T/r1.txt" 2>"$T/out" &&
   [ "$(head -1 "$T/r1/bench.csv")" = "test,description,stock_none,stock_selinux,stock_overhead,patched_none,patched_selinux,patched_overhead,ratio" ] &&
   [ "$(wc -l < "$T/r1/bench.csv")" -eq 24 ] &&
   grep -q '^stat,"stat",3000.0,3900.0,900.0,3000.0,3600.0,600.0,0.667$' "$T/r1/bench.csv" &&
   grep -q '^fork,"fork+exit",110000.0,143000.0,33000.0,110000.0,132000.0,22000.0,0.667$' "$T/r1/bench.csv" &&
   [ "$(sed -n 20p "$T/r1.txt")" = "$(printf '%-30s|   110000   143000   +33000|   110000   132000   +22000|      0.67' 'fork+exit')" ] &&
   ! grep -qi churn "$T/r1.txt" "$T/r1/bench.csv"; then
	ok "report.py: the suite alone gives the 22 per-operation rows and the columns it always did"
else
	fail "report.py: the suite alone gives the 22 per-operation rows and the columns it always did"
fi
# A stock overhead below one instruction per operation is noise: no ratio.
sed 's/RESULT Simple syscall: [0-9.]*/RESULT Simple syscall: 0.2001/' "$T/ss.log" > "$T/ss0.log"
sed 's/RESULT Simple syscall: [0-9.]*/RESULT Simple syscall: 0.1999/' "$T/ps.log" > "$T/ps0.log"
mkdir -p "$T/r0"
if python3 "$R" "$T/r0" stock:none:"$T/sn.log" stock:selinux:"$T/ss0.log" \
	   patched:none:"$T/pn.log" patched:selinux:"$T/ps0.log" > "$T/r0.txt" 2>"$T/out" &&
   grep -q '^null,"[^"]*",200.0,200.1,0.1,200.0,199.9,-0.1,$' "$T/r0/bench.csv" &&
   grep -q '^stat,"stat",3000.0,3900.0,900.0,3000.0,3600.0,600.0,0.667$' "$T/r0/bench.csv"; then
	ok "report.py: no overhead ratio for a stock overhead below one instruction"
else
	fail "report.py: no overhead ratio for a stock overhead below one instruction"
fi
# The macro row: per run, in a table of its own after the per-operation
# rows (and not in bench.dat), in bench.csv and bench.json with its unit.
if [ "$(sed -n 27p "$T/r1.txt")" = "$(printf '%-30s| %-32s| %-32s| %-9s' 'instructions per run' stock patched overhead)" ] &&
   grep -qE '^no-change make \(sh script\) +\|  400000000  520000000 \+120000000\|  400000000  480000000  \+80000000\| +0\.67$' "$T/r1.txt" &&
   [ "$(wc -l < "$T/r1.txt")" -eq 30 ] &&
   grep -q '^macro,"no-change make (sh script) (instructions per run)",400000000.0,520000000.0,120000000.0,400000000.0,480000000.0,80000000.0,0.667$' "$T/r1/bench.csv" &&
   [ "$(tail -1 "$T/r1/bench.csv" | cut -d, -f1)" = macro ] &&
   ! grep -q '^macro' "$T/r1/bench.dat" && grep -q '^macro 120000000.0 80000000.0$' "$T/r1/bench-run.dat" &&
   python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); t = {r["test"]: r for r in d["tests"]}; assert len(t) == 23 and t["macro"]["unit"] == "guest instructions per run" and "unit" not in t["fork"] and "macro" in d["meta"]["per_run"]' "$T/r1/bench.json"; then
	ok "report.py: the macro row per run, in a table of its own, with its unit in the CSV and JSON"
else
	cp "$T/r1.txt" "$T/out" 2>/dev/null
	fail "report.py: the macro row per run, in a table of its own, with its unit in the CSV and JSON"
fi
if python3 "$R" "$T/r2" "${suite[@]}" "${churn[@]}" > "$T/r2.txt" 2>"$T/out" &&
   [ "$(wc -l < "$T/r2/bench.csv")" -eq 28 ] &&
   [ "$(head -24 "$T/r2/bench.csv")" = "$(cat "$T/r1/bench.csv")" ] &&
   grep -q '^churn_stat,"stat",5000.0,7500.0,2500.0,5000.0,6750.0,1750.0,0.7$' "$T/r2/bench.csv" &&
   [ "$(head -30 "$T/r2.txt")" = "$(cat "$T/r1.txt")" ] &&
   grep -qE '^stat +\| +5000 +7500 +\+2500\| +5000 +6750 +\+1750\| +0\.90\| +0\.70$' "$T/r2.txt" &&
   grep -q 'stock    churner: 1280 stats, 1344 grants' "$T/r2.txt" &&
   python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); t = {r["test"]: r for r in d["tests"]}; assert len(t) == 27 and t["churn_stat"]["selinux_ratio"] == 0.9 and d["meta"]["churn"]["churner"]["stock_churn-selinux"]["grants"] == 1344' "$T/r2/bench.json"; then
	ok "report.py: the churn rows in a table of their own and after the suite's rows"
else
	cp "$T/r2.txt" "$T/out" 2>/dev/null
	fail "report.py: the churn rows in a table of their own and after the suite's rows"
fi
grep -v 'churn: 1280 stats' "$T/cps.log" > "$T/cps-dead.log"
expect_fail "report.py: a churner that did not report its end is refused" \
	"patched churn-selinux.*churner did not report" \
	python3 "$R" "$T/r3" "${suite[@]}" stock:churn-selinux:"$T/css.log" patched:churn-selinux:"$T/cps-dead.log"
{ sed '/END/d' "$T/cps.log"
  echo "$M: DENIED audit: type=1400 avc:  denied  { getattr } scontext=system_u:system_r:bench_perm_t:s0 tcontext=system_u:object_r:churn7_t:s0 tclass=file permissive=1"
  echo "$M: END"; } > "$T/cps-audit.log"
expect_fail "report.py: an audited churner denial is refused" \
	"churner denial was audited" \
	python3 "$R" "$T/r3" "${suite[@]}" patched:churn-selinux:"$T/cps-audit.log"
# A guest without a shell (sinit.c, BENCH_ARCH=sh4) says SKIP for the
# rows it cannot run: they are left out, with why; a row missing without
# a SKIP is still refused.
for f in sn ss pn ps; do
	grep -v 'fork+/bin/sh\|Make no-change\|END' "$T/$f.log" > "$T/k$f.log"
	{ echo "$M: SKIP shell fork+/bin/sh -c: no shell in this guest"
	  echo "$M: SKIP macro no-change make: no shell in this guest"
	  echo "$M: END"; } >> "$T/k$f.log"
done
skipped=(stock:none:"$T/ksn.log" stock:selinux:"$T/kss.log" patched:none:"$T/kpn.log" patched:selinux:"$T/kps.log")
if python3 "$R" "$T/r3" "${skipped[@]}" > "$T/r3.txt" 2>"$T/out" &&
   [ "$(wc -l < "$T/r3/bench.csv")" -eq 22 ] &&
   ! grep -q '^shell\|^macro' "$T/r3/bench.csv" &&
   grep -q '^not run: shell (fork+/bin/sh -c: no shell in this guest)$' "$T/r3.txt" &&
   [ "$(grep -vc '^#' "$T/r3/bench-run.dat")" -eq 0 ] &&
   python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert sorted(d["meta"]["skipped"]) == ["macro", "shell"]' "$T/r3/bench.json"; then
	ok "report.py: rows a shell-less guest skips are left out, with why"
else
	fail "report.py: rows a shell-less guest skips are left out, with why"
fi
grep -v 'SKIP shell' "$T/kps.log" > "$T/kps-missing.log"
expect_fail "report.py: a row missing without SKIP is still refused" \
	"missing results: shell" \
	python3 "$R" "$T/r3" "${skipped[@]:0:3}" patched:selinux:"$T/kps-missing.log"

# make coverage's host side (tools/testing/selinux-avc-coverage/coverage.py)
# on a made-up tree, build and dump: hooks are found through helpers and,
# without their own frame, through their security_*() caller; a hook
# under an unset #ifdef and one that nothing calls are not in the
# denominator; a hook that never reaches the AVC is not either.
C=$T/cov
mkdir -p "$C/tree/security/selinux" "$C/build"
cat > "$C/tree/security/selinux/hooks.c" <<'EOC'
static int helper(u32 sid)
{
	return avc_has_perm(sid, sid, 1, 1, NULL);
}

static int selinux_a(int x)
{
	return helper(x);
}

static int selinux_b(int x)
{
	return avc_has_perm_noaudit(x, x, 1, 1, 0, NULL);
}

static int selinux_c(int x)
{
	return 0;
}

static int selinux_d(int x)
{
	return helper(x);
}

static int selinux_e(int x)
{
	return helper(x);
}

static struct security_hook_list selinux_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(a_hook, selinux_a),
	LSM_HOOK_INIT(b_hook, selinux_b),
	LSM_HOOK_INIT(c_hook, selinux_c),
	LSM_HOOK_INIT(d_hook, selinux_d),
#ifdef CONFIG_FOO
	LSM_HOOK_INIT(e_hook, selinux_e),
#endif
};
EOC
for h in a b c d e; do
	printf 'int security_%s_hook(int x)\n{\n\treturn call_int_hook(%s_hook, x);\n}\n\n' $h $h
done > "$C/tree/security/security.c"
printf 'CONFIG_BAR=y\n' > "$C/build/.config"
printf '%s\n' '0000000000000900 T avc_cov_record' '0000000000001000 T _stext' \
	'0000000000001100 t helper' '0000000000001200 t selinux_a' '0000000000001300 t selinux_b' \
	'0000000000001400 t selinux_c' '0000000000001500 t selinux_d' '0000000000002000 T security_a_hook' \
	'0000000000002100 T security_b_hook' '0000000000002200 T security_d_hook' \
	'0000000000003000 T do_other' > "$C/build/System.map"
printf '%s\n' 'do_a security_a_hook' 'do_b security_b_hook' 'security_d_hook security_a_hook' \
	> "$C/build/calls.txt"
# Loaded 0x10000 higher than linked, as with KASLR.
printf '%s\n' 'text 11000 used 4 dropped 0' '3 0 0 10905 11105 11205 12005' \
	'0 2 0 10905 11105 12005' '1 0 4 10905 11305 12105' '1 1 0 10905 13005' > "$C/cov.dump"
if python3 "$TOP/tools/testing/selinux-avc-coverage/coverage.py" report "$C/tree" "$C/build" \
	"$C/out" cov="$C/cov.dump" > "$T/out" 2>&1 &&
   grep -q 'reach the AVC: 4; of those compiled into the guest: 2$' "$C/out/coverage.txt" &&
   grep -q 'reached: 2/2 (100.0%); with an allow and a denial: 1/2 (50.0%)' "$C/out/coverage.txt" &&
   grep -qx 'a_hook,selinux_a,selinux_hooks,1,1,1,3,2,0,cov,' "$C/out/coverage.csv" &&
   grep -qx 'b_hook,selinux_b,selinux_hooks,1,1,1,1,0,4,cov,no denial (only permissive ones)' "$C/out/coverage.csv" &&
   grep -qx 'c_hook,selinux_c,selinux_hooks,0,0,0,0,0,0,,nothing in the kernel calls security_c_hook' "$C/out/coverage.csv" &&
   grep -qx 'd_hook,selinux_d,selinux_hooks,1,0,0,0,0,0,,nothing in the kernel calls security_d_hook' "$C/out/coverage.csv" &&
   grep -qx 'e_hook,selinux_e,selinux_hooks,1,0,0,0,0,0,,not in the guest config (CONFIG_FOO not set)' "$C/out/coverage.csv" &&
   grep -q '1/1/0  do_other' "$C/out/coverage.txt"; then
	ok "coverage.py: hooks, outcomes, the denominator and the reasons"
else
	cat "$C/out/coverage.txt" "$C/out/coverage.csv" >> "$T/out" 2>/dev/null
	fail "coverage.py: hooks, outcomes, the denominator and the reasons"
fi
expect_fail "coverage.py: a missing build is reported" "no .*System.map: not a coverage build" \
	python3 "$TOP/tools/testing/selinux-avc-coverage/coverage.py" report "$C/tree" "$C/nobuild" "$C/out" cov="$C/cov.dump"
expect_fail "coverage.py: a dump without its header is refused" "no header line" \
	python3 "$TOP/tools/testing/selinux-avc-coverage/coverage.py" report "$C/tree" "$C/build" "$C/out" cov="$C/build/calls.txt"

# Every mutant in scripts/mutants.txt for this base applies, once, to the
# series as it is now (make mutants would otherwise stop at the first stale one, long
# after the edit that made it stale).  Needs the patched tree, which
# make check has built by then.
if [ -d "$PATCHED/security/selinux" ]; then
	stale=()
	for m in $(mutant_table "$TOP/scripts/mutants.txt" | awk '{ print $1 }'); do
		rm -rf "$T/mut"
		mkdir -p "$T/mut/security"
		cp -r "$PATCHED/security/selinux" "$PATCHED/security/security.c" "$T/mut/security/"
		python3 "$TOP/scripts/mutate.py" "$TOP/scripts/mutants.txt" \
			"$T/mut" "$m" >> "$T/mutout" 2>&1 || stale+=("$m")
	done
	if [ ${#stale[@]} -eq 0 ]; then
		ok "every mutant applies to the patched tree"
	else
		cp "$T/mutout" "$T/out"
		fail "mutants that no longer apply: ${stale[*]}"
	fi
else
	echo "# skipped: mutants apply (no patched tree; make tree builds it)"
fi

# A mutant's lines NAME@BASE replace its lines on that base; a catch line's
# fourth field keeps a mutant to the bases named there.
mkdir -p "$T/mb/security"
printf 'int a = 1;\nint b = 2;\n' > "$T/mb/security/x.c"
cp "$T/mb/security/x.c" "$T/mb/x.orig"
printf '%s\n' 'm1 @@ catch @@ kunit-um' 'm2 @@ catch @@ matrix @@ 6.12 9.9' \
	'm1 @@ security/x.c @@ int a = 1; @@ int a = 0;' \
	'm1@7.3 @@ security/x.c @@ int b = 2; @@ int b = 0;' > "$T/mb/spec"
if BASE=7.3 python3 "$TOP/scripts/mutate.py" "$T/mb/spec" "$T/mb" m1 > "$T/out" 2>&1 &&
   grep -q '^int a = 1;$' "$T/mb/security/x.c" && grep -q '^int b = 0;$' "$T/mb/security/x.c" &&
   cp "$T/mb/x.orig" "$T/mb/security/x.c" &&
   BASE=6.12 python3 "$TOP/scripts/mutate.py" "$T/mb/spec" "$T/mb" m1 >> "$T/out" 2>&1 &&
   grep -q '^int a = 0;$' "$T/mb/security/x.c" && grep -q '^int b = 2;$' "$T/mb/security/x.c" &&
   [ "$(BASE=7.3 mutant_table "$T/mb/spec" | tr '\n' ,)" = "m1 kunit-um," ] &&
   [ "$(BASE=9.9 mutant_table "$T/mb/spec" | tr '\n' ,)" = "m1 kunit-um,m2 matrix," ]; then
	ok "mutants: NAME@BASE lines replace NAME's on that base; catch lines name their bases"
else
	fail "mutants: NAME@BASE lines replace NAME's on that base; catch lines name their bases"
fi

# 18. make testsuite: bad input is refused with a clear message before
#     anything is built or written, and the user's checkout is only read.
#     (The suite itself is not a Debian package: the real run is not part
#     of check.)
# checkout_refusals TARGET VAR WHAT FILE: make TARGET (scripts/TARGET.sh)
# refuses VAR unset, a directory that does not exist and one without FILE
# (its checkout's first), which is not WHAT.
checkout_refusals() {
	local target=$1 var=$2 what=$3 file=$4 b=$T/$1-build
	expect_fail "make $target without $var says how to call it" \
		"$var is not set: make $target $var=DIR" \
		env BUILD="$b" "$var=" "$TOP/scripts/$target.sh"
	expect_fail "make $target with a missing $var directory" \
		"$var=$T/no-$target: no such directory" \
		env BUILD="$b" "$var=$T/no-$target" "$TOP/scripts/$target.sh"
	mkdir -p "$T/not-$target/${file%/*}"
	expect_fail "make $target with a directory that is not $what" \
		"is not $what: it has no $file" \
		env BUILD="$b" "$var=$T/not-$target" "$TOP/scripts/$target.sh"
}
tsb=$T/ts-build
checkout_refusals testsuite TESTSUITE "a selinux-testsuite checkout" tests/Makefile
# A fake checkout: the files the script looks for and two tests.
mkdir -p "$T/suite/tests/file" "$T/suite/tests/inet_socket" "$T/suite/policy"
touch "$T/suite/tests/Makefile" "$T/suite/tests/runtests.pl" "$T/suite/policy/Makefile" \
	"$T/suite/tests/file/test" "$T/suite/tests/inet_socket/test"
ln -s . "$T/suite/tests/inet_socket/tcp"
(cd "$T/suite" && find . -printf '%p %s %T@\n' | sort) > "$T/suite.before"
expect_fail "make testsuite names a test the checkout does not have" \
	"the suite has no test 'nosuch' \(no tests/nosuch/test" \
	env BUILD="$tsb" TESTSUITE="$T/suite" TESTSUITE_TESTS="file nosuch" "$TOP/scripts/testsuite.sh"
expect_fail "make testsuite refuses a test name that is not a directory name" \
	"'../x' is not a test directory name" \
	env BUILD="$tsb" TESTSUITE="$T/suite" TESTSUITE_TESTS="../x" "$TOP/scripts/testsuite.sh"
expect_fail "make testsuite refuses a timeout that is not a number" \
	"TESTSUITE_TIMEOUT must be a number of seconds" \
	env BUILD="$tsb" TESTSUITE="$T/suite" TESTSUITE_TIMEOUT=1h "$TOP/scripts/testsuite.sh"
if env BUILD="$tsb" TESTSUITE="$T/suite" TESTSUITE_TESTS="file inet_socket/tcp" \
	"$TOP/scripts/testsuite.sh" --check-input > "$T/out" 2>&1; then
	ok "make testsuite accepts a checkout and its test names (--check-input)"
else
	fail "make testsuite accepts a checkout and its test names (--check-input)"
fi
# Missing tools: a PATH with only what the script needs before it looks
# for them (no mmdebstrap, genext2fs, qemu): one apt-get line names them.
mkdir -p "$T/tsbin"
for t in bash dirname sed tr ls nproc cat head; do
	ln -sf "$(command -v $t)" "$T/tsbin/$t"
done
expect_fail "make testsuite without its tools prints the apt-get line" \
	"missing packages for make testsuite: apt-get install -y mmdebstrap genext2fs.* qemu-system-x86" \
	env PATH="$T/tsbin" BUILD="$tsb" TESTSUITE="$T/suite" "$TOP/scripts/testsuite.sh"
if [ ! -e "$tsb/testsuite" ] && (cd "$T/suite" && find . -printf '%p %s %T@\n' | sort) | cmp -s - "$T/suite.before"; then
	ok "make testsuite's refusals write nothing and leave the checkout as it was"
else
	fail "make testsuite's refusals write nothing and leave the checkout as it was"
fi

# 18b. make lmbench: bad input, a missing tool and missing kernels are
#      refused before anything is built; the user's checkout is only read,
#      also when lmbench is built from it (a fake checkout of trivial
#      sources, --build-only: no guests); lmbench.py's table from fake
#      guest logs.  (lmbench is not a Debian package: the real run is not
#      part of check.)
lmb=$T/lm-build
checkout_refusals lmbench LMBENCH "an lmbench checkout" src/bench.h
# A fake checkout, a git one: what the script reads, as trivial C.
mkdir -p "$T/lmbench/src"
echo '/* bench.h */' > "$T/lmbench/src/bench.h"
for f in lib_tcp lib_udp lib_unix lib_timing lib_mem lib_stats lib_debug getopt lib_sched; do
	echo "int $f;" > "$T/lmbench/src/$f.c"
done
for f in lat_syscall lat_pipe lat_unix lat_unix_connect lat_proc lat_mmap lat_fs hello; do
	echo 'int main(void) { return 0; }' > "$T/lmbench/src/$f.c"
done
git -C "$T/lmbench" init -q && kgit "$T/lmbench" add -A && kgit "$T/lmbench" commit -q -m lmbench
mv "$T/lmbench/src/lat_fs.c" "$T/lat_fs.c"
expect_fail "make lmbench names a program source the checkout lacks" \
	"is not an lmbench checkout: it has no src/lat_fs.c" \
	env BUILD="$lmb" LMBENCH="$T/lmbench" "$TOP/scripts/lmbench.sh"
mv "$T/lat_fs.c" "$T/lmbench/src/lat_fs.c"
(cd "$T/lmbench" && find . -printf '%p %s %T@\n' | sort) > "$T/lmbench.before"
expect_fail "make lmbench refuses an ENOUGH that is not a number" \
	"LMBENCH_ENOUGH must be a positive integer, not '5ms'" \
	env BUILD="$lmb" LMBENCH="$T/lmbench" LMBENCH_ENOUGH=5ms "$TOP/scripts/lmbench.sh"
mkdir -p "$T/lmbin"
for t in bash dirname sed tr ls nproc cat head awk sort; do
	ln -sf "$(command -v $t)" "$T/lmbin/$t"
done
expect_fail "make lmbench without its tools prints the apt-get line" \
	"missing packages for make lmbench: apt-get install -y gcc binutils gzip checkpolicy qemu-system-x86 busybox-static python3" \
	env PATH="$T/lmbin" BUILD="$lmb" LMBENCH="$T/lmbench" "$TOP/scripts/lmbench.sh"
if env BUILD="$lmb" LMBENCH="$T/lmbench" "$TOP/scripts/lmbench.sh" >"$T/out" 2>&1; then
	fail "make lmbench without kernels (succeeded)"
elif grep -q 'no stock kernel: .*stock-x86_64-guest/arch/x86/boot/bzImage is missing; build it first: scripts/build.sh stock x86_64-guest$' "$T/out" &&
     grep -q 'no patched kernel: .*patched-x86_64-guest/arch/x86/boot/bzImage is missing; build it first: scripts/build.sh patched x86_64-guest$' "$T/out" &&
     [ ! -e "$lmb/lmbench" ] && [ ! -e "$lmb/guest" ]; then
	ok "make lmbench without kernels names both and how to build them, and builds nothing"
else
	fail "make lmbench without kernels names both and how to build them, and builds nothing"
fi
if env BUILD="$lmb" LMBENCH="$T/lmbench" "$TOP/scripts/lmbench.sh" --build-only >"$T/out" 2>&1 &&
   [ -x "$lmb/lmbench/bin/lat_syscall" ] && [ -x "$lmb/lmbench/bin/hello" ] &&
   (cd "$T/lmbench" && find . -printf '%p %s %T@\n' | sort) | cmp -s - "$T/lmbench.before" &&
   [ -z "$(git -C "$T/lmbench" status --porcelain)" ]; then
	ok "make lmbench builds from a copy and leaves the checkout as it was (files, times, git index)"
else
	fail "make lmbench builds from a copy and leaves the checkout as it was (files, times, git index)"
fi
# lmbench.py: four fake guest logs (every run of lmbench.conf; stat
# costs 1000 instructions without SELinux, +500 on stock, +100 patched)
# and a bench.csv with make bench's stat row (+1000, +250).
lm_log() {
	local us=$2 mmap=$3 rate=$4 r
	{
		echo "SELINUX-AVC-BENCH: BEGIN $1"
		echo "SELINUX-AVC-BENCH: CONTEXT $([ "${1%% *}" = mode=none ] && echo none || echo system_u:system_r:bench_t:s0)"
		echo "SELINUX-AVC-BENCH: LMBENCH-ENV ENOUGH=5000 TIMING_O=0 LOOP_O=0"
		for r in null read write stat fstat open pipe unix unix_connect fork exec; do
			echo "SELINUX-AVC-BENCH: LMBENCH $r Simple $r: $us microseconds"
			echo "SELINUX-AVC-BENCH: LMBENCH-END $r 0"
		done
		echo "SELINUX-AVC-BENCH: LMBENCH mmap 0.524288 $mmap"
		for r in 0k 1k 4k 10k; do
			printf 'SELINUX-AVC-BENCH: LMBENCH fs %s\t100\t%s\t%s\n' $r "$rate" "$rate"
		done
		echo "SELINUX-AVC-BENCH: LMBENCH-END mmap 0"
		echo "SELINUX-AVC-BENCH: LMBENCH-END fs 0"
		echo "SELINUX-AVC-BENCH: END"
	}
}
mkdir -p "$T/lmres"
lm_log "mode=none policy=none" 1.0000 20 50000 > "$T/lmres/none.log"
lm_log "mode=enforcing policy=project" 1.5000 21 40000 > "$T/lmres/stock.log"
lm_log "mode=enforcing policy=project" 1.1000 20 50000 > "$T/lmres/patched.log"
printf '%s\n' 'test,description,stock_none,stock_selinux,stock_overhead,patched_none,patched_selinux,patched_overhead,ratio' \
	'stat,"stat",2700.0,3700.0,1000.0,2700.0,2950.0,250.0,0.25' > "$T/lmres/bench.csv"
if python3 "$TOP/tools/testing/selinux-avc-bench/lmbench.py" --bench "$T/lmres/bench.csv" "$T/lmres" stock:none:"$T/lmres/none.log" \
	stock:selinux:"$T/lmres/stock.log" patched:none:"$T/lmres/none.log" \
	patched:selinux:"$T/lmres/patched.log" > "$T/lmres/lmbench.txt" 2>"$T/out" &&
   grep -qE '^lat_syscall stat +\| +1000 +1500 +\+500\| +1000 +1100 +\+100\| +0\.20\| +\+1000\| +\+250\| +0\.25\| +0\.50\| +0\.40$' "$T/lmres/lmbench.txt" &&
   grep -qE '^lat_fs 0k create +\| +20000 +25000 +\+5000\| +20000 +20000 +\+0\| +0\.00\| +-\| +-\| +-\| +-\| +-$' "$T/lmres/lmbench.txt" &&
   grep -qE '^lat_fs 1k create +\| .*\| +no row\| +no row\| +no row\| +no row\| +no row$' "$T/lmres/lmbench.txt" &&
   grep -q '^no make bench row for: lat_fs 1k create, ' "$T/lmres/lmbench.txt" &&
   grep -q '^stat,"lat_syscall stat","lat_syscall stat /usr/include/sys/types.h",1000.0,1500.0,500.0,1000.0,1100.0,100.0,0.2,stat,1000.0,250.0,0.25,0.5,0.4$' "$T/lmres/lmbench.csv" &&
   python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(len(d["tests"]) != 20)' "$T/lmres/lmbench.json"; then
	ok "lmbench.py: instructions per operation, overheads, and make bench's row beside them"
else
	cat "$T/lmres/lmbench.txt" >> "$T/out" 2>/dev/null
	fail "lmbench.py: instructions per operation, overheads, and make bench's row beside them"
fi
sed -i 's|LMBENCH exec Simple exec: .*|LMBENCH exec execve: Permission denied|; s|LMBENCH-END exec 0|LMBENCH-END exec 1|' \
	"$T/lmres/patched.log"
echo "SELINUX-AVC-BENCH: DENIED avc:  denied  { map } for pid=9 scontext=system_u:system_r:bench_t:s0 tcontext=system_u:object_r:bench_tmp_t:s0 tclass=file permissive=0" >> "$T/lmres/stock.log"
expect_fail "lmbench.py: a run that printed no figure is named, with its exit status and output" \
	"patched selinux .*lmbench run exec \(lat_proc exec, exit status 1\).*execve: Permission denied" \
	python3 "$TOP/tools/testing/selinux-avc-bench/lmbench.py" "$T/lmres" patched:selinux:"$T/lmres/patched.log"
expect_fail "lmbench.py: a denial of the benchmark domain is an error" \
	"stock selinux .*the benchmark domain met a denial.*\{ map \}" \
	python3 "$TOP/tools/testing/selinux-avc-bench/lmbench.py" "$T/lmres" stock:selinux:"$T/lmres/stock.log"

# make coverage's kernel change applies to the series as it is now.
if [ -d "$PATCHED/security/selinux" ]; then
	rm -rf "$T/cov"
	mkdir -p "$T/cov/security"
	cp -r "$PATCHED/security/selinux" "$T/cov/security/"
	if python3 "$TOP/scripts/mutate.py" "$TOP/tools/testing/selinux-avc-coverage/coverage.txt" \
		"$T/cov" coverage > "$T/out" 2>&1; then
		ok "the coverage instrumentation applies to the patched tree"
	else
		fail "the coverage instrumentation no longer applies to the patched tree"
	fi
else
	echo "# skipped: coverage instrumentation applies (no patched tree; make tree builds it)"
fi

# results.py: results/RESULTS.md from an empty results/, and from one with
# a bench run on two architectures (bench.csv as report.py writes it), a
# header-only bench.csv and a broken bench.json: no crash, sections per
# architecture, the series from patches/, and what was not run.
RP=$TOP/scripts/results.py
mkdir -p "$T/res0"
if python3 "$RP" "$T/res0" > "$T/out" 2>&1 &&
   grep -q '^Nothing has been run' "$T/res0/RESULTS.md" &&
   grep -q '^No output in results/ of: `make bench`, `make bench-os`, ' "$T/res0/RESULTS.md"; then
	ok "results.py: an empty results/ gives a document saying nothing has been run"
else
	fail "results.py: an empty results/ gives a document saying nothing has been run"
fi
mkdir -p "$T/res1/arm64-guest" "$T/res1/x86_64-guest+os"
printf '%s\n' 'test,description,stock_none,stock_selinux,stock_overhead,patched_none,patched_selinux,patched_overhead,ratio' \
	'stat,"stat",3000.0,3900.0,900.0,3000.0,3600.0,600.0,0.667' \
	'macro,"no-change make (sh script) (instructions per run)",400000000.0,520000000.0,120000000.0,400000000.0,480000000.0,80000000.0,0.667' \
	> "$T/res1/bench.csv"
cp "$T/res1/bench.csv" "$T/res1/arm64-guest/bench.csv"
head -1 "$T/res1/bench.csv" > "$T/res1/x86_64-guest+os/bench.csv"
echo '{' > "$T/res1/bench.json"
np=$(ls "$PATCHDIR" | grep -E '^[0-9]{4}-.*\.patch$' | grep -vc '^0000-' || true)
if python3 "$RP" "$T/res1" > "$T/out" 2>&1 &&
   [ "$(grep -cx '| stat | 3,000 | 3,900 | +900 | 3,000 | 3,600 | +600 | 0.67 |' "$T/res1/RESULTS.md")" -eq 2 ] &&
   grep -qx '| no-change make (sh script) | 400,000,000 | 520,000,000 | +120,000,000 | 400,000,000 | 480,000,000 | +80,000,000 | 0.67 |' "$T/res1/RESULTS.md" &&
   grep -q '^## .*: x86_64$' "$T/res1/RESULTS.md" && grep -q '^## .*: arm64$' "$T/res1/RESULTS.md" &&
   grep -qE "^Series: (v[0-9]+, )?$np patches" "$T/res1/RESULTS.md" &&
   grep -q '^Machine: ' "$T/res1/RESULTS.md" && grep -q '^Run: ' "$T/res1/RESULTS.md" &&
   grep -q '^No output in results/ of: `make bench-os`, `BENCH_ARCH=arm64 make bench-os`, ' "$T/res1/RESULTS.md"; then
	ok "results.py: a bench run per architecture, a partial run and broken JSON"
else
	cat "$T/res1/RESULTS.md" >> "$T/out" 2>/dev/null
	fail "results.py: a bench run per architecture, a partial run and broken JSON"
fi

# bases.py: the comparison across bases from two bench.csv files: the
# overheads of both bases, upstream's gain and the series' ratio per row,
# a row the default base lacks, and the neveraudit rows after the rest.
mkdir -p "$T/bases/6.12"
printf '%s\n' 'test,description,stock_none,stock_selinux,stock_overhead,patched_none,patched_selinux,patched_overhead,ratio' \
	'stat,"stat",2700.0,3460.0,760.0,2700.0,2890.0,190.0,0.25' \
	> "$T/bases/6.12/bench.csv"
printf '%s\n' 'test,description,stock_none,stock_selinux,stock_overhead,patched_none,patched_selinux,patched_overhead,ratio' \
	'stat,"stat",2200.0,2860.0,660.0,2200.0,2365.0,165.0,0.25' \
	'newrow,"a row only 7.3 has",100.0,150.0,50.0,100.0,125.0,25.0,0.5' \
	'na_stat,"stat",2200.0,2300.0,100.0,2200.0,2300.0,100.0,1.0' \
	> "$T/bases/bench.csv"
if python3 "$TOP/scripts/bases.py" 6.12 "$T/bases/6.12" 7.3 "$T/bases" "$T/bases" > "$T/out" 2>&1 &&
   grep -qE '^stat +\| +\+760 +\+190\| +\+660 +\+165\| +0\.87 +0\.25\| +0\.87$' "$T/bases/bases.txt" &&
   grep -qE '^a row only 7\.3 has +\| +- +-\| +\+50 +\+25\| +- +0\.50\| +-$' "$T/bases/bases.txt" &&
   [ "$(tail -1 "$T/bases/bases.csv" | cut -d, -f1)" = na_stat ] &&
   grep -q '^stat,stat,2700.0,760.0,190.0,2200.0,660.0,165.0,0.868,0.25,0.868$' "$T/bases/bases.csv"; then
	ok "bases.py: both bases' overheads, upstream's gain and the series' ratio per row"
else
	cat "$T/bases/bases.txt" "$T/bases/bases.csv" >> "$T/out" 2>/dev/null
	fail "bases.py: both bases' overheads, upstream's gain and the series' ratio per row"
fi

# make memory: bad input and missing kernels or tools are refused before
# anything is built or booted; memfill, the memory guest's program, makes
# and checks its files (on the host); memory.py's own tests.
MEM=$TOP/tools/testing/selinux-avc-memory
if env BUILD="$T/mem" QEMU=true "$TOP/scripts/memory.sh" >"$T/out" 2>&1; then
	fail "make memory without kernels (succeeded)"
elif grep -q 'no stock kernel: .*stock-x86_64-guest/arch/x86/boot/bzImage is missing' "$T/out" &&
     grep -q 'no patched kernel: .*patched-x86_64-guest/arch/x86/boot/bzImage is missing' "$T/out" &&
     grep -q 'build it first: scripts/build.sh <stock|patched> x86_64-guest (make kernel' "$T/out" &&
     [ ! -e "$T/mem/guest" ]; then
	ok "make memory without kernels names both and how to build them"
else
	fail "make memory without kernels names both and how to build them"
fi
expect_fail "make memory: a CPU count that is not one is refused" \
	"MEMORY_SMP: 'two' is not a CPU count" \
	env BUILD="$T/mem" QEMU=true MEMORY_SMP="1 two" "$TOP/scripts/memory.sh"
expect_fail "make memory without qemu prints the apt-get line" \
	"missing packages for make memory: apt-get install -y qemu-system-x86 busybox-static" \
	env BUILD="$T/mem" QEMU="$T/no-qemu" "$TOP/scripts/memory.sh"
if make -s -C "$MEM" OUT="$T" LDFLAGS= CFLAGS="-O2 -Wall -Wextra -Werror" >"$T/out" 2>&1 &&
   [ "$("$T/memfill" "$T/mf" 50 7 2>"$T/out")" = "memfill: files 50 dirs 8 stat 58 pagesize $(getconf PAGESIZE)" ] &&
   [ "$(find "$T/mf" -type f -size 0 | wc -l)" -eq 50 ] &&
   [ "$(find "$T/mf" -mindepth 1 -type d | wc -l)" -eq 8 ] && [ -f "$T/mf/d0007/f00000" ] &&
   ! "$T/memfill" "$T/mf" 5 >>"$T/out" 2>&1 && grep -q "memfill: mkdir $T/mf: File exists" "$T/out" &&
   ! "$T/memfill" "$T/mf2" 0 >>"$T/out" 2>&1 && grep -q "memfill: bad iteration count '0'" "$T/out"; then
	ok "memfill makes 50 empty files in 8 directories, stats them, refuses an existing directory and a count of 0"
else
	fail "memfill makes 50 empty files in 8 directories, stats them, refuses an existing directory and a count of 0"
fi
if python3 "$MEM/memory_test.py" >"$T/out" 2>&1; then
	ok "memory.py: per-inode, per-CPU and per-policy figures, its files, the logs it refuses ($(grep -o 'Ran [0-9]* tests' "$T/out"))"
else
	fail "memory.py: its tests (memory_test.py)"
fi

echo "$pass passed, $failn failed"
[ $failn -eq 0 ]
