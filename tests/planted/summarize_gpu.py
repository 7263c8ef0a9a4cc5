#!/usr/bin/env python3
"""Summarise a measure_h200.sh run per case: global sectors/request, shared wavefronts per
instruction and bank conflicts, divergent branch targets, theoretical occupancy, local-memory
(spill) sectors, duration in microseconds, racecheck reports (grids capped at 4 x 4 blocks) and
synccheck errors (barrier_divergence.cu only; '-' = not run).

    python3 tests/planted/summarize_gpu.py OUTDIR
"""
import csv
import io
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))


def num(v):
    try:
        return float(str(v).replace(',', ''))
    except ValueError:
        return None


def read_ncu(path):
    rows = {}
    block = []

    def flush():
        lines = [l for l in block if l.startswith('"')]
        if not lines:
            return
        rd = list(csv.reader(io.StringIO('\n'.join(lines))))
        header = rd[0]
        for r in rd[2:]:  # row 1 holds units
            d = dict(zip(header, r))
            name = d.get('Kernel Name', '')
            base = re.sub(r'[<(].*', '', name).strip()
            base = base.split()[-1] if base else base
            rows[base] = d
    with open(path) as fh:
        for line in fh:
            if line.startswith('== '):
                flush()
                block = []
            else:
                block.append(line.rstrip('\n'))
    flush()
    return rows


def race_hits(path, kernels):
    """Number of racecheck reports whose first access is in each kernel."""
    hits = {k: 0 for k in kernels}
    if os.path.exists(path):
        for line in open(path, errors='replace'):
            m = re.search(r'Race reported between \w+ access at (?:void )?(\w+)', line)
            if m and m.group(1) in hits:
                hits[m.group(1)] += 1
    return hits


def sync_errors(path):
    """{case id: synccheck error count} from the per-case sections of synccheck.txt."""
    out, cur = {}, None
    if os.path.exists(path):
        for line in open(path, errors='replace'):
            if line.startswith('== '):
                cur = line[3:].strip()
                out[cur] = 0
            m = re.search(r'ERROR SUMMARY: (\d+) errors?$', line.strip())
            if m and cur is not None:
                out[cur] = int(m.group(1))
    return out


def main():
    out = sys.argv[1]
    cases = json.load(open(os.path.join(ROOT, 'manifest.json')))
    ncu = read_ncu(os.path.join(out, 'ncu.csv'))
    kernels = [c['kernel'] for c in cases]
    race = race_hits(os.path.join(out, 'racecheck.txt'), kernels)
    sync = sync_errors(os.path.join(out, 'synccheck.txt'))
    hdr = f"{'id':34} {'planted':20} {'ld s/r':>6} {'st s/r':>6} {'shld w/i':>8} {'shst w/i':>8} {'bconf':>8} {'divT':>8} {'occ%':>5} {'local':>8} {'us':>8} race sync"
    print(hdr)
    for c in cases:
        d = ncu.get(c['kernel'])
        if d is None:
            print(f"{c['id']:34} (no ncu row)")
            continue
        g = lambda m: num(d.get(m))
        def ratio(a, b):
            a, b = g(a), g(b)
            return f'{a / b:6.2f}' if a is not None and b else '     -'
        ld = ratio('l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum', 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum')
        st = ratio('l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum', 'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum')
        shl = ratio('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', 'smsp__inst_executed_op_shared_ld.sum')
        shs = ratio('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum', 'smsp__inst_executed_op_shared_st.sum')
        bc = (g('l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum') or 0) + \
             (g('l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum') or 0)
        div = g('smsp__sass_branch_targets_threads_divergent.sum') or 0
        occ = g('sm__maximum_warps_per_active_cycle_pct') or 0
        local = (g('l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum') or 0) + \
                (g('l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum') or 0)
        dur = g('gpu__time_duration.sum') or 0
        us = dur / 1000.0  # ns -> us (ncu reports nsecond by default)
        print(f"{c['id']:34} {','.join(c['planted']) or '-':20} {ld} {st} {shl:>8} {shs:>8} {bc:8.0f} "
              f"{div:8.0f} {occ:5.1f} {local:8.0f} {us:8.1f} {race[c['kernel']]:4} {sync.get(c['id'], '-'):>4}")


if __name__ == '__main__':
    main()
