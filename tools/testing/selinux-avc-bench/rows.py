# SPDX-License-Identifier: GPL-2.0
"""The benchmark's rows, read from rows.conf (its header says what each
line means), for report.py and scripts/paper.py."""
import collections
import os

ROWS_CONF = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'rows.conf')

Op = collections.namedtuple('Op', 'name count needs argv')
Row = collections.namedtuple('Row', 'key op windows unit paper label description')


def load(path=ROWS_CONF):
    """(ops, churn, rows): the "op" lines as Op, in order; the churn
    scenario's op names, in order; the "row" lines as Row, in order.
    load_scenarios() also gives the neveraudit scenario's ops."""
    ops, scen, rows = load_scenarios(path)
    return ops, scen['churn'], rows


def load_scenarios(path=ROWS_CONF):
    """(ops, scenarios, rows): as load(), with the op names of each
    scenario line (churn, neveraudit) in a dict."""
    ops, rows = [], []
    scen = {'churn': [], 'neveraudit': []}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            words = line.split()
            if not words or words[0].startswith('#'):
                continue
            where = '%s:%d' % (path, n)
            if words[0] == 'op' and len(words) >= 5 and words[2].isdigit():
                ops.append(Op(words[1], int(words[2]), words[3], words[4:]))
            elif words[0] in scen:
                scen[words[0]] += words[1:]
            elif words[0] == 'row':
                head, sep, desc = line.partition(' | ')
                f = head.split(None, 6)
                if not sep or len(f) != 7 or not f[3].isdigit() or \
                        f[4] not in ('op', 'run') or f[5] not in ('paper', '-'):
                    raise ValueError('%s: not "row KEY OP WINDOWS op|run paper|- '
                                     'LABEL | DESCRIPTION"' % where)
                rows.append(Row(f[1], f[2], int(f[3]), f[4], f[5] == 'paper',
                                f[6].strip(), desc.strip()))
            else:
                raise ValueError('%s: not an op, churn, neveraudit or row line' % where)
    names = [o.name for o in ops]
    for op in scen['churn'] + scen['neveraudit'] + [r.op for r in rows]:
        if op not in names:
            raise ValueError('%s: no op line for %s' % (path, op))
    keys = [r.key for r in rows]
    if len(set(keys)) != len(keys) or len(set(names)) != len(names):
        raise ValueError('%s: a row key or op name twice' % path)
    return ops, scen, rows
