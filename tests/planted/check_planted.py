#!/usr/bin/env python3
"""Consistency checks for the planted-smell set (no linter involved).

* manifest structure: keys, ids, twins point at planted kernels, lines inside the file;
* every .cu file compiles with `nvcc -arch=sm_90 -cubin -Xptxas -v` and every manifest kernel
  shows up in ptxas's report;
* register-spill: planted kernels spill (non-zero spill stores and loads), every other kernel
  spills nothing;
* low-occupancy: planted kernels are below 50% theoretical occupancy under their manifest
  launch, every other kernel is at 50% or above (sm_90 limits, same rules as
  cudaOccupancyMaxActiveBlocksPerMultiprocessor).

    python3 tests/planted/check_planted.py [--no-compile]
"""
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))
KEYS = {'id', 'file', 'kernel', 'template_args', 'planted', 'twin_of', 'grid', 'block', 'smem',
        'args', 'line', 'alt_lines', 'note'}
RULES = {'barrier-divergence', 'shared-race', 'redundant-barrier', 'atomic-contention',
         'divergent-branch', 'uncoalesced-access', 'bank-conflict', 'register-spill', 'low-occupancy'}

# sm_90 (H100/H200)
MAX_WARPS, MAX_BLOCKS, REGS, REG_UNIT = 64, 32, 65536, 256
SMEM_SM, SMEM_RESERVED, SMEM_GRAN = 233472, 1024, 128


def occupancy(threads, regs, smem_bytes):
    warps = -(-threads // 32)
    by_warps = MAX_WARPS // warps
    regs_warp = -(-regs * 32 // REG_UNIT) * REG_UNIT
    by_regs = (REGS // regs_warp) // warps if regs else MAX_BLOCKS
    per_block = -(-(smem_bytes + SMEM_RESERVED) // SMEM_GRAN) * SMEM_GRAN
    by_smem = SMEM_SM // per_block
    blocks = min(MAX_BLOCKS, by_warps, by_regs, by_smem)
    limiter = min([(by_warps, 'warps'), (by_regs, 'registers'), (by_smem, 'shared memory')],
                  key=lambda x: x[0])[1]
    return blocks * warps / MAX_WARPS, blocks, limiter


def ptxas_report(path):
    """{mangled name: {'regs', 'spill_st', 'spill_ld', 'smem'}} from nvcc -Xptxas -v."""
    out = subprocess.run(['nvcc', '-arch=sm_90', '-cubin', '-Xptxas', '-v', '-o', os.devnull, path],
                         capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise SystemExit(f'{path}: nvcc failed\n{out.stderr}')
    res, cur = {}, None
    for line in out.stderr.splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            cur = res.setdefault(m.group(1), {'regs': 0, 'spill_st': 0, 'spill_ld': 0, 'smem': 0})
            continue
        if cur is None:
            continue
        m = re.search(r'(\d+) bytes spill stores, (\d+) bytes spill loads', line)
        if m:
            cur['spill_st'], cur['spill_ld'] = int(m.group(1)), int(m.group(2))
        m = re.search(r'Used (\d+) registers', line)
        if m:
            cur['regs'] = int(m.group(1))
            m = re.search(r'(\d+) bytes smem', line)
            cur['smem'] = int(m.group(1)) if m else 0
    return res


def mangled_for(report, kernel):
    hits = [name for name in report if re.match(r'^_Z' + str(len(kernel)) + re.escape(kernel), name)]
    return hits


def main():
    with open(os.path.join(ROOT, 'manifest.json')) as fh:
        cases = json.load(fh)
    errors = []
    by_id = {c['id']: c for c in cases}
    if len(by_id) != len(cases):
        errors.append('duplicate ids')
    for c in cases:
        if set(c) != KEYS:
            errors.append(f"{c['id']}: keys {sorted(set(c) ^ KEYS)}")
        if not set(c['planted']) <= RULES:
            errors.append(f"{c['id']}: unknown rule in {c['planted']}")
        lines = open(os.path.join(ROOT, c['file'])).read().split('\n')
        if c['planted']:
            if c['twin_of'] is not None or not c['line'] or not 1 <= c['line'] <= len(lines):
                errors.append(f"{c['id']}: planted case needs a line and no twin_of")
        else:
            t = by_id.get(c['twin_of'])
            if t is None or not t['planted'] or c['line'] is not None:
                errors.append(f"{c['id']}: twin_of must name a planted case, line must be null")
        for a in c['alt_lines']:
            if not 1 <= a <= len(lines):
                errors.append(f"{c['id']}: alt line {a} out of range")
    twins = {c['twin_of'] for c in cases if c['twin_of']}
    for c in cases:
        if c['planted'] and c['id'] not in twins:
            errors.append(f"{c['id']}: planted case without a clean twin")

    if '--no-compile' not in sys.argv:
        if not shutil.which('nvcc'):
            raise SystemExit('nvcc not found (use --no-compile)')
        reports = {}
        for fname in sorted({c['file'] for c in cases}):
            reports[fname] = ptxas_report(os.path.join(ROOT, fname))
        print(f"{'id':38} {'regs':>4} {'spill st/ld':>11} {'smem':>6} {'occ':>6}  limiter")
        for c in cases:
            names = mangled_for(reports[c['file']], c['kernel'])
            if len(names) != 1:
                errors.append(f"{c['id']}: ptxas entries {names}")
                continue
            r = reports[c['file']][names[0]]
            threads = c['block'][0] * c['block'][1] * c['block'][2]
            occ, blocks, limiter = occupancy(threads, r['regs'], r['smem'] + c['smem'])
            print(f"{c['id']:38} {r['regs']:4} {r['spill_st']:5}/{r['spill_ld']:<5} "
                  f"{r['smem'] + c['smem']:6} {occ:6.1%}  {limiter}")
            spills = r['spill_st'] > 0 and r['spill_ld'] > 0
            any_spill = r['spill_st'] > 0 or r['spill_ld'] > 0
            if 'register-spill' in c['planted'] and not spills:
                errors.append(f"{c['id']}: expected spills, ptxas reports none")
            if 'register-spill' not in c['planted'] and any_spill:
                errors.append(f"{c['id']}: unexpected spills")
            if 'low-occupancy' in c['planted'] and occ >= 0.5:
                errors.append(f"{c['id']}: expected occupancy below 50%, got {occ:.1%}")
            if 'low-occupancy' not in c['planted'] and occ < 0.5:
                errors.append(f"{c['id']}: occupancy {occ:.1%} below 50% ({limiter})")

    counts = {}
    for c in cases:
        for r in c['planted']:
            counts[r] = counts.get(r, 0) + 1
    print('planted per rule:', ', '.join(f'{k} {v}' for k, v in sorted(counts.items())))
    print(f"{len(cases)} cases, {sum(1 for c in cases if not c['planted'])} clean twins")
    if errors:
        print('\n'.join('ERROR ' + e for e in errors))
        sys.exit(1)
    print('ok')


if __name__ == '__main__':
    main()
