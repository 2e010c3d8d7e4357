#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# walk.sh: the path walk row as its tree grows, in the cache model.  Runs
# cache.sh pathwalk (make cache) once per tree, with pathwalk's fanout and
# depth set through BENCH_OP_ARGS, warm and cold, and sums up SELinux's
# cost per stat() (SELinux enforcing minus lsm=capability): instructions,
# misses at each level and the modelled cycles, under security/ and in the
# whole kernel, stock against patched, by file count.
#
# Usage: walk.sh
# Environment:
#   WALK_TREES        FANOUTxDEPTH of each tree, files = FANOUT^DEPTH
#                     (default "6x4 8x4 11x4 15x4": 1,296, 4,096 (make
#                     bench's), 14,641 and 50,625 files, every path four
#                     components deep, so that only the tree's size
#                     changes; the guest's tmpfs holds 65,536 inodes,
#                     directories included)
#   CACHE_GEOMETRIES  as for cache.sh (default: the server core's,
#                     caches/zen4-server.conf)
#   WALK_COLD         1 (default): warm and cold; 0: warm only
#   KERNELS, PROFILE_SCALE, RESULTS, BENCH_ARCH as for cache.sh
# Writes RESULTS/walk.txt, .csv and .png (and each tree's cache-pathwalk-*).
. "$(dirname "$0")/lib.sh"
lock_build

S=$TOP/scripts
psrc=$TOP/tools/testing/selinux-avc-profile
WALK_TREES=${WALK_TREES:-6x4 8x4 11x4 15x4}
WALK_COLD=${WALK_COLD:-1}
case $WALK_COLD in 0|1) ;; *) die "WALK_COLD must be 0 (warm) or 1 (warm and cold)" ;; esac
CACHE_GEOMETRIES=${CACHE_GEOMETRIES:-$psrc/caches/zen4-server.conf}
if [ "$BENCH_ARCH" = x86_64 ]; then
	RESULTS=${RESULTS:-$RESULTS_TOP}
else
	RESULTS=${RESULTS:-$RESULTS_TOP/$BA_FRAGMENT}
fi
tags=()
for t in $WALK_TREES; do
	case $t in
	[0-9]*x[0-9]*) ;;
	*) die "WALK_TREES: '$t' is not FANOUTxDEPTH (e.g. 4x7)" ;;
	esac
	f=${t%x*} d=${t#*x}
	case $f$d in *[!0-9]*) die "WALK_TREES: '$t' is not FANOUTxDEPTH (e.g. 4x7)" ;; esac
	[ "$f" -ge 2 ] && [ "$d" -ge 1 ] && [ "$d" -le 8 ] ||
		die "WALK_TREES: '$t': pathwalk takes a fanout of 2 or more and a depth of 1 to 8"
	files=1 inodes=0
	for _ in $(seq "$d"); do
		inodes=$((inodes + files))
		files=$((files * f))
	done
	inodes=$((inodes - 1 + files))
	[ "$inodes" -le 65000 ] ||
		die "WALK_TREES: '$t' makes $inodes inodes; the guest's tmpfs holds 65,536"
	tags+=("$t:$files")
done

start=$SECONDS
i=0
for tf in "${tags[@]}"; do
	t=${tf%%:*} files=${tf#*:}
	i=$((i + 1))
	msg "walk: tree $i of ${#tags[@]}: fanout ${t%x*}, depth ${t#*x}, $files files"
	BENCH_OP_ARGS="-f,${t%x*},-d,${t#*x},/tmp" CACHE_TAG="${files}files" \
		CACHE_COLD=$WALK_COLD CACHE_GEOMETRIES=$CACHE_GEOMETRIES RESULTS=$RESULTS \
		"$S/cache.sh" pathwalk > "$BUILD/logs/walk-$files.log" ||
		die "cache model of the $files-file tree failed (log build/logs/walk-$files.log)"
done
msg "walk: ${#tags[@]} trees in $((SECONDS - start))s"

python3 - "$RESULTS" "${tags[@]}" <<'PY' || die "cannot sum up the walk results"
import csv, os, sys
out = sys.argv[1]
rows = []
for tf in sys.argv[2:]:
    tree, files = tf.split(':')
    path = os.path.join(out, 'cache-pathwalk-%sfiles.csv' % files)
    for r in csv.DictReader(open(path)):
        if r['function'] or r['part'] not in ('security', 'kernel'):
            continue
        rows.append(dict(files=int(files), tree=tree, geometry=r['geometry'],
                         variant=r['variant'], part=r['part'],
                         kernel=r['kernel'], **{k: float(r[k]) for k in
                         ('insns', 'l1i', 'l1d', 'l2', 'llc', 'cycles')}))
if not rows:
    sys.exit('no security/ or kernel rows in the cache results')
cols = ('files', 'tree', 'geometry', 'variant', 'part', 'kernel', 'insns',
        'l1i', 'l1d', 'l2', 'llc', 'cycles')
with open(os.path.join(out, 'walk.csv'), 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(cols)
    for r in rows:
        w.writerow([r[c] if isinstance(r[c], str) or c == 'files' else
                    '%.3f' % r[c] for c in cols])
key = {(r['files'], r['geometry'], r['variant'], r['part'], r['kernel']): r
       for r in rows}
lines = ['The path walk by tree size (make walk): SELinux enforcing minus '
         'lsm=capability, per stat(),',
         'in the cache model (make cache); warm: the caches as the walk left '
         'them; cold: every level',
         'emptied before the stat (its first in a window).  Modelled cycles: '
         'instructions plus each miss',
         'times its latency (a model, not a measurement).', '']
for geom in sorted({r['geometry'] for r in rows}):
    for var in ('warm', 'cold'):
        if not any(r['variant'] == var and r['geometry'] == geom
                   for r in rows):
            continue
        lines.append('%s, %s' % (geom, var))
        hdr = '%8s %-9s %-8s %9s %7s %7s %7s %7s %9s %13s' % (
            'files', 'part', 'kernel', 'insns', 'L1i', 'L1d', 'L2', 'LLC',
            'cycles', 'patched/stock')
        lines += [hdr, '-' * len(hdr)]
        for files in sorted({r['files'] for r in rows}):
            for part in ('security', 'kernel'):
                for k in ('stock', 'patched'):
                    r = key.get((files, geom, var, part, k))
                    if not r:
                        continue
                    ratio = ''
                    s = key.get((files, geom, var, part, 'stock'))
                    if k == 'patched' and s and s['cycles'] > 0:
                        ratio = '%.2f' % (r['cycles'] / s['cycles'])
                    lines.append('%8d %-9s %-8s %9.1f %7.3f %7.3f %7.3f %7.3f '
                                 '%9.1f %13s' % (
                                     files, part + '/' if part == 'security'
                                     else part, k, r['insns'], r['l1i'],
                                     r['l1d'], r['l2'], r['llc'],
                                     r['cycles'], ratio))
        lines.append('')
text = '\n'.join(lines)
open(os.path.join(out, 'walk.txt'), 'w').write(text)
print(text)
# The plot's data: modelled cycles of security/ per stat.
with open(os.path.join(out, 'walk.dat'), 'w') as f:
    for var in ('warm', 'cold'):
        for k in ('stock', 'patched'):
            f.write('# %s %s\n' % (var, k))
            for files in sorted({r['files'] for r in rows}):
                for geom in sorted({r['geometry'] for r in rows})[:1]:
                    r = key.get((files, geom, var, 'security', k))
                    if r:
                        f.write('%d %.2f %.3f\n' % (files, r['cycles'],
                                                     r['llc']))
            f.write('\n\n')
PY
if command -v gnuplot > /dev/null; then
	plot="'$RESULTS/walk.dat' index 0 using 1:2 with linespoints title 'stock, warm', '' index 1 using 1:2 with linespoints title 'patched, warm'"
	[ "$WALK_COLD" = 0 ] ||
		plot="$plot, '' index 2 using 1:2 with linespoints dashtype 2 title 'stock, cold', '' index 3 using 1:2 with linespoints dashtype 2 title 'patched, cold'"
	gnuplot <<EOF_PLOT || die "gnuplot failed"
set terminal pngcairo size 900,500 noenhanced font ",10"
set output '$RESULTS/walk.png'
set logscale x 2
set grid
set key top left
set xlabel 'files in the walked tree'
set logscale y
set ylabel 'modelled cycles per stat() under security/ (log scale)'
set title 'Path walk by tree size (make walk): SELinux minus lsm=capability, cache model'
plot $plot
EOF_PLOT
fi
msg "results: ${RESULTS#"$TOP"/}/walk.{txt,csv,png}"
