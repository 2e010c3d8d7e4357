#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# In-kernel microbenchmark of avc_has_perm: the selinux_avc_bench KUnit
# suite, timing the stock algorithm and the per-CPU cache (hit, miss,
# thrash) in one boot.
#   um:      UML, host clock: native nanoseconds
#   x86_64:  qemu -icount shift=0: guest nanoseconds = instructions
# Usage: microbench.sh [um|x86_64...]   Writes results/microbench.csv/.json,
# and the working-set sweep (16 to 8192 keys cycled on one CPU: cost per
# check, stock and per-CPU cache, and the cache's hit and fill shares) to
# results/microbench-sweep.csv/.txt/.png.  MICROBENCH_SLOTS="16 32 ..." adds
# the sweep on UML for those slot counts (CONFIG_SECURITY_SELINUX_AVC_PCPU_SLOTS,
# a build directory each).
. "$(dirname "$0")/lib.sh"
arches=${*:-um x86_64}
for arch in $arches; do
	case $arch in
	um|x86_64) ;;
	*) die "microbench.sh: no microbenchmark on '$arch' (um or x86_64)" ;;
	esac
done
# Runs: ARCH or ARCH:SLOTS (the sweep with another slot count only).
runs=$arches
for n in ${MICROBENCH_SLOTS:-}; do
	case $n in
	128) msg "MICROBENCH_SLOTS: 128 is the default run's slot count; not run twice" ;;
	16|32|64|256) runs="$runs um:$n" ;;
	*) die "MICROBENCH_SLOTS: $n is not a slot count of 16, 32, 64, 128 or 256" ;;
	esac
done
lock_build

need_tree
RESULTS=${RESULTS:-$RESULTS_TOP}
mkdir -p "$RESULTS" "$BUILD/logs" "$OUTDIR"
csv=$RESULTS/microbench.csv
echo "arch,unit,case,per_check" > "$csv.tmp"
sweep=$RESULTS/microbench-sweep.csv
echo "arch,unit,slots,keys,stock_per_check,pcpu_per_check,pcpu_vs_stock,hit_rate,fill_rate" > "$sweep.tmp"
for run in $runs; do
	arch=${run%%:*}
	slots=
	[ "$arch" = "$run" ] || slots=${run#*:}
	out=$OUTDIR/patched-kunit-$arch${slots:+-slots$slots}
	log=$BUILD/logs/microbench-$SRCID-$arch${slots:+-slots$slots}.log
	args=(run --kunitconfig security/selinux --build_dir "$out" --jobs "$JOBS"
	      --make_options "CC=ccache gcc" --raw_output=kunit --timeout 1800
	      --kconfig_add CONFIG_SECURITY_SELINUX_AVC_KUNIT_BENCH=y)
	[ -z "$slots" ] || args+=(--kconfig_add "CONFIG_SECURITY_SELINUX_AVC_PCPU_SLOTS=$slots")
	unit=ns
	qemu=
	if [ "$arch" = x86_64 ]; then
		qemu=qemu-system-x86_64
		args+=(--arch x86_64 --kconfig_add CONFIG_SMP=y
		       --kconfig_add CONFIG_HOTPLUG_CPU=y
		       --kconfig_add CONFIG_JUMP_LABEL=y
		       --qemu_args "-smp 2 -icount shift=0,sleep=off")
		unit=instructions
	fi
	msg "microbenchmark on $arch${slots:+, $slots slots} (log ${log#$TOP/})"
	qpath=$(kunit_tcg_path "$qemu")
	(cd "$PATCHED" && PATH=$qpath exec ./tools/testing/kunit/kunit.py "${args[@]}" \
		'selinux_avc_bench') > "$log" 2>&1 &
	pid=$!
	start=$SECONDS
	while kill -0 $pid 2>/dev/null; do
		sleep 10
		kill -0 $pid 2>/dev/null && printf '    ... microbench %s: %ds\n' "$run" $((SECONDS - start)) >&2
	done
	wait $pid || { tail -20 "$log"; die "microbenchmark on $run failed (log $log)"; }
	n=$({ grep -oE 'microbench: slots=[0-9]+' "$log" || true; } | head -1 | sed 's/.*=//')
	[ -n "$n" ] || die "microbenchmark on $run printed no slot count (log $log)"
	[ -z "$slots" ] || [ "$n" = "$slots" ] || die "microbenchmark on $run ran with $n slots (log $log)"
	# The fixed cases of the default slot count only.
	[ -n "$slots" ] || { grep -oE 'microbench: [a-z_0-9]+ ps=[0-9]+' "$log" || true; } | sort -u |
		awk -v a="$arch" -v u="$unit" '{ split($3, v, "="); printf "%s,%s,%s,%.3f\n", a, u, $2, v[2] / 1000 }' >> "$csv.tmp"
	{ grep -oE 'microbench: sweep keys=[0-9]+ nocache_ps=[0-9]+ pcpu_ps=[0-9]+ checks=[0-9]+ hits=[0-9]+ fills=[0-9]+' "$log" || true; } |
		sort -u | sed 's/[a-z_]*=//g' |
		awk -v a="$arch" -v u="$unit" -v n="$n" '$6 > 0 && $4 > 0 { printf "%s,%s,%d,%d,%.3f,%.3f,%.3f,%.4f,%.4f\n", a, u, n, $3, $4 / 1000, $5 / 1000, $5 / $4, $7 / $6, $8 / $6 }' |
		sort -t, -k4,4n >> "$sweep.tmp"
	grep -q "^$arch,$unit,$n," "$sweep.tmp" || die "microbenchmark on $run printed no sweep (log $log)"
done
mv "$csv.tmp" "$csv"
mv "$sweep.tmp" "$sweep"
python3 - "$sweep" "${sweep%.csv}.txt" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
with open(sys.argv[2], 'w') as f:
    f.write('Working-set sweep: keys cycled in order on one CPU, every check allowed;\n'
            'cost per check of the stock algorithm and of the per-CPU cache, and\n'
            "the share of the cache's checks that hit or wrote a slot.\n\n")
    f.write(f"{'arch':8} {'unit':12} {'slots':>5} {'keys':>6} {'stock':>9} {'pcpu':>9} "
            f"{'pcpu/stock':>10} {'hits':>7} {'fills':>7}\n")
    for r in rows:
        f.write(f"{r['arch']:8} {r['unit']:12} {int(r['slots']):5d} {int(r['keys']):6d} "
                f"{float(r['stock_per_check']):9.2f} {float(r['pcpu_per_check']):9.2f} "
                f"{float(r['pcpu_vs_stock']):10.3f} {100 * float(r['hit_rate']):6.1f}% "
                f"{100 * float(r['fill_rate']):6.1f}%\n")
print(open(sys.argv[2]).read(), end='')
PY
if command -v gnuplot > /dev/null; then
	cost= hits=
	while IFS=, read -r a u n; do
		sel="(strcol(1) eq '$a' && \$3 == $n ? \$COL : 1/0)"
		cost="$cost${cost:+, }'$sweep' using 4:${sel/COL/7} with linespoints title '$a ($u), $n slots'"
		hits="$hits${hits:+, }'$sweep' using 4:${sel/COL/8} with linespoints title '$a, $n slots'"
	done < <(tail -n +2 "$sweep" | cut -d, -f1-3 | sort -u -t, -k1,1 -k3,3n)
	gnuplot <<EOF_PLOT || die "gnuplot failed"
set terminal pngcairo size 900,800 noenhanced font ",10"
set output '${sweep%.csv}.png'
set datafile separator ','
set multiplot layout 2,1
set key outside right
set logscale x 2
set grid
set yrange [0:*]
set title 'AVC check by working set (make microbench): per-CPU cache / stock, cost per check'
set ylabel 'per-CPU cache / stock'
plot $cost, 1 with lines lc rgb 'gray' notitle
set title "Per-CPU cache hit rate"
set xlabel 'working set: distinct (ssid, tsid, tclass) keys cycled on one CPU'
set ylabel 'hits / checks'
set yrange [0:1]
plot $hits
unset multiplot
EOF_PLOT
fi
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
