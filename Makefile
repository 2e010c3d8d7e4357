# SPDX-License-Identifier: GPL-2.0
# SELinux per-CPU AVC decision cache: build, test and benchmark driver.
# Every target does its own setup; see 'make help'.

KSRC ?=
BASE ?=
JOBS ?= $(shell nproc)
CI ?=
BENCH_ARCH ?= x86_64
TESTSUITE ?=
LMBENCH ?=
export KSRC BASE JOBS CI BENCH_ARCH TESTSUITE LMBENCH

S := scripts

.PHONY: help deps source tree apply kernel kernel-stock kernel-patched kernel-matrix kunit \
	kunit-um kunit-x86_64 kunit-i386 kunit-arm64 sparse configs checkpatch series check check-7.3 test-scripts \
	bench bench-os paper results profile cache walk scale memory microbench stress window matrix coverage testsuite lmbench litmus debug mutants mutant-kernel bisect check-cross export clean distclean

help:
	@echo 'SELinux per-CPU AVC decision cache for Linux 6.12.y and 7.3.y (BASE=)'
	@echo
	@echo 'Main commands:'
	@echo '  make bench        build stock and patched kernels, run the syscall benchmarks,'
	@echo '                    print the table, write results/ (CSV, JSON, PNG);'
	@echo '                    BENCH_ARCH=arm64: cross-built arm64 kernels on qemu -M virt,'
	@echo '                    results in results/arm64-guest/; BENCH_ARCH=sh4: SH4 on'
	@echo '                    qemu -M r2d, results/sh4-guest/ (guest programs on musl built'
	@echo '                    here: see README); configs/arch/ lists the arches'
	@echo '  make check        all tests: series applies, checkpatch, sparse, KUnit (x86_64'
	@echo '                    matrix guest and i386, qemu -smp 2), matrix, script tests; and for'
	@echo '                    the 7.3 series: applies, checkpatch, every commit builds, KUnit'
	@echo '                    (x86_64 -smp 2); ends with "N passed, N failed"'
	@echo '  make check-7.3    all of make check on the 7.3 base (BASE=7.3 make check)'
	@echo
	@echo 'Steps:'
	@echo '  make deps         install the Debian packages (the one step that needs root:'
	@echo '                    sudo make deps); as a user, print the sudo and su -c lines'
	@echo '  make source       unpack the kernel source into build/src/<id>/pristine (git, tag avc-base)'
	@echo '  make tree         pristine + series -> build/src/<id>/patched (branch avc-pcpu)'
	@echo '  make kernel       x86_64 guest kernels, stock and patched, in build/out/<id>/'
	@echo '  make kernel-matrix  the same with configs/matrix.config (SysV IPC, POSIX'
	@echo '                    message queues, keys): the kernels of matrix and check'
	@echo '  make kunit        KUnit suites on UML and on x86_64 qemu -smp 2'
	@echo '  make kunit-i386   KUnit suites on a 32-bit x86 kernel, qemu -smp 2'
	@echo '  make kunit-arm64  KUnit suites on arm64 qemu -smp 2 (cross-built)'
	@echo '  make check-cross  the tests kept out of check: KUnit on x86_64 and arm64 (-smp 2)'
	@echo '                    and on SH4 (one CPU); make configs; the decision matrix on arm64'
	@echo '  make sparse       sparse C=2 on security/selinux, patched vs stock'
	@echo '  make configs      security/selinux builds with the cache off, its stats off, 16 and 256 slots,'
	@echo '                    KUnit as a module, Debian'"'"'s config (in check-cross)'
	@echo '  make checkpatch   checkpatch.pl --strict on the exported series'
	@echo '  make series       git format-patch series with cover letter in build/series/'
	@echo '  make apply KSRC=DIR  apply the series to your clean 6.12.y or 7.3.y git tree as commits'
	@echo '                    on a new branch avc-pcpu (the only target that writes to KSRC)'
	@echo '  make bench-os     the benchmark with CONFIG_CC_OPTIMIZE_FOR_SIZE kernels'
	@echo '  make paper        the 2007 SH4 table (SELinux over no SELinux, -O2/-Os) from'
	@echo '                    every make bench/bench-os run in results/, per architecture'
	@echo '  make results      write results/RESULTS.md again from what is in results/'
	@echo '  make profile OP=row  where the SELinux cost of one bench row goes: guest'
	@echo '                    instructions per op and per function under security/,'
	@echo '                    SELinux minus lsm=capability, stock and patched (qemu plugin;'
	@echo '                    BENCH_ARCH=arm64 or sh4 for those guests)'
	@echo '  make cache OP=row  the same row in a cache model (a server and a phone core):'
	@echo '                    L1i/L1d/L2/LLC misses per op and a modelled cost, SELinux'
	@echo '                    minus lsm=capability, stock and patched; CACHE_COLD=1 adds'
	@echo '                    the first operation after every level is emptied'
	@echo '  make walk         the path walk row in the cache model as its tree grows (1k to'
	@echo '                    50k files, WALK_TREES=...), warm and cold, stock and patched'
	@echo '  make scale        the working-set sweep on the whole system: null signals to'
	@echo '                    16 to 8,192 processes, each at a level of its own, in turn;'
	@echo '                    cost per check, stock and patched, and where the checks were'
	@echo '                    answered (per-CPU cache, bypass, AVC); results/scale.{txt,csv,png}'
	@echo '  make memory       memory the series costs, measured: slab caches, per-CPU and'
	@echo '                    policy memory in stock and patched guests (-smp 1 and 4),'
	@echo '                    after the bench workload and with 100,000 files; per inode,'
	@echo '                    per CPU, per policy; results/<base>/memory.{txt,csv,json}'
	@echo '  make microbench   in-kernel avc_has_perm microbenchmark and working-set sweep (UML ns, x86_64 instructions; MICROBENCH_SLOTS=...)'
	@echo '  make matrix       decision/audit matrix, stock vs patched vs policy (part of check)'
	@echo '  make coverage     the matrix on a patched kernel that records each AVC decision'
	@echo '                    by caller: per SELinux hook, did it run, with an allow, with'
	@echo '                    a denial; results/coverage.{txt,csv} (not part of check)'
	@echo '  make testsuite TESTSUITE=DIR  the SELinux project'"'"'s selinux-testsuite (your'
	@echo '                    checkout in DIR, only read) in a Debian guest on the stock and'
	@echo '                    patched kernels, pass/fail lists compared; a subset of under'
	@echo '                    30 min, TESTSUITE_TESTS=all for the whole suite;'
	@echo '                    results/testsuite.{txt,json} (not part of check)'
	@echo '  make lmbench LMBENCH=DIR  lmbench'"'"'s own lat_syscall, lat_pipe, lat_unix,'
	@echo '                    lat_unix_connect, lat_proc, lat_mmap and lat_fs (your checkout in'
	@echo '                    DIR, only read; built static in build/lmbench/) in make bench'"'"'s'
	@echo '                    guests (built kernels: make kernel), SELinux and lsm=capability,'
	@echo '                    stock and patched; beside make bench'"'"'s rows of the same'
	@echo '                    operations; results/lmbench.{txt,csv,json} (not part of check)'
	@echo '  make stress       multi-CPU reload/check race stress in qemu -smp 2'
	@echo '  make window       widen stock'"'"'s setenforce window: stress fails on stock, passes with the fix'
	@echo '  make litmus [HERD7=path]  litmus tests of the series'"'"' orderings under the kernel'"'"'s'
	@echo '                    memory model (herd7; not part of check)'
	@echo '  make debug        KUnit and stress on KASAN+lockdep+atomic-sleep+preempt and on KCSAN kernels'
	@echo '  make mutants [MUTANT=name]  break the series on purpose; each tool named'
	@echo '                    for a mutant in scripts/mutants.txt must catch it'
	@echo '  make mutant-kernel [MUTANT=name]  a broken guest kernel; the matrix must catch it'
	@echo '  make bisect       every commit of the series builds (x86_64 guest + KUnit suite)'
	@echo '  make export       developer: turn the patched tree'"'"'s commits back into patches/'
	@echo '  make clean        remove build outputs but keep the unpacked source'
	@echo '  make distclean    remove build/ and results/'
	@echo
	@echo 'Options:'
	@echo '  BASE=B     the kernel base, one of configs/base/ (6.12, the default, or 7.3):'
	@echo '             its Debian source, its series (patches/B/), its results (results/B/)'
	@echo '  KSRC=DIR   use your own 6.12.y or 7.3.y tree (read only; cloned or copied into'
	@echo '             build/; the base follows its version)'
	@echo '  JOBS=N     parallel make jobs (default: nproc)'
	@echo '  CI=true    what .ci/run sets: no interactive output assumptions'

deps:
	@$(S)/deps.sh

source: deps
	@$(S)/source.sh

tree: source
	@$(S)/tree.sh

apply:
	@$(S)/apply.sh

kernel-stock: source
	@$(S)/build.sh stock

kernel-patched: tree
	@$(S)/build.sh patched

kernel: kernel-stock kernel-patched

# The matrix's guest kernels (x86_64-guest+matrix, MATRIX_FLAVOR in
# scripts/lib.sh): the ones make check builds and its steps use.
kernel-matrix: source tree
	@$(S)/build.sh stock x86_64-guest+matrix
	@$(S)/build.sh patched x86_64-guest+matrix

kunit-um: tree
	@$(S)/kunit.sh um

kunit-x86_64: tree
	@$(S)/kunit.sh x86_64

kunit-i386: tree
	@$(S)/kunit.sh i386

kunit-arm64: tree
	@$(S)/deps.sh cross
	@$(S)/kunit.sh arm64

kunit: kunit-um kunit-x86_64 kunit-i386

sparse: kernel-matrix
	@$(S)/sparse.sh

configs: kernel-matrix
	@$(S)/configs.sh

series: tree
	@$(S)/series.sh

checkpatch: series
	@$(S)/checkpatch.sh

test-scripts: deps
	@$(S)/test-scripts.sh

check: deps
	@$(S)/check.sh

check-7.3:
	@BASE=7.3 $(S)/deps.sh
	@BASE=7.3 $(S)/check.sh

check-cross: deps
	@$(S)/check.sh cross

bench: deps
	@$(S)/bench-all.sh

bench-os: deps
	@$(S)/bench-all.sh os

paper:
	@$(S)/paper.py results

results:
	@$(S)/results.py results

profile: kernel
	@$(S)/profile.sh $(OP)

cache: kernel
	@$(S)/cache.sh $(OP)

walk: kernel
	@$(S)/walk.sh

scale: kernel
	@$(S)/scale.sh

memory: kernel
	@$(S)/memory.sh

microbench: tree
	@$(S)/microbench.sh um x86_64

matrix: kernel-matrix
	@$(S)/matrix.sh

coverage: tree
	@$(S)/coverage.sh

# The selinux-testsuite guest's kernels: the matrix guest plus
# configs/testsuite.config.  Bad input is reported before anything builds.
TESTSUITE_FLAVOR := x86_64-guest+matrix+testsuite
testsuite:
	@$(S)/testsuite.sh --check-input $(TESTSUITE_FLAVOR)
	@$(S)/deps.sh build source guest testsuite
	@$(S)/source.sh
	@$(S)/tree.sh
	@$(S)/build.sh stock $(TESTSUITE_FLAVOR)
	@$(S)/build.sh patched $(TESTSUITE_FLAVOR)
	@$(S)/testsuite.sh $(TESTSUITE_FLAVOR)

# lmbench's own programs in make bench's guests; the kernels are make
# bench's (make kernel), which it does not build.
lmbench:
	@$(S)/lmbench.sh

stress: kernel-patched
	@$(S)/stress.sh

window: kernel
	@$(S)/window.sh

litmus: source
	@$(S)/litmus.sh

debug: tree
	@$(S)/debug.sh

mutants: tree
	@$(S)/mutants.sh $(MUTANT)

mutant-kernel: kernel-matrix
	@$(S)/mutant-kernel.sh $(MUTANT)

bisect: kernel-matrix
	@$(S)/bisect.sh

export:
	@$(S)/export.sh

clean:
	rm -rf build/out build/series build/logs build/guest build/tools

distclean:
	rm -rf build results
