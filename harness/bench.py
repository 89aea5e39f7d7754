#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench: the report of marker-bench.

Usage: bench.py TIME_LOG ICOUNT_LOG KOBJ OUT_DIR [--smoke]

TIME_LOG is the guest log of a run under plain TCG (ns per iteration:
median, min and max of the runs); ICOUNT_LOG that of a run under
-icount shift=0 (one guest ns is one instruction, so the same figure is the
instructions of an iteration), or "-" for none. Writes OUT_DIR/bench.csv
(id,label,ns_median,ns_min,ns_max,insns) and OUT_DIR/bench-arming.csv
(sites,arm_us,arm_syncs,disarm_us,disarm_syncs,grace_periods), prints the
table, the targets met or not, and static figures from the build (KOBJ).
With --smoke, only checks that every row and arming line is there.
"""
import csv
import os
import re
import subprocess
import sys

ROWS = ["baseline", "mark_dormant", "sdt_dormant", "tracepoint_dormant",
        "old_marker_dormant", "tracepoint_armed", "mark_armed", "mark_armed_2probes",
        "sdt_call_1arg", "sdt_call_4args", "sdt_call_12args", "sdt_optprobe_1arg",
        "sdt_int3_1arg", "kprobe_entry", "mark_event", "trace_event", "sdt_event",
        "trace_printk"]
REQUIRED = [r for r in ROWS if r != "old_marker_dormant"]

ROW_RE = re.compile(r"marker_bench: row (\S+) median (\S+) min (\S+) max (\S+) ns "
                    r"runs (\d+) iters (\d+): (.*)")
ARM_RE = re.compile(r"marker_bench: arming sites (\d+) arm_us (\d+) arm_syncs (\d+) "
                    r"disarm_us (\d+) disarm_syncs (\d+) grace_periods (\d+): (\S+)")


def parse(path):
    rows, arming = {}, {}
    if path == "-" or not os.path.exists(path):
        return rows, arming
    text = open(path, errors="replace").read()
    for m in ROW_RE.finditer(text):
        # The same line comes again in the kernel log dump: keep the first.
        rows.setdefault(m.group(1), dict(median=float(m.group(2)), min=float(m.group(3)),
                                         max=float(m.group(4)), runs=int(m.group(5)),
                                         iters=int(m.group(6)), label=m.group(7).strip()))
    for m in ARM_RE.finditer(text):
        arming.setdefault(int(m.group(1)), [int(x) for x in m.group(2, 3, 4, 5, 6)])
    return rows, arming


def fallthrough(obj, fn):
    """Instructions and bytes of @fn in @obj up to its first ret or jmp."""
    dis = subprocess.run(["objdump", "-d", obj], capture_output=True, text=True).stdout
    m = re.search(r"<%s>:\n(.*?)\n\n" % re.escape(fn), dis, re.S)
    if not m:
        return None
    n = nbytes = 0
    for line in m.group(1).splitlines():
        f = line.split("\t")
        if len(f) < 3:
            continue
        n += 1
        nbytes += len(f[1].split())
        if f[2].startswith("ret") or f[2].startswith("jmp"):
            break
    return n, nbytes


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    smoke = "--smoke" in sys.argv
    time_log, icount_log, kobj, out = args
    rows, arming = parse(time_log)
    irows, _ = parse(icount_log)
    missing = [r for r in REQUIRED if r not in rows]
    if smoke:
        # By name: under clang the 100- and 1000-site names have one site
        # (it does not unroll a loop that holds a site).
        names = set(re.findall(r"marker_bench: arming sites \d+ .*?: (marker_bench_\d+)",
                               open(time_log, errors="replace").read()))
        print("rows: %d, arming names: %d" % (len(rows), len(names)))
        want = {"marker_bench_1", "marker_bench_100", "marker_bench_1000"}
        if missing or names != want:
            print("missing rows: %s; arming: %s" % (" ".join(missing), sorted(names)))
            return 1
        return 0

    def insns(r):
        return irows[r]["median"] if r in irows else None

    print("marker-bench: ns per iteration under QEMU TCG (median, min, max of %s runs), "
          "and instructions per iteration (-icount shift=0)" % rows.get("baseline", {}).get("runs", "?"))
    print("%-20s %-42s %9s %9s %9s %9s" % ("id", "the function holds", "median", "min", "max", "insns"))
    with open(os.path.join(out, "bench.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "label", "ns_median", "ns_min", "ns_max", "insns"])
        for r in ROWS:
            if r not in rows:
                continue
            d = rows[r]
            n = insns(r)
            w.writerow([r, d["label"], "%.2f" % d["median"], "%.2f" % d["min"], "%.2f" % d["max"],
                        "" if n is None else "%.2f" % n])
            print("%-20s %-42s %9.2f %9.2f %9.2f %9s" % (r, d["label"][:42], d["median"], d["min"],
                                                       d["max"], "-" if n is None else "%.2f" % n))
    with open(os.path.join(out, "bench-arming.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["sites", "arm_us", "arm_syncs", "disarm_us", "disarm_syncs", "grace_periods"])
        print("\narming one MARK() name (its sites in one module; syncs per CPU):")
        print("%6s %10s %9s %10s %12s %13s" % ("sites", "arm_us", "arm_syncs", "disarm_us",
                                              "disarm_syncs", "grace_periods"))
        for sites in sorted(arming):
            v = arming[sites]
            w.writerow([sites] + v)
            print("%6d %10d %9d %10d %12d %13d" % tuple([sites] + v))

    print("\ntargets (instructions, -icount shift=0: no traps, caches or branch prediction):")
    results = []

    def target(name, ok, why):
        results.append(ok)
        print("  %-44s %s%s" % (name, "met" if ok else "not met", "" if ok else ": " + why))

    def ratio(a, b):
        return insns(a) / insns(b) if insns(a) and insns(b) else None

    def ratio_target(a, b, limit, strict=False, why=""):
        r = ratio(a, b)
        ok = r is not None and (r < limit if strict else r <= limit)
        target("%s / %s %s %s" % (a, b, "<" if strict else "<=", limit), ok,
               "no instruction counts" if r is None else "%.2f%s" % (r, why))
        if r is not None:
            print("  %-44s %.2f" % ("  (%s / %s)" % (a, b), r))

    ratio_target("mark_armed", "tracepoint_armed", 1.0)
    ratio_target("sdt_call_1arg", "tracepoint_armed", 2.0,
                 why=": the trampoline saves all 15 registers and the flags, finds the site "
                 "in a hash table and interprets its operand program")
    ratio_target("mark_event", "trace_event", 1.1)
    ratio_target("mark_event", "trace_printk", 1.0, strict=True)
    base = insns("baseline")
    for d in ("mark_dormant", "sdt_dormant", "tracepoint_dormant"):
        n = insns(d)
        target("%s = baseline + 1 instruction" % d, n is not None and base is not None and
               abs(n - base - 1) < 0.01,
               "no instruction counts" if n is None or base is None else
               "baseline + %.2f" % (n - base))
    # A site is two instructions (a jump and a call); text_poke's vector
    # holds PAGE_SIZE / 16 = 256 and flushes itself when full, with three
    # syncs a batch, as for jump labels (no enlarged vector any more).
    a = arming.get(1000)
    want = 3 * -(-2 * 1000 // 256)
    target("arming 1000 sites: %d syncs (3 per 256 instructions), 1 grace period" % want,
           a is not None and a[1] == want and a[3] == want and a[4] == 1,
           "no figures" if a is None else "arm %d syncs, disarm %d syncs, %d grace periods"
           % (a[1], a[3], a[4]))

    obj = kobj + "/samples/markers/marker-bench.o"
    print("\nstatic figures (%s), the fall-through path against fn_base:" % obj.replace(kobj + "/", ""))
    ref = fallthrough(obj, "fn_base")
    for fn, what in [("fn_mark", "dormant MARK()"), ("fn_sdt", "dormant SDT site"),
                     ("fn_tp", "dormant tracepoint")]:
        f = fallthrough(obj, fn)
        if ref and f:
            print("  %-20s +%d instruction(s), +%d bytes" % (what, f[0] - ref[0], f[1] - ref[1]))
    rec = subprocess.run(["readelf", "-SW", obj], capture_output=True, text=True).stdout
    m = re.search(r"\]\s+__markers\s+\S+\s+\S+\s+\S+\s+([0-9a-f]+)", rec)
    ml = kobj + "/scripts/markers/markers-list"
    nsites = len(subprocess.run([ml, obj], capture_output=True, text=True).stdout.splitlines())
    if m and nsites:
        print("  record: %d bytes per site in __markers (+16 in __jump_table for a MARK() "
              "site, +8 in __marker_calls for its call)" % (int(m.group(1), 16) // nsites))
    print("\nCSV: %s, %s" % (os.path.join(out, "bench.csv"), os.path.join(out, "bench-arming.csv")))
    if missing:
        print("missing rows: %s" % " ".join(missing))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
