#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# In-kernel microbenchmark of avc_has_perm: the selinux_avc_bench KUnit
# suite, timing the stock algorithm and the per-CPU cache (hit, miss,
# thrash) in one boot.
#   um:      UML, host clock: native nanoseconds
#   x86_64:  qemu -icount shift=0: guest nanoseconds = instructions
# Usage: microbench.sh [um|x86_64...]   Writes results/microbench.csv/.json.
. "$(dirname "$0")/lib.sh"
lock_build

need_tree
RESULTS=${RESULTS:-$RESULTS_TOP}
mkdir -p "$RESULTS" "$BUILD/logs" "$OUTDIR"
arches=${*:-um x86_64}
csv=$RESULTS/microbench.csv
echo "arch,unit,case,per_check" > "$csv.tmp"
for arch in $arches; do
	out=$OUTDIR/patched-kunit-$arch
	log=$BUILD/logs/microbench-$arch.log
	args=(run --kunitconfig security/selinux --build_dir "$out" --jobs "$JOBS"
	      --make_options "CC=ccache gcc" --raw_output=kunit --timeout 1800
	      --kconfig_add CONFIG_SECURITY_SELINUX_AVC_KUNIT_BENCH=y)
	unit=ns
	if [ "$arch" = x86_64 ]; then
		args+=(--arch x86_64 --kconfig_add CONFIG_SMP=y
		       --kconfig_add CONFIG_HOTPLUG_CPU=y
		       --kconfig_add CONFIG_JUMP_LABEL=y
		       --qemu_args "-smp 2 -icount shift=0,sleep=off")
		unit=instructions
	fi
	msg "microbenchmark on $arch (log ${log#$TOP/})"
	(cd "$PATCHED" && exec ./tools/testing/kunit/kunit.py "${args[@]}" \
		'selinux_avc_bench') > "$log" 2>&1 &
	pid=$!
	start=$SECONDS
	while kill -0 $pid 2>/dev/null; do
		sleep 10
		kill -0 $pid 2>/dev/null && printf '    ... microbench %s: %ds\n' "$arch" $((SECONDS - start)) >&2
	done
	wait $pid || { tail -20 "$log"; die "microbenchmark on $arch failed (log $log)"; }
	grep -oE 'microbench: [a-z_0-9]+ ps=[0-9]+' "$log" | sort -u |
		awk -v a="$arch" -v u="$unit" '{ split($3, v, "="); printf "%s,%s,%s,%.3f\n", a, u, $2, v[2] / 1000 }' >> "$csv.tmp"
done
mv "$csv.tmp" "$csv"
python3 - "$csv" "$RESULTS/microbench.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
out = {}
for r in rows:
    out.setdefault(r['arch'], {'unit': r['unit']})[r['case']] = float(r['per_check'])
for a, d in out.items():
    if d.get('pcpu_hit'):
        d['hit_speedup'] = round(d['nocache_hit'] / d['pcpu_hit'], 2)
    if d.get('nocache_2keys'):
        d['miss_vs_stock'] = round(d['pcpu_miss'] / d['nocache_2keys'], 3)
    if d.get('nocache_thrash'):
        d['thrash_vs_stock'] = round(d['pcpu_thrash'] / d['nocache_thrash'], 3)
json.dump(out, open(sys.argv[2], 'w'), indent=1)
print(f"{'arch':8} {'unit':13} {'stock hit':>10} {'pcpu hit':>9} {'speedup':>8} "
      f"{'miss/stock':>11} {'thrash/stock':>13}")
for a, d in out.items():
    print(f"{a:8} {d['unit']:13} {d['nocache_hit']:10.2f} {d['pcpu_hit']:9.2f} "
          f"{d['hit_speedup']:7.2f}x {d['miss_vs_stock']:11.3f} {d['thrash_vs_stock']:13.3f}")
PY
