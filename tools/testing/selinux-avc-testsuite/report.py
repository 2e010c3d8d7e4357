#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Pass/fail lists of selinux-testsuite runs, and their comparison.

Usage: report.py --results DIR --expected FILE [--suite S] [--selection S]
                 [--flavor F] [--times T] [--failed "K..."] KERNEL=OUTDIR...

Each OUTDIR is a guest's unpacked results (scripts/testsuite.sh): selected,
unavailable, scripts.txt ("name exit seconds" per test script) and
tap/NAME.tap, the script's TAP output.  Every subtest gets one of
pass, skip, fail, missing (planned, never reported); a script also
fails when it exits non-zero or times out.  The first KERNEL is the
reference: each other kernel must have the same result for every
subtest and script, else the differences are listed and the exit
status is 1.  Failures on every kernel are kept in the lists, marked
expected when FILE names them (with its reason) and unexpected when not.

Writes DIR/testsuite-KERNEL.csv, DIR/testsuite.json, DIR/testsuite.txt,
and prints the summary.
"""
import argparse
import csv
import json
import os
import re
import sys

TAP_RE = re.compile(r'^(not )?ok\b\s*(\d+)?(.*)$')
PLAN_RE = re.compile(r'^1\.\.(\d+)')


def parse_tap(path):
    """Return (plan, {number: (result, description)}) of one TAP file."""
    plan = None
    subs = {}
    try:
        with open(path, errors='replace') as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return None, {}
    n = 0
    for line in lines:
        m = PLAN_RE.match(line)
        if m and plan is None:
            plan = int(m.group(1))
            continue
        m = TAP_RE.match(line)
        if not m:
            continue
        n = int(m.group(2)) if m.group(2) else n + 1
        rest = m.group(3).strip()
        if m.group(1):
            res = 'fail'
        elif re.search(r'#\s*skip', rest, re.I):
            res = 'skip'
        else:
            res = 'pass'
        subs[n] = (res, rest)
    return plan, subs


def skip_reason(path):
    """The reason of a "1..0 # SKIP reason" plan, or None."""
    try:
        with open(path, errors='replace') as f:
            for line in f:
                m = re.match(r'^1\.\.0\s*#\s*skip\S*\s*(.*)', line, re.I)
                if m:
                    return m.group(1).strip()
    except FileNotFoundError:
        pass
    return None


def read_lines(path):
    try:
        with open(path) as f:
            return [x.strip() for x in f if x.strip()]
    except FileNotFoundError:
        return []


def load_run(outdir):
    """Results of one kernel: {test: {...}} in the order run."""
    scripts = {}
    for line in read_lines(os.path.join(outdir, 'scripts.txt')):
        parts = line.split()
        if len(parts) == 3:
            scripts[parts[0]] = (int(parts[1]), int(parts[2]))
    run = {'selected': read_lines(os.path.join(outdir, 'selected')),
           'unavailable': read_lines(os.path.join(outdir, 'unavailable')),
           'tests': {}}
    for t in run['selected']:
        if t not in scripts:
            run['tests'][t] = {'result': 'not run', 'exit': None, 'seconds': None,
                               'plan': None, 'subtests': {}, 'skip_reason': None}
            continue
        rc, secs = scripts[t]
        plan, subs = parse_tap(os.path.join(outdir, 'tap', t.replace('/', '_') + '.tap'))
        if plan is not None:
            for i in range(1, plan + 1):
                subs.setdefault(i, ('missing', ''))
        ok = (rc == 0 and plan is not None and
              all(r in ('pass', 'skip') for r, _ in subs.values()))
        if rc == 124 or rc == 137:
            result = 'timeout'
        elif ok and plan == 0:
            # "1..0 # SKIP reason": the script decided not to run here.
            result = 'skip'
        else:
            result = 'pass' if ok else 'fail'
        run['tests'][t] = {'result': result, 'exit': rc, 'seconds': secs,
                           'plan': plan, 'subtests': subs,
                           'skip_reason': skip_reason(os.path.join(outdir, 'tap', t.replace('/', '_') + '.tap'))}
    return run


def results_of(run):
    """{key: result}: "test" for a script, "test#N" for a subtest."""
    out = {}
    for t, r in run['tests'].items():
        out[t] = r['result']
        for i, (res, _) in sorted(r['subtests'].items()):
            out['%s#%d' % (t, i)] = res
    return out


def counts(run):
    c = {'scripts': 0, 'scripts_passed': 0, 'scripts_skipped': 0, 'scripts_failed': 0,
         'subtests': 0, 'passed': 0, 'skipped': 0, 'failed': 0, 'seconds': 0}
    for r in run['tests'].values():
        if r['result'] == 'not run':
            continue
        c['scripts'] += 1
        c[{'pass': 'scripts_passed', 'skip': 'scripts_skipped'}.get(r['result'], 'scripts_failed')] += 1
        c['seconds'] += r['seconds'] or 0
        for res, _ in r['subtests'].values():
            c['subtests'] += 1
            c[{'pass': 'passed', 'skip': 'skipped'}.get(res, 'failed')] += 1
    return c


def load_expected(path):
    """{key: reason} from lines "test[#N] reason"."""
    exp = {}
    for line in read_lines(path):
        if line.startswith('#'):
            continue
        key, _, reason = line.partition(' ')
        exp[key] = reason.strip()
    return exp


def expected_reason(exp, key):
    if key in exp:
        return exp[key]
    return exp.get(key.split('#')[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--results', required=True)
    ap.add_argument('--expected', required=True)
    ap.add_argument('--suite', default='')
    ap.add_argument('--selection', default='')
    ap.add_argument('--flavor', default='')
    ap.add_argument('--times', default='')
    ap.add_argument('--failed', default='')
    ap.add_argument('runs', nargs='+')
    a = ap.parse_args()

    kernels = []
    runs = {}
    broken = set(a.failed.split())
    for spec in a.runs:
        k, _, d = spec.partition('=')
        kernels.append(k)
        runs[k] = load_run(d)
    exp = load_expected(a.expected)
    res = {k: results_of(runs[k]) for k in kernels}
    ref = kernels[0]

    os.makedirs(a.results, exist_ok=True)
    for k in kernels:
        with open(os.path.join(a.results, 'testsuite-%s.csv' % k), 'w', newline='') as f:
            w = csv.writer(f)
            w.writerow(['test', 'subtest', 'result', 'exit', 'seconds', 'detail'])
            for t, r in runs[k]['tests'].items():
                w.writerow([t, '', r['result'], r['exit'], r['seconds'],
                            'plan %s' % r['plan']])
                for i, (sr, desc) in sorted(r['subtests'].items()):
                    w.writerow([t, i, sr, '', '', desc])
            for t in runs[k]['unavailable']:
                w.writerow([t, '', 'not enabled', '', '', "not in the suite's SUBDIRS for this guest"])

    # Differences: every key of any kernel, in the reference's order.
    keys = list(res[ref])
    for k in kernels[1:]:
        keys += [x for x in res[k] if x not in res[ref]]
    diffs = []
    for key in keys:
        vals = {k: res[k].get(key, 'absent') for k in kernels}
        if len(set(vals.values())) > 1:
            diffs.append({'test': key, 'results': vals})
    # Failures on every kernel: expected (with the reason) or not.
    common = []
    for key in keys:
        vals = [res[k].get(key) for k in kernels]
        if all(v in ('fail', 'missing', 'timeout', 'not run') for v in vals):
            common.append({'test': key, 'result': vals[0],
                           'expected': expected_reason(exp, key)})
    same = not diffs and not broken and all(runs[k]['tests'] for k in kernels)
    verdict = 'PASS' if same else 'FAIL'

    lines = []
    lines.append('selinux-testsuite: %s' % a.suite)
    lines.append('guest kernels: %s (flavor %s); selection: %s' % (' '.join(kernels), a.flavor, a.selection))
    sel = runs[ref]['selected']
    lines.append('test directories run: %d%s' % (
        len(sel), '; asked for but not enabled by the suite\'s Makefile in this guest: %s' %
        ' '.join(runs[ref]['unavailable']) if runs[ref]['unavailable'] else ''))
    if a.times:
        lines.append('phases: %s' % a.times)
    lines.append('')
    lines.append('%-10s %8s %8s %8s %8s %9s %8s %8s %8s %8s' % (
        'kernel', 'scripts', 'passed', 'skipped', 'failed', 'subtests', 'passed', 'skipped', 'failed', 'seconds'))
    c = {}
    for k in kernels:
        c[k] = counts(runs[k])
        x = c[k]
        lines.append('%-10s %8d %8d %8d %8d %9d %8d %8d %8d %8d%s' % (
            k, x['scripts'], x['scripts_passed'], x['scripts_skipped'], x['scripts_failed'], x['subtests'],
            x['passed'], x['skipped'], x['failed'], x['seconds'],
            '  (guest failed)' if k in broken else ''))
    lines.append('')
    skipped = [(t, r) for t, r in runs[ref]['tests'].items() if r['result'] == 'skip']
    if skipped:
        lines.append('test scripts that skipped themselves on %s (1..0): %s' % (
            ref, ', '.join('%s (%s)' % (t, r['skip_reason'] or 'no reason given') for t, r in skipped)))
        lines.append('')
    if common:
        lines.append('failing on every kernel (%d):' % len(common))
        for f in common:
            lines.append('  %-28s %-8s %s' % (f['test'], f['result'],
                         'expected: ' + f['expected'] if f['expected'] else 'NOT EXPECTED (not in expected-failures)'))
        lines.append('')
    if diffs:
        lines.append('differences from %s (%d):' % (ref, len(diffs)))
        for d in diffs:
            lines.append('  %-28s %s' % (d['test'], ', '.join('%s=%s' % kv for kv in d['results'].items())))
        lines.append('')
    if broken:
        lines.append('guests without complete results: %s' % ' '.join(sorted(broken)))
    if verdict == 'PASS':
        lines.append('testsuite: PASS (%s pass the same %d of %d subtests and %d of %d test scripts)' % (
            ' and '.join(kernels), c[ref]['passed'] + c[ref]['skipped'], c[ref]['subtests'],
            c[ref]['scripts_passed'], c[ref]['scripts']))
    else:
        lines.append('testsuite: FAIL (%d differences from %s%s)' % (
            len(diffs), ref, '; guest failures: ' + ' '.join(sorted(broken)) if broken else ''))
    text = '\n'.join(lines) + '\n'
    with open(os.path.join(a.results, 'testsuite.txt'), 'w') as f:
        f.write(text)
    doc = {'suite': a.suite, 'flavor': a.flavor, 'selection': a.selection,
           'phases': a.times, 'kernels': kernels, 'verdict': verdict,
           'differences': diffs, 'failing_on_every_kernel': common,
           'guest_failures': sorted(broken),
           'runs': {k: {'counts': c[k], 'selected': runs[k]['selected'],
                        'unavailable': runs[k]['unavailable'],
                        'tests': {t: {'result': r['result'], 'exit': r['exit'],
                                      'seconds': r['seconds'], 'plan': r['plan'],
                                      'subtests': {str(i): s for i, (s, _) in sorted(r['subtests'].items())}}
                                  for t, r in runs[k]['tests'].items()}}
                    for k in kernels}}
    with open(os.path.join(a.results, 'testsuite.json'), 'w') as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write('\n')
    sys.stdout.write(text)
    return 0 if verdict == 'PASS' else 1


if __name__ == '__main__':
    sys.exit(main())
