#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest's SELinux policy into build/guest/policy/.
# Usage: policy.sh [project|debian]   (default: $POLICY or project)
#
#   project  the policy in policy/ next to this script.  Class, permission and initial
#            SID declarations come from the kernel's own mdp tool, built
#            and run from the pristine tree; everything else is ours.
#   debian   Debian's selinux-policy-default, as compiled by its package
#            (/etc/selinux/default/policy/policy.NN), with file labels
#            taken from its file_contexts.
#
# Output: policy.bin, labels (PATH CONTEXT lines for the init script),
# domain (the context the benchmark runs in), permissive_domain, churn
# (the contexts of the churn scenario's files, one a line; empty for
# debian), kind (project|debian); policy-na.bin and neveraudit_domain, the
# neveraudit scenario's policy (the project policy with its permissive
# domain also neveraudit) and domain, both empty where the base has no
# neveraudit types or no checkpolicy for them is at hand (checkpolicy_na
# in scripts/lib.sh); policy-scale.bin, the working-set sweep's policy
# (make scale: the project policy with SCALE_CATS categories, which
# system_u may have, and the benchmark domain allowed to change its own
# level).
. "$(dirname "$0")/../../../scripts/lib.sh"
lock_build

kind=${1:-${POLICY:-project}}
PDIR=$TOP/tools/testing/selinux-avc-bench/policy
out=$GUEST_POLICY_DIR/policy-$kind
mkdir -p "$out"

# Labels the guest needs for files that the policy decides nothing about.
# PATH=what matchpathcon is asked about; a trailing /* applies the label to
# the whole directory in the guest.
guest_paths="/bin/*=/bin/busybox /usr/*=/usr/include/sys/types.h
/dev/console /dev/null /dev/zero /tmp /secret"

# File types of the churn scenario (guest/init): twice the AVC
# cache_threshold the scenario sets, so the AVC cannot hold a node for
# each of them.
CHURN_TYPES=64

# Categories of the working-set sweep's policy (make scale): lat_kill
# gives each of its processes a level of its own, one category or two, so
# 256 categories make 32,896 levels.
SCALE_CATS=256

build_mdp() {
	local mdir=$GUEST_POLICY_DIR/mdp inc
	local src=$PRISTINE/scripts/selinux/mdp/mdp.c
	[ -f "$src" ] || die "no $src: run 'make source' first"
	mkdir -p "$mdir/stub/generated"
	# linux/kconfig.h wants generated/autoconf.h; mdp only reads a few
	# filesystem options from it, so the stock guest config is used
	# when present and an empty one otherwise.
	inc=$OUTDIR/stock-x86_64-guest/include
	if [ ! -f "$inc/generated/autoconf.h" ]; then
		: > "$mdir/stub/generated/autoconf.h"
		inc=$mdir/stub
	fi
	if [ ! -x "$mdir/mdp" ] || [ "$src" -nt "$mdir/mdp" ]; then
		gcc -O1 -o "$mdir/mdp" -I"$PRISTINE/include/uapi" -I"$PRISTINE/include" \
			-I"$PRISTINE/security/selinux/include" -I"$inc" "$src" ||
			die "building mdp from $src failed"
	fi
	(cd "$mdir" && ./mdp -m policy.conf file_contexts) || die "mdp failed"
	echo "$mdir/policy.conf"
}

# decls MDP_POLICY: the class, initial SID and access vector declarations,
# i.e. everything before mdp's MLS section.
decls() {
	awk '/^(sensitivity|policycap|type|role|user) /{exit} {print}' "$1"
}

build_project() {
	local mdp conf=$out/policy.conf classes sid t line err caps tries=0
	mdp=$(build_mdp)
	decls "$mdp" > "$out/decls.conf"
	grep -Evq '^(class|sid|common) [a-z0-9_]+$|^[{}]$|^	[a-z0-9_]+$|^inherits |^$' "$out/decls.conf" &&
		die "unexpected lines in mdp's declarations: $(grep -Ev '^(class|sid|common) |^[{}]$|^	|^$' "$out/decls.conf" | head -3)"
	classes=$(awk '/^class [a-z0-9_]+$/ && !seen[$2]++ {print $2}' "$out/decls.conf")
	[ -n "$classes" ] || die "no classes in mdp output"
	cp "$PDIR/policycaps.conf" "$out/policycaps.conf"

	while :; do
		{
			cat "$out/decls.conf" "$PDIR/mls.conf"
			grep -v '^#' "$out/policycaps.conf"
			cat "$PDIR/bench.te"
			echo "# generated: the churn scenario's file types"
			for i in $(seq 0 $((CHURN_TYPES - 1))); do
				echo "type churn${i}_t, file_type, churn_type;"
			done
			echo "# generated: the unconfined domains may do everything"
			for c in $classes; do
				echo "allow unconfined_domain { domain file_type }:$c *;"
			done
			cat "$PDIR/users.conf"
			echo "# generated: initial SID contexts"
			for sid in $(awk '/^sid [a-z0-9_]+$/ {print $2}' "$out/decls.conf"); do
				t=$(awk -v s="$sid" '$1 == s {print $2}' "$PDIR/initial_sids")
				echo "sid $sid system_u:object_r:${t:-unlabeled_t}:s0"
			done
			cat "$PDIR/fs.conf"
		} > "$conf"
		# "role object_r" is implicit, so kernel_t contexts use system_r.
		sed -i 's/^\(sid \(kernel\|init\|any_socket\|port\|netif\|netmsg\|node\) system_u:\)object_r/\1system_r/' "$conf"
		err=$(checkpolicy -M -U allow -o "$out/policy.bin" "$conf" 2>&1) && break
		# Drop a policy capability this checkpolicy does not know.
		caps=$(printf '%s\n' "$err" | sed -n "s/.*ERROR 'invalid policy capability name \([a-z0-9_]*\)'.*/\1/p" | head -1)
		line="policycap $caps;"
		case $caps in
		?*)
			warn "checkpolicy $(checkpolicy -V 2>/dev/null | cut -d' ' -f1) does not know policycap $caps: dropped"
			grep -vxF "$line" "$out/policycaps.conf" > "$out/policycaps.tmp"
			mv "$out/policycaps.tmp" "$out/policycaps.conf"
			tries=$((tries + 1))
			[ $tries -lt 40 ] || die "checkpolicy keeps failing: $err"
			;;
		*)
			printf '%s\n' "$err" >&2
			die "checkpolicy failed on $conf"
			;;
		esac
	done
	: > "$out/policy-na.bin"
	: > "$out/neveraudit_domain"
	if grep -qs 'POLICYDB_VERSION_NEVERAUDIT' "$PRISTINE/security/selinux/include/security.h"; then
		local cpna
		if cpna=$(checkpolicy_na); then
			# Beside the domain's permissive statement, in the TE part.
			sed 's/^permissive bench_perm_t;$/&\nneveraudit bench_perm_t;/' "$conf" > "$out/policy-na.conf"
			grep -qx 'neveraudit bench_perm_t;' "$out/policy-na.conf" ||
				die "no 'permissive bench_perm_t;' line in ${conf#"$TOP"/}"
			# shellcheck disable=SC2086 # cpna: a command and its arguments
			$cpna -M -U allow -o "$out/policy-na.bin" "$out/policy-na.conf" >"$out/policy-na.log" 2>&1 ||
				die "checkpolicy (neveraudit) failed on ${out#"$TOP"/}/policy-na.conf: $(tail -3 "$out/policy-na.log")"
			echo "system_u:system_r:bench_perm_t:s0" > "$out/neveraudit_domain"
		else
			warn "no checkpolicy for neveraudit types: the neveraudit scenario is left out"
		fi
	fi
	# The working-set sweep's policy: categories c0 to c(SCALE_CATS - 1),
	# a range up to all of them for system_u, and the benchmark domain
	# allowed to move to any level of its own type (writing its
	# /proc/self/attr/current), to kill its children at the end and to
	# read the AVC's counters.
	awk -v n="$SCALE_CATS" '
		$0 == "category c0;" { for (i = 0; i < n; i++) print "category c" i ";"; c++; next }
		$0 == "level s0:c0;" { print "level s0:c0.c" n - 1 ";"; l++; next }
		/^user / && !a++ { print "allow bench_t self:process { setcurrent dyntransition sigkill };\nallow bench_t self:file write;\nallow bench_t security_t:file { read open getattr };" }
		/^user system_u / && sub(/range s0 - s0:c0;/, "range s0 - s0:c0.c" n - 1 ";") { u++ }
		{ print }
		END { if (c != 1 || l != 1 || u != 1) exit 1 }' "$conf" > "$out/policy-scale.conf" ||
		die "cannot make the working-set sweep's policy from ${conf#"$TOP"/} (its MLS or user lines changed?)"
	checkpolicy -M -U allow -o "$out/policy-scale.bin" "$out/policy-scale.conf" > "$out/policy-scale.log" 2>&1 ||
		die "checkpolicy failed on ${out#"$TOP"/}/policy-scale.conf: $(tail -3 "$out/policy-scale.log")"
	echo "$SCALE_CATS" > "$out/scale_cats"
	grep -v '^#' "$PDIR/file_labels" | awk 'NF == 2 {print $1, "system_u:object_r:" $2 ":s0"}' > "$out/labels"
	echo "system_u:system_r:bench_t:s0" > "$out/domain"
	echo "system_u:system_r:bench_perm_t:s0" > "$out/permissive_domain"
	for i in $(seq 0 $((CHURN_TYPES - 1))); do
		echo "system_u:object_r:churn${i}_t:s0"
	done > "$out/churn"
}

build_debian() {
	local pol fc p ctx
	pol=$(ls /etc/selinux/default/policy/policy.* 2>/dev/null | sort -V | tail -1)
	[ -n "$pol" ] ||
		die "no compiled Debian policy in /etc/selinux/default/policy: apt-get install selinux-policy-default"
	fc=/etc/selinux/default/contexts/files/file_contexts
	[ -f "$fc" ] || die "no $fc"
	cp "$pol" "$out/policy.bin"
	: > "$out/labels"
	for p in $guest_paths; do
		ctx=$(matchpathcon -n -f "$fc" "${p#*=}" 2>/dev/null) || continue
		[ "$ctx" = "<<none>>" ] && continue
		echo "${p%=*} $ctx" >> "$out/labels"
	done
	# Debian's policy has no domain for a benchmark.  kernel_t may enter
	# init_t, so the benchmarks become init_exec_t entrypoints.  Debian
	# makes init_t an unconfined_domain_type, but it is a non-kernel
	# domain whose every access is still checked by the AVC.
	sed -i '\|^/bench|d' "$out/labels"
	echo "/bench/* system_u:object_r:init_exec_t:s0" >> "$out/labels"
	echo "system_u:system_r:init_t:s0" > "$out/domain"
	: > "$out/permissive_domain"
	: > "$out/churn"
	: > "$out/policy-na.bin"
	: > "$out/neveraudit_domain"
	: > "$out/policy-scale.bin"
	: > "$out/scale_cats"
}

case $kind in
project) build_project ;;
debian) build_debian ;;
*) die "POLICY must be project or debian, not '$kind'" ;;
esac
echo "$kind" > "$out/kind"
msg "policy ($kind): ${out#$TOP/}/policy.bin"
