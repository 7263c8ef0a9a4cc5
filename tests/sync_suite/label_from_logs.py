#!/usr/bin/env python3
"""Fill the "sanitizer" field of tests/sync_suite/manifest.json from the H200 logs.

    python3 tests/sync_suite/label_from_logs.py [LOGDIR] [--fallback DIR] [--write]

LOGDIR (default tests/data/h200/sync_suite) holds what the `sync` phase of
tests/corpus/measure_h200.sh wrote: sync_racecheck.log and sync_synccheck.log, one
compute-sanitizer log per case, each after a line
"##### case ID tool TOOL rc RC", and sync_cases.out (the launcher's output).

Per case: racecheck = errors + warnings of its RACECHECK SUMMARY (racecheck's default
analysis report: one hazard per pair of source locations; racecheck_instances sums the
"[N hazards]" counts it gives for each), synccheck = the
errors of its ERROR SUMMARY, *_lines = the source lines the reports name (in the
case's .cu file), and a note when a run did not finish (timeout, no summary, the
launcher failed).  Without --write it only prints the agreement table.

--fallback DIR (default LOGDIR/run1 when it exists) holds the logs of an earlier run,
used for a case whose run in LOGDIR ended without a summary (a kernel that deadlocked
there and was changed back afterwards to the text the earlier run measured).  Its
source lines are moved by the shift of the case's `// BUG` line between the two file
layouts (DIR/bug_lines.json gives the earlier layout's line per case).

Agreement with the author label: shared-race and intra-warp-race need racecheck > 0;
barrier-divergence needs synccheck > 0; clean needs both 0; global-race is outside
what racecheck sees (shared memory only), so it is listed but not scored.
"""
import argparse
import collections
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_LOGS = os.path.join(HERE, '..', 'data', 'h200', 'sync_suite')
MANIFEST = os.path.join(HERE, 'manifest.json')

HEADER = re.compile(r'^##### case (\S+) tool (\S+) rc (\S+)\s*$')
RACE_SUMMARY = re.compile(r'RACECHECK SUMMARY:\s*(\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)')
ERROR_SUMMARY = re.compile(r'ERROR SUMMARY:\s*(\d+) errors?\s*$', re.M)  # not '... were not printed'
SRC_LINE = re.compile(r'([\w./+-]*\.cu):(\d+)')


def split_cases(path):
    """{case_id: (rc, [lines])} of one concatenated log."""
    out, cur = {}, None
    if not os.path.exists(path):
        return out
    with open(path, errors='replace') as fh:
        for line in fh:
            m = HEADER.match(line)
            if m:
                cur = m.group(1)
                out[cur] = (m.group(3), [])
            elif cur is not None:
                out[cur][1].append(line.rstrip('\n'))
    return out


def launcher_status(path):
    """{case_id: 'ok' | 'LAUNCHED-FAILED ...' | 'ERROR ...'} from sync_cases.out (racecheck runs)."""
    status = {}
    if not os.path.exists(path):
        return status
    cur_tool, cur = None, None
    with open(path, errors='replace') as fh:
        for line in fh:
            m = HEADER.match(line)
            if m:
                cur, cur_tool = m.group(1), m.group(2)
                continue
            m = re.match(r'^\[case\]\s+(\S+)\s+(\S+)\s*(.*)$', line)
            if m and m.group(1) == cur:
                status[(cur, cur_tool)] = (m.group(2) + ' ' + m.group(3)).strip()
    return status


def parse(case, rc, lines, tool):
    """(count, source lines named, note) for one case's log of one tool."""
    text = '\n'.join(lines)
    # One case per sanitizer process, one NVRTC source per process: every device-code
    # location in the log (NVRTC names it <hash>.cubin.cu:LINE) is in the case's .cu file.
    src_lines = sorted({int(m.group(2)) for m in SRC_LINE.finditer(text)})
    count, note = None, None
    if tool == 'racecheck':
        m = RACE_SUMMARY.search(text)
        if m:
            count = int(m.group(2)) + int(m.group(3))
            # the analysis report groups hazard instances by pair of source locations
            count_instances = sum(int(x) for x in re.findall(r'\[(\d+) hazards?\]', text))
            return count, src_lines, note, count_instances
    else:
        m = ERROR_SUMMARY.search(text)
        if m:
            count = int(m.group(1))
    if rc in ('124', '137'):
        note = '%s timed out (rc %s)' % (tool, rc)
    elif count is None:
        note = '%s printed no summary (rc %s)' % (tool, rc)
    return count, src_lines, note, None


def agreement(case):
    s = case.get('sanitizer') or {}
    rc, sc = s.get('racecheck'), s.get('synccheck')
    kind = case['kind']
    if kind in ('shared-race', 'intra-warp-race'):
        return None if rc is None else rc > 0
    if kind == 'barrier-divergence':
        return None if sc is None else sc > 0
    if kind == 'clean':
        return None if rc is None or sc is None else (rc == 0 and sc == 0)
    return 'n/a'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('logdir', nargs='?', default=DEFAULT_LOGS)
    ap.add_argument('--fallback', help='logs of an earlier run, for cases without a summary in LOGDIR')
    ap.add_argument('--write', action='store_true', help='write the sanitizer fields into manifest.json')
    a = ap.parse_args()
    fallback = a.fallback or os.path.join(a.logdir, 'run1')
    fb_logs = {'racecheck': split_cases(os.path.join(fallback, 'sync_racecheck.log')),
               'synccheck': split_cases(os.path.join(fallback, 'sync_synccheck.log'))}
    fb_lines = {}
    if os.path.exists(os.path.join(fallback, 'bug_lines.json')):
        with open(os.path.join(fallback, 'bug_lines.json')) as fh:
            fb_lines = json.load(fh)
    with open(MANIFEST) as fh:
        cases = json.load(fh)
    race = split_cases(os.path.join(a.logdir, 'sync_racecheck.log'))
    sync = split_cases(os.path.join(a.logdir, 'sync_synccheck.log'))
    status = launcher_status(os.path.join(a.logdir, 'sync_cases.out'))
    missing = []
    for c in cases:
        if c['id'] not in race and c['id'] not in sync:
            missing.append(c['id'])
            c['sanitizer'] = None
            continue
        entry, notes = {}, []
        for tool, logs in (('racecheck', race), ('synccheck', sync)):
            if c['id'] not in logs:
                entry[tool], entry[tool + '_lines'] = None, []
                notes.append('%s not run' % tool)
                continue
            rc, lines = logs[c['id']]
            count, src_lines, note, inst = parse(c, rc, lines, tool)
            if count is None and c['id'] in fb_logs[tool] and c['id'] in fb_lines and c['line']:
                frc, flines = fb_logs[tool][c['id']]
                fcount, fsrc, fnote, finst = parse(c, frc, flines, tool)
                if fcount is not None:
                    inst = finst
                    shift = c['line'] - fb_lines[c['id']]
                    note = ('%s; result from %s (same kernel text, lines shifted by %+d)'
                            % (note, os.path.basename(os.path.normpath(fallback)), shift))
                    count, src_lines = fcount, [x + shift for x in fsrc]
            entry[tool], entry[tool + '_lines'] = count, src_lines
            if tool == 'racecheck' and inst is not None:
                entry['racecheck_instances'] = inst
            if note:
                notes.append(note)
            st = status.get((c['id'], tool))
            if st is not None and not st.startswith('ok'):
                why = ' (synccheck aborts the kernel at the barrier error)' if tool == 'synccheck' and count else ''
                notes.append('%s launch: %s%s' % (tool, st, why))
        if notes:
            entry['note'] = '; '.join(notes)
        c['sanitizer'] = entry

    by_kind = collections.defaultdict(lambda: collections.Counter())
    disagreements = []
    for c in cases:
        ag = agreement(c)
        key = {True: 'agree', False: 'disagree', None: 'unknown', 'n/a': 'not scored'}[ag]
        by_kind[c['kind']][key] += 1
        s = c.get('sanitizer') or {}
        if ag is False or ag is None:
            disagreements.append((c['id'], c['kind'], s.get('racecheck'), s.get('synccheck'), s.get('note')))
        if c['kind'] in ('shared-race', 'intra-warp-race') and s.get('racecheck'):
            by_kind[c['kind']]['line named by racecheck' if c['line'] in s.get('racecheck_lines', [])
                               else 'line not named by racecheck'] += 1
        if c['kind'] == 'global-race' and s.get('racecheck'):
            by_kind[c['kind']]['racecheck reports (shared)'] += 1
    print('%-20s %s' % ('kind', 'counts'))
    for kind in ('shared-race', 'intra-warp-race', 'barrier-divergence', 'global-race', 'clean'):
        n = sum(1 for c in cases if c['kind'] == kind)
        print('%-20s n=%-3d %s' % (kind, n, ', '.join('%s %d' % kv for kv in sorted(by_kind[kind].items()))))
    if missing:
        print('no logs for %d cases: %s' % (len(missing), ', '.join(missing)))
    if disagreements:
        print('\nlabel and sanitizer disagree (or sanitizer gave no answer):')
        for d in disagreements:
            print('  %-34s %-19s racecheck=%s synccheck=%s %s' % (d[0], d[1], d[2], d[3], d[4] or ''))
    if a.write:
        with open(MANIFEST, 'w') as fh:
            json.dump(cases, fh, indent=1)
            fh.write('\n')
        print('\nwrote', os.path.relpath(MANIFEST))
    return 0


if __name__ == '__main__':
    sys.exit(main())
