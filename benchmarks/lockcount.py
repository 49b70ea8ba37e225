#!/usr/bin/env python3
"""Counts executed locked instructions (lock prefix, xchg with memory) per object in a
callgrind file recorded with --dump-instr=yes. usage: lockcount.py cg.out lib.so [bin]"""
import sys, re, subprocess, collections
cg, *objs = sys.argv[1:]
locked = {}  # (obj basename, addr) -> text
for o in objs:
    out = subprocess.run(['objdump', '-d', '--no-show-raw-insn', o], capture_output=True, text=True).stdout
    fn = None
    for line in out.splitlines():
        m = re.match(r'^([0-9a-f]+) <(.*)>:$', line)
        if m: fn = m.group(2); continue
        m = re.match(r'^\s+([0-9a-f]+):\s+(.*)$', line)
        if not m: continue
        ins = m.group(2)
        if ins.startswith('lock ') or (ins.startswith('xchg') and '(' in ins):
            locked[(o.split('/')[-1], int(m.group(1), 16))] = (fn, ins)
counts = collections.Counter()
ob = None; fl = None; addr = 0
obnames = {}
subcall = False
for line in open(cg):
    line = line.rstrip('\n')
    if line.startswith('cob='):
        m = re.match(r'cob=\((\d+)\)(?: (.*))?', line)
        if m and m.group(2): obnames[m.group(1)] = m.group(2)
        continue
    if line.startswith('ob='):
        m = re.match(r'ob=\((\d+)\)(?: (.*))?', line)
        if m:
            if m.group(2): obnames[m.group(1)] = m.group(2)
            ob = obnames[m.group(1)].split('/')[-1]
        else: ob = line[3:].split('/')[-1]
        continue
    if line.startswith(('calls=')): subcall = True; continue
    if not line or not (line[0] in '0123456789+-*'): continue
    parts = line.split()
    p = parts[0]
    if p.startswith('0x'): a = int(p, 16)
    elif p[0] in '+-': a = addr + int(p)
    elif p == '*': a = addr
    else: continue
    addr = a
    if subcall: subcall = False; continue  # the call line's cost is inclusive
    if (ob, a) in locked:
        counts[(ob, a)] += int(parts[2]) if len(parts) > 2 else 0
tot = 0
for (ob, a), n in sorted(counts.items(), key=lambda x: -x[1]):
    fn, ins = locked[(ob, a)]
    print(f'{n:12d}  {ob} {fn[:90]}  {ins}')
    tot += n
print(f'{tot:12d}  total')
