#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make stress: policy reloads and enforcing toggles racing with permission
# checks on two virtual CPUs (qemu MTTCG, -smp 2), with cpu1 taken offline
# and online during the run.  The guest kernel has no ACPI, so its CPUs come
# from SeaBIOS's MP table, which lists one CPU per socket: hence sockets=2.  See tools/testing/selinux-avc-matrix/avcstress.c
# for the handshake that decides which checks are judged.
#
# Usage: stress.sh [FLAVOR]      (default x86_64-guest)
# Environment:
#   KERNELS="patched"        kernels to stress (default: patched)
#   KERNEL_<name>=bzImage    use this image for kernel <name>
#   STRESS_ITERS=N           policy changes (default 600)
#   STRESS_SECONDS=S         guest time bound for the change loop (default 120)
#   STRESS_HAMMERS=N         checking processes (default 2), and as many
#                            that hold descriptors open across the changes
#                            (a file, a pipe, a socket pair) and read and
#                            write them after each change returned
#   STRESS_TIMEOUT=S         seconds before a guest is killed (default 600)
#   STRESS_TOGGLE_HOLD=0|1   1 parks the checking processes around setenforce 1
#                            (default 0: they race it too).  Pristine stock
#                            SELinux has a window there, which the series'
#                            first patch fixes; 1 is for stressing a kernel
#                            without that fix (see avcstress.c)
# Outputs: build/stress/<kernel>.log, results/stress.txt; for another
# flavor, build/stress/<kernel>-<flavor>.log and results/stress-<extra>.txt
# (e.g. results/stress-debug-lock.txt for x86_64-guest+debug-lock).
. "$(dirname "$0")/lib.sh"
lock_build

flavor=${1:-x86_64-guest}
KERNELS=${KERNELS:-patched}
STRESS_ITERS=${STRESS_ITERS:-600}
STRESS_SECONDS=${STRESS_SECONDS:-120}
STRESS_HAMMERS=${STRESS_HAMMERS:-2}
STRESS_TIMEOUT=${STRESS_TIMEOUT:-600}
STRESS_TOGGLE_HOLD=${STRESS_TOGGLE_HOLD:-0}
QEMU=${QEMU:-qemu-system-x86_64}
OUT=$BUILD/stress
RESULTS=${RESULTS:-$RESULTS_TOP}

for v in STRESS_ITERS STRESS_SECONDS STRESS_HAMMERS STRESS_TIMEOUT; do
	case ${!v} in ''|*[!0-9]*|0) die "$v must be a positive integer" ;; esac
done
case $STRESS_TOGGLE_HOLD in 0|1) ;; *) die "STRESS_TOGGLE_HOLD must be 0 or 1" ;; esac
command -v "$QEMU" >/dev/null || die "$QEMU not found: apt-get install qemu-system-x86"

image() { guest_image "$1" "$flavor"; }
# shellcheck disable=SC2086
need_guest_images "$flavor" $KERNELS

start=$SECONDS
"$TOP/tools/testing/selinux-avc-matrix/guest.sh"
extra=${flavor#x86_64-guest}
extra=${extra#+}
summary=$RESULTS/stress${extra:+-${extra//+/-}}.txt
mkdir -p "$OUT" "$RESULTS"
: > "$summary"
rc=0
for k in $KERNELS; do
	log=$OUT/$k${extra:+-$flavor}.log
	msg "stress on $k: -smp 2, $STRESS_HAMMERS check + $STRESS_HAMMERS held-descriptor hammers, up to $STRESS_ITERS changes / ${STRESS_SECONDS}s"
	t0=$SECONDS
	qrc=0
	progress "stress $k" timeout --foreground -k 5 "$STRESS_TIMEOUT" "$QEMU" \
		-accel tcg,thread=multi -smp 2,sockets=2,cores=1,threads=1 -m 512 -nographic -no-reboot \
		-kernel "$(image "$k")" -initrd "$MATRIX_DIR/initrd.gz" \
		-append "console=ttyS0 quiet MATRIX_MODE=stress STRESS_ITERS=$STRESS_ITERS STRESS_SECONDS=$STRESS_SECONDS STRESS_HAMMERS=$STRESS_HAMMERS STRESS_TOGGLE_HOLD=$STRESS_TOGGLE_HOLD" \
		</dev/null >"$log" 2>&1 || qrc=$?
	tr -d '\r' < "$log" | grep -a 'AVC-MATRIX: \(avcstress\|ERROR\|CPUS\)' |
		sed "s/^AVC-MATRIX: /$k: /" | tee -a "$summary"
	# Kernel warnings or oopses during the run fail it too.
	# On debug kernels this covers KASAN, KCSAN, lockdep, RCU and
	# sleep-in-atomic reports ("BUG: KASAN", "BUG: KCSAN", "WARNING:
	# possible circular locking", "WARNING: suspicious RCU usage", ...).
	bad='BUG:|WARNING:|Oops|Call Trace|RCU stall|lockdep|DEBUG_LOCKS_WARN|inconsistent lock state'
	if grep -aE "$bad" "$log" >/dev/null; then
		echo "$k: kernel reported problems:" | tee -a "$summary"
		grep -aE -A3 "$bad" "$log" | head -40 | tee -a "$summary"
		rc=1
	fi
	if [ $qrc -ne 0 ]; then
		echo "$k: qemu exit $qrc$([ $qrc -eq 124 ] && echo " (timeout)")" | tee -a "$summary"
		rc=1
	fi
	if ! tr -d '\r' < "$log" | grep -aq '^AVC-MATRIX: CPUS 0-1$'; then
		echo "$k: the guest did not bring up 2 CPUs" | tee -a "$summary"
		rc=1
	fi
	if grep -aq 'avcstress: RESULT PASS' "$log"; then
		echo "$k: stress PASS in $((SECONDS - t0))s" | tee -a "$summary"
	else
		echo "$k: stress FAIL in $((SECONDS - t0))s (log: ${log#"$TOP"/})" | tee -a "$summary"
		rc=1
	fi
done
echo "stress: $([ $rc -eq 0 ] && echo PASS || echo FAIL) ($KERNELS) in $((SECONDS - start))s"
exit $rc
