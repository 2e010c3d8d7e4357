#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: the SELinux decision matrix on the stock and the patched
# guest kernel (one boot each, qemu TCG with -icount), compared case by
# case with each other and with the outcome predicted from the policy
# source (tools/testing/selinux-avc-matrix/matrix.py): outcomes, audit
# records, and the labels of the objects the cases create and of the
# processes they exec (type_transition).  Then, in the same boot, the
# label reference (avclabels.c): random keys across reloads, boolean
# changes and setenforce, each label against the uncached answer of
# /sys/fs/selinux/create.  Last, one process in a confined domain from
# permissive to enforcing mode (avcmatrix dirstale): a directory search
# that the policy denies must be denied after setenforce 1.  Any
# difference fails.
#
# Usage: matrix.sh [FLAVOR]      (default x86_64-guest+matrix: the benchmark
#                                guest plus configs/matrix.config)
# Environment:
#   KERNELS="stock patched patched-off"
#                            kernels to run (the first is the reference);
#                            NAME-off is kernel NAME booted with
#                            selinux_avc_pcpu=0 (the cache and the fast
#                            paths off: the stock hooks it registers then)
#   KERNEL_<name>=bzImage    use this image for kernel <name> instead of
#                            build/out/debian/<name>-FLAVOR (e.g. a mutant)
#   MATRIX_TIMEOUT=S         seconds before a guest is killed (default 600)
#   MATRIX_THRESHOLD=N       set /sys/fs/selinux/avc/cache_threshold to N in
#                            the guest (default 2048: the matrix's cases
#                            keep up to about 1,130 AVC nodes, which the kernel's
#                            default, 512, would reclaim; empty: the
#                            kernel's default); a small N makes the AVC
#                            reclaim nodes during the run, which changes
#                            when permissive denials are audited again
# Outputs: build/matrix/<kernel>/{console.log,matrix.out},
# build/matrix/expected.out, results/matrix.txt (summary).
. "$(dirname "$0")/lib.sh"
lock_build

flavor=${1:-$MATRIX_FLAVOR}
KERNELS=${KERNELS:-stock patched patched-off}
MATRIX_TIMEOUT=${MATRIX_TIMEOUT:-600}
MATRIX_THRESHOLD=${MATRIX_THRESHOLD-2048}
case ${MATRIX_THRESHOLD:-1} in ''|*[!0-9]*) die "MATRIX_THRESHOLD must be a number" ;; esac
QEMU=${QEMU:-$BA_QEMU}
MX=$TOP/tools/testing/selinux-avc-matrix
# BENCH_ARCH's guest (make check-cross runs it on arm64): its own
# directory, the same policy and cases.
OUT=$MATRIX_DIR
export MATRIX_OUT=$OUT
if [ "$BENCH_ARCH" = x86_64 ]; then
	RESULTS=${RESULTS:-$RESULTS_TOP}
else
	RESULTS=${RESULTS:-$RESULTS_TOP/$BA_FRAGMENT}
fi

[ "$BA_INIT" = busybox ] || die "the matrix guest needs busybox, which BENCH_ARCH=$BENCH_ARCH has not"
for t in "$QEMU:${BA_PACKAGES##* }" python3:python3 base64:coreutils; do
	command -v "${t%%:*}" >/dev/null ||
		die "${t%%:*} not found: apt-get install ${t#*:} (or run scripts/deps.sh)"
done

image() { guest_image "${1%-off}" "$flavor"; }
# The extra kernel command line of a kernel name.
cmdline() { case $1 in *-off) echo " selinux_avc_pcpu=0" ;; esac; }

# shellcheck disable=SC2086
need_guest_images "$flavor" $(for k in $KERNELS; do echo "${k%-off}"; done | sort -u)

start=$SECONDS
"$MX/guest.sh"
initrd=$OUT/initrd.gz

# One guest per kernel, in parallel; deterministic virtual clock.
boot() {
	local k=$1 dir=$OUT/$1
	mkdir -p "$dir"
	rm -f "$dir/console.log" "$dir/matrix.out"
	# shellcheck disable=SC2086 # BA_QEMU_ARGS: several arguments
	timeout --foreground -k 5 "$MATRIX_TIMEOUT" "$QEMU" $BA_QEMU_ARGS -accel tcg \
		-icount shift=0,sleep=off -rtc base=2025-01-01T00:00:00,clock=vm \
		-smp 1 -m 512 -nographic -no-reboot \
		-kernel "$(image "$k")" -initrd "$initrd" \
		-append "console=$BA_CONSOLE quiet log_buf_len=8M audit_backlog_limit=1000000 MATRIX_MODE=matrix${MATRIX_THRESHOLD:+ MATRIX_THRESHOLD=$MATRIX_THRESHOLD}$(cmdline "$k")" \
		</dev/null >"$dir/console.log" 2>&1
}

msg "booting $(echo $KERNELS | wc -w) guests: $KERNELS"
declare -A pids=()
for k in $KERNELS; do
	boot "$k" &
	pids[$k]=$!
done
failed=
while :; do
	running=
	for k in "${!pids[@]}"; do
		kill -0 "${pids[$k]}" 2>/dev/null || continue
		n=$(grep -ac 'AVC-MATRIX: PHASE ' "$OUT/$k/console.log" 2>/dev/null || true)
		running="$running $k:phase$n"
	done
	[ -n "$running" ] || break
	printf '    ... %ds:%s\n' $((SECONDS - start)) "$running" >&2
	sleep 5
done
for k in $KERNELS; do
	rc=0
	wait "${pids[$k]}" || rc=$?
	log=$OUT/$k/console.log
	[ $rc -eq 0 ] || { warn "$k guest: qemu exit $rc$([ $rc -eq 124 ] && echo " (timeout)")"; failed="$failed $k"; }
	grep -a 'AVC-MATRIX: \(ERROR\|PHASE-PROBLEM\)\|^avcmatrix:' "$log" | tr -d '\r' >&2 || true
	# Reclaimed AVC nodes change when permissive denials are audited
	# again (stock and patched differently), so say so.
	reclaims=$(grep -a 'AVC-MATRIX: AVC .* reclaims:' "$log" | tr -d '\r' | tail -1 | sed 's/.* reclaims: *//')
	[ "${reclaims:-0}" = 0 ] ||
		warn "$k: the AVC reclaimed $reclaims nodes (MATRIX_THRESHOLD=$MATRIX_THRESHOLD): audit records of permissive denials may differ"
	sed -n '/AVC-MATRIX: DATA BEGIN/,/AVC-MATRIX: DATA END/p' "$log" | tr -d '\r' |
		grep -v '^AVC-MATRIX: ' | base64 -d 2>/dev/null | gunzip > "$OUT/$k/matrix.out" 2>/dev/null ||
		{ warn "$k: no matrix data in ${log#"$TOP"/}"; failed="$failed $k"; }
done
msg "guests finished in $((SECONDS - start))s"

python3 "$MX/matrix.py" expect "$OUT/policy" "$MX/objects.conf" "$MX/phases.conf" "$OUT/expected.out"
mkdir -p "$RESULTS"
runs=()
for k in $KERNELS; do
	runs+=("$k=$OUT/$k/matrix.out")
done
rc=0
python3 "$MX/matrix.py" check "$OUT/policy" "$MX/objects.conf" "$MX/phases.conf" \
	"$RESULTS/matrix.txt" "${runs[@]}" || rc=1
# The label reference (avclabels.c, after the phases): on every kernel,
# every label equals the security server's uncached answer for its key,
# some answers changed across the changes (else it proved nothing), and
# every kernel created, was denied and labelled exactly as the first.
lref_first= lref_digest=
for k in $KERNELS; do
	log=$OUT/$k/console.log
	grep -a 'AVC-MATRIX: LABELREF-MISMATCH' "$log" | tr -d '\r' | head -20 >&2 || true
	line=$(grep -a 'AVC-MATRIX: LABELREF: ' "$log" | tr -d '\r' | tail -1 | sed 's/^AVC-MATRIX: //')
	echo "label reference, $k: ${line:-none}" >> "$RESULTS/matrix.txt"
	val() { echo "$line" | sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
	problem=
	if [ -z "$line" ]; then
		problem="no LABELREF line in ${log#"$TOP"/}"
	elif [ "$(val mismatches)" != 0 ]; then
		problem="$(val mismatches) labels differ from the security server's"
	elif [ "$(val checks)" -lt 500 ] || [ "$(val changed)" -lt 10 ] ||
		[ "$(val loads)" -lt 1 ] || [ "$(val bools)" -lt 1 ] || [ "$(val enforces)" -lt 1 ]; then
		problem="too few checks, changed answers or changes of a kind: $line"
	elif [ -z "$lref_digest" ]; then
		lref_first=$k lref_digest=$(val digest)
	elif [ "$(val digest)" != "$lref_digest" ]; then
		problem="outcomes or labels differ from $lref_first's (digest $(val digest), not $lref_digest)"
	fi
	if [ -n "$problem" ]; then
		warn "$k: label reference: $problem"
		echo "label reference, $k: FAIL: $problem" >> "$RESULTS/matrix.txt"
		rc=1
	fi
done
# The task's directory cache across setenforce 1 (avcmatrix.c dirstale):
# every lookup in permissive mode may search (ENOENT), and the one after
# setenforce 1 may not (EACCES), as the policy says.  Stock 7.3's cache
# still allows it (patch 4 of the 7.3 series fixes that): on Debian's 7.3
# source the stock kernel must show it, or the scenario no longer reaches
# that cache and proves nothing; on a tree of your own (KSRC) it may not.
ds_perm=ENOENT,ENOENT,ENOENT,ENOENT,ENOENT,ENOENT,ENOENT
for k in $KERNELS; do
	log=$OUT/$k/console.log
	line=$(grep -a 'AVC-MATRIX: DIRSTALE: ' "$log" | tr -d '\r' | tail -1 | sed 's/^AVC-MATRIX: //')
	want=EACCES
	[ "$BASE" = 7.3 ] && [ "$k" = stock ] && want=ENOENT
	problem=
	if [ -z "$line" ]; then
		problem="no DIRSTALE line in ${log#"$TOP"/}"
	elif [ "$line" != "DIRSTALE: permissive=$ds_perm enforcing=$want" ]; then
		problem="$line, expected permissive=$ds_perm enforcing=$want"
		if [ "$want" = ENOENT ]; then
			problem="$problem (the stale allow of stock 7.3 no longer shows)"
			[ -n "$KSRC" ] && { warn "$k: directory cache: $problem"; problem=; }
		fi
	fi
	note=
	[ "$want" = ENOENT ] && [ -z "$problem" ] &&
		note=" (stock 7.3 allows the search that the policy denies: the stale allow that patch 4 fixes)"
	echo "directory cache across setenforce 1, $k: ${line:-none}$note" >> "$RESULTS/matrix.txt"
	if [ -n "$problem" ]; then
		warn "$k: directory cache across setenforce 1: $problem"
		echo "directory cache across setenforce 1, $k: FAIL: $problem" >> "$RESULTS/matrix.txt"
		rc=1
	fi
done
[ -z "$failed" ] || rc=1
echo "matrix: total time $((SECONDS - start))s" | tee -a "$RESULTS/matrix.txt"
if [ $rc -eq 0 ]; then
	echo "matrix: PASS ($KERNELS identical and as the policy predicts;" \
		"$(grep -o '[0-9]* label checks' "$RESULTS/matrix.txt" | tail -1);" \
		"label reference: $(grep -o 'checks=[0-9]*' "$RESULTS/matrix.txt" | tail -1 | cut -d= -f2)" \
		"labels per kernel as the security server computes them)"
else
	echo "matrix: FAIL${failed:+ (guest failures:$failed)}; outputs in ${OUT#"$TOP"/}/, summary ${RESULTS#"$TOP"/}/matrix.txt"
fi
exit $rc
