#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The testsuite guest's script, run as init from the job disk (/job) by
# the root file system's /usr/sbin/avc-testsuite-init.  /job/job.conf says
# what to do:
#   MODE=prepare  label the root file system, copy the suite from
#                 /job/suite to /root/selinux-testsuite, build and load its
#                 test policy, pick the tests and build them; the image
#                 keeps all of it (the host keeps this disk as the
#                 prepared image)
#   MODE=run      load that policy, go enforcing, run the picked tests
#                 one by one, each with a time limit (TEST_TIMEOUT)
#   TESTS         "all" or the test directories asked for
# Output: lines "AVC-TESTSUITE: ..." on the console; the results as a tar
# archive written to the third disk (/dev/vdc): status, the lists,
# per test its TAP output (tap/NAME.tap, NAME with / as _) and stderr,
# scripts.txt (name, exit status, seconds), logs, dmesg.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LC_ALL=C TERM=dumb
M=AVC-TESTSUITE
J=/job
S=/root/selinux-testsuite
A=/root/avc-testsuite
O=/var/tmp/avc-testsuite-out
# shellcheck source=/dev/null
. $J/job.conf

say() { echo "$M: $*"; }
step() { say "STEP $*"; }
finish() {
	mkdir -p $O
	echo "$1" > $O/status
	dmesg > $O/dmesg.txt 2>&1
	(cd $O && tar -cf /dev/vdc .) || say "ERROR cannot write the results to /dev/vdc"
	say "END $1"
	sync
	mount -o remount,ro / 2>/dev/null
	busybox reboot -f
	sleep 30
}
fail() {
	say "ERROR $*"
	finish "failed: $*"
}

# Stage 1, as the kernel's init (kernel_t, permissive): mounts, policy,
# labels, then on to stage 2 as root in unconfined_t.
stage1() {
	rm -rf $O
	mkdir -p $O/tap
	mount -t selinuxfs selinuxfs /sys/fs/selinux || fail "no selinuxfs: SELinux is off in this kernel"
	mkdir -p /dev/pts /dev/shm
	mount -t devpts devpts /dev/pts
	mount -t tmpfs tmpfs /dev/shm
	mount -t tmpfs tmpfs /run
	mkdir -p /run/lock
	hostname avc-testsuite
	ip link set lo up || fail "cannot bring up lo"
	say "KERNEL $(cat /proc/version)"
	say "CMDLINE $(cat /proc/cmdline)"
	step "load_policy"
	load_policy || fail "load_policy failed"
	say "POLICY policyvers $(cat /sys/fs/selinux/policyvers), $(ls /etc/selinux/default/policy/)"
	# devtmpfs, tmpfs and devpts nodes made before the policy: label them.
	restorecon -R /dev /run >/dev/null 2>&1
	if [ "$MODE" = prepare ]; then
		step "labelling the root file system (setfiles)"
		setfiles -F -e /job -e /proc -e /sys -e /dev -e /run \
			/etc/selinux/default/contexts/files/file_contexts / \
			>$O/setfiles.log 2>&1 || fail "setfiles failed: $(tail -3 $O/setfiles.log)"
	fi
	# shellcheck disable=SC2093 # init goes on as stage 2; fail only if exec fails
	exec runcon unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023 /bin/sh $J/guest.sh stage2
	fail "runcon to unconfined_t failed"
}

prepare() {
	step "copying the suite"
	rm -rf $S $A
	mkdir -p $A
	cp -a $J/suite $S || fail "cannot copy the suite"
	restorecon -R $S
	# What the suite's README asks of the system.
	grep -q '^[[:space:]]*expand-check[[:space:]]*=[[:space:]]*0' /etc/selinux/semanage.conf ||
		echo 'expand-check = 0' >> /etc/selinux/semanage.conf
	step "building and loading the test policy (make -C policy load)"
	make -C $S/policy load >>$O/prepare.log 2>&1 || fail "make -C policy load failed: $(tail -3 $O/prepare.log)"
	step "choosing the tests"
	make -s -C $S/tests -f Makefile -f $J/subdirs.mk avc-print-subdirs >$A/available 2>>$O/prepare.log ||
		fail "cannot list the suite's tests: $(tail -3 $O/prepare.log)"
	: > $A/selected
	: > $A/unavailable
	if [ "$TESTS" = all ]; then
		tr ' ' '\n' < $A/available | grep . > $A/selected
	else
		for t in $TESTS; do
			if tr ' ' '\n' < $A/available | grep -qxF "$t"; then
				echo "$t" >> $A/selected
			else
				echo "$t" >> $A/unavailable
			fi
		done
	fi
	say "TESTS $(wc -l < $A/selected) to run; not enabled by the suite's Makefile here: $(tr '\n' ' ' < $A/unavailable)"
	step "building the tests"
	make -C $S/tests all SUBDIRS="$(tr '\n' ' ' < $A/selected)" >>$O/prepare.log 2>&1 ||
		fail "building the tests failed: $(tail -3 $O/prepare.log)"
	cp $A/available $A/selected $A/unavailable $O/
	finish prepared
}

run() {
	[ -s $A/selected ] || fail "this image was not prepared (no $A/selected)"
	cp $A/available $A/selected $A/unavailable $O/
	step "setenforce 1"
	setenforce 1 || fail "setenforce 1 failed"
	[ "$(getenforce)" = Enforcing ] || fail "not enforcing"
	# As the suite's own 'make test' does before it runs the tests.
	cd $S/tests || fail "no $S/tests"
	chcon -R -t test_file_t . || fail "chcon -R -t test_file_t failed"
	n=$(wc -l < $A/selected)
	i=0
	: > $O/scripts.txt
	while read -r t; do
		i=$((i + 1))
		f=$O/tap/$(echo "$t" | tr / _)
		say "TEST $i/$n $t"
		t0=$(date +%s)
		timeout -k 10 "$TEST_TIMEOUT" "./$t/test" </dev/null >"$f.tap" 2>"$f.err"
		rc=$?
		s=$(( $(date +%s) - t0 ))
		echo "$t $rc $s" >> $O/scripts.txt
		say "RESULT $i/$n $t exit=$rc ok=$(grep -c '^ok' "$f.tap") not_ok=$(grep -c '^not ok' "$f.tap") plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$f.tap" | head -1) ${s}s"
	done < $A/selected
	setenforce 0
	cat /sys/fs/selinux/avc/cache_stats > $O/avc_cache_stats 2>&1
	finish "done"
}

stage2() {
	say "CONTEXT $(id -Z) $(getenforce)"
	[ "$(id -u)" = 0 ] || fail "not root"
	case $(id -Z) in
	*:unconfined_r:unconfined_t:*) ;;
	*) fail "not in unconfined_t: $(id -Z)" ;;
	esac
	case $MODE in
	prepare) prepare ;;
	run) run ;;
	*) fail "unknown MODE '$MODE' in $J/job.conf" ;;
	esac
}

case ${1:-stage1} in
stage1) stage1 ;;
stage2) stage2 ;;
esac
