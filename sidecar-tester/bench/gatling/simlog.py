#!/usr/bin/env python3
"""Reads Gatling 3.12+'s binary simulation.log (the format of LogFileDataWriter in 3.13.5) and prints, as
key=value lines, the requests sent in a window and their response times (Gatling's: end - start, whole ms,
from the actual send): used by open-vs-peers.sh.

    simlog.py SIMULATION.LOG [START_EPOCH_MS END_EPOCH_MS]

Without a window, the whole run. Percentiles by nearest rank over the requests sent in [START, END).
"""
import math
import struct
import sys


class Reader:
    def __init__(self, data):
        self.b, self.i, self.cache = data, 0, {}

    def take(self, fmt):
        v = struct.unpack_from(fmt, self.b, self.i)[0]
        self.i += struct.calcsize(fmt)
        return v

    def string(self):
        n = self.take('>i')
        if n == 0:
            return ''
        raw = self.b[self.i:self.i + n]
        self.i += n
        coder = self.take('>b')  # Java's String coder: 0 LATIN1, 1 UTF16
        return raw.decode('latin-1') if coder == 0 else raw.decode('utf-16-be' if sys.byteorder == 'big' else 'utf-16-le')

    def cached(self):
        idx = self.take('>i')
        if idx > 0:
            self.cache[idx] = self.string()
            return self.cache[idx]
        return self.cache.get(-idx, '')


def read(path):
    r = Reader(open(path, 'rb').read())
    run_start, requests = None, []  # (start_epoch_ms, response_ms, ok)
    while r.i < len(r.b):
        kind = r.take('>b')
        if kind == 0:  # run: version, class, start, description, scenarios, assertions
            r.string(); r.string(); run_start = r.take('>q'); r.string()
            for _ in range(r.take('>i')):
                r.string()
            for _ in range(r.take('>i')):
                r.i += r.take('>i')
        elif kind == 1:  # request: groups, name, start, end (ms after the run's start), ok, message
            for _ in range(r.take('>i')):
                r.cached()
            r.cached()
            start, end, ok = r.take('>i'), r.take('>i'), r.take('>b')
            r.cached()
            requests.append((run_start + start, end - start, ok == 1))
        elif kind == 2:  # user: scenario, start or end, timestamp
            r.take('>i'); r.take('>b'); r.take('>i')
        elif kind == 3:  # group: groups, start, end, cumulated response time, ok
            for _ in range(r.take('>i')):
                r.cached()
            r.take('>i'); r.take('>i'); r.take('>i'); r.take('>b')
        elif kind == 4:  # error: message, timestamp
            r.cached(); r.take('>i')
        else:
            raise SystemExit('simlog.py: unknown record %d at byte %d of %s' % (kind, r.i - 1, path))
    return run_start, requests


def main():
    run_start, requests = read(sys.argv[1])
    if len(sys.argv) >= 4:
        lo, hi = int(sys.argv[2]), int(sys.argv[3])
        requests = [q for q in requests if lo <= q[0] < hi]
    times = sorted(q[1] for q in requests)
    print('requests=%d' % len(requests))
    print('ok=%d' % sum(1 for q in requests if q[2]))
    print('ko=%d' % sum(1 for q in requests if not q[2]))
    for name, p in (('p50', 50), ('p90', 90), ('p99', 99), ('p999', 99.9)):
        print('%s_ms=%s' % (name, times[max(0, math.ceil(p / 100 * len(times)) - 1)] if times else 'n/a'))
    print('max_ms=%s' % (times[-1] if times else 'n/a'))


if __name__ == '__main__':
    main()
