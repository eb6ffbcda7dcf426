#!/usr/bin/env python3
# Summarizes a lab-shape experiment (examples/experiments/lab-shape.yaml) from its results.json:
# medians per arm and stall state, and the paired comparisons docs/results.md quotes.
#   python3 examples/experiments/lab-shape-summary.py results/lab-shape/results.json
import json,sys,statistics as st
d=json.load(open(sys.argv[1]))
e=d['experiment']
per={}
for a in e['per_arm']:
    per[(a['arm'],a['stall'])]={r['round']:r for r in a['rounds']}
arms=[]
for a in e['per_arm']:
    if a['arm'] not in arms: arms.append(a['arm'])
def vals(arm,stall,f):
    return [f(r) for _,r in sorted(per[(arm,stall)].items())]
def med(x): return st.median(x)
print("| arm | stalls | p99 corrected (median, ms) | p99 service | p99 estimated | max corrected | sends per stall (median) | overlapping share | p99 corrected, every round |")
print("|---|---|---|---|---|---|---|---|---|")
for arm in arms:
    for stall in (True,False):
        if (arm,stall) not in per: continue
        c=vals(arm,stall,lambda r:r['corrected']['p99']); s=vals(arm,stall,lambda r:r['service']['p99'])
        est=[r['estimated']['p99'] for _,r in sorted(per[(arm,stall)].items()) if 'estimated' in r]
        mx=vals(arm,stall,lambda r:r['corrected']['max'])
        sps=[r.get('sends_per_stall') for _,r in sorted(per[(arm,stall)].items()) if 'sends_per_stall' in r]
        ov=[r.get('overlapping_share') for _,r in sorted(per[(arm,stall)].items()) if 'overlapping_share' in r]
        print(f"| {arm} | {'on' if stall else 'off'} | {med(c):.2f} | {med(s):.2f} | {med(est):.2f} |" if est else f"| {arm} | {'on' if stall else 'off'} | {med(c):.2f} | {med(s):.2f} | - |", end="")
        print(f" {med(mx):.1f} | {med(sps):.2f} | {med(ov)*100:.2f} % | {', '.join('%.1f'%x for x in c)} |" if sps else f" {med(mx):.1f} | - | - | {', '.join('%.1f'%x for x in c)} |")
def apart(a,b):
    diffs=[x-y for x,y in zip(a,b)]
    same=all(x>0 for x in diffs) or all(x<0 for x in diffs)
    nonover = max(a)<min(b) or max(b)<min(a)
    return same and nonover
print()
def cmp(label,a,b):
    print(f"- {label}: {', '.join('%.2f'%x for x in a)} vs {', '.join('%.2f'%x for x in b)}; median ratio {med([x/y for x,y in zip(a,b)]):.3f}; told apart: {'yes' if apart(a,b) else 'no'}")
O=lambda st_,f: vals('open-546',st_,f)
cmp("open-546 p99 corrected, stall on vs off", O(True,lambda r:r['corrected']['p99']), O(False,lambda r:r['corrected']['p99']))
cmp("closed-1 p99, stall on vs off", vals('closed-1',True,lambda r:r['service']['p99']), vals('closed-1',False,lambda r:r['service']['p99']))
cmp("closed-16 p99, stall on vs off", vals('closed-16',True,lambda r:r['service']['p99']), vals('closed-16',False,lambda r:r['service']['p99']))
cmp("paced-8 p99 service (what locust reports) vs open-546 p99 corrected, stalls on", vals('paced-8',True,lambda r:r['service']['p99']), O(True,lambda r:r['corrected']['p99']))
cmp("paced-8 p99 corrected (catch-up lateness charged) vs open-546 p99 corrected, stalls on", vals('paced-8',True,lambda r:r['corrected']['p99']), O(True,lambda r:r['corrected']['p99']))
cmp("closed-1 p99 vs open-546 p99 corrected, stalls on", vals('closed-1',True,lambda r:r['service']['p99']), O(True,lambda r:r['corrected']['p99']))
for arm in ('paced-8','closed-1','closed-16'):
    est=[r['estimated']['p99'] for _,r in sorted(per[(arm,True)].items()) if 'estimated' in r]
    if est: cmp(f"{arm} expected-interval estimate of p99 vs open-546 p99 corrected, stalls on", est, O(True,lambda r:r['corrected']['p99']))
print()
for p in e.get('pairs',[]):
    print(f"- pair {p['a']} vs {p['b']} ({p['metric']}, stall {'on' if p['stall'] else 'off'}): differences {p['differences_ms']} ms, told apart: {p['told_apart']}")
