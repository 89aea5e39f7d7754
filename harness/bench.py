#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench: print marker-bench's rows from a guest log as a table with
ratios, the arming latencies, and static figures computed from the build;
write a CSV copy. Usage: bench.py GUEST_LOG KOBJ OUT_CSV [--smoke]"""
import csv, re, subprocess, sys

log, kobj, out = sys.argv[1:4]
smoke = "--smoke" in sys.argv
text = open(log, errors="replace").read()
rows = {}
for m in re.finditer(r"marker_bench: row (\S) median (\S+) min (\S+) max (\S+) ns runs (\d+) iters (\d+): (.*)", text):
    if m.group(1) in rows:      # the same line again, in the kernel log dump
        continue
    rows[m.group(1)] = dict(row=m.group(1), median=float(m.group(2)), min=float(m.group(3)),
                            max=float(m.group(4)), runs=int(m.group(5)), iters=int(m.group(6)),
                            what=m.group(7).strip())
want = "abcdefghijkK"
missing = [r for r in want if r not in rows]
dormant, armed = "bcde", "fhijkK"
base = rows.get("a", {}).get("median")
tp = rows.get("g", {}).get("median")
print("marker-bench, ns per iteration (median of %s runs, ktime_get_ns(), irqs off), QEMU TCG"
      % (rows.get("a", {}).get("runs", "?")))
print("%-3s %-52s %9s %9s %9s  %s" % ("row", "the function contains", "median", "min", "max", "ratio"))
for r in want:
    if r not in rows:
        print("%-3s %-52s %9s" % (r, "(missing)", "-"))
        continue
    d = rows[r]
    ratio = ""
    if r in dormant and base:
        ratio = "%.2fx baseline" % (d["median"] / base)
    elif r in armed and tp:
        ratio = "%.2fx armed tracepoint" % (d["median"] / tp)
    d["ratio"] = ratio
    print("%-3s %-52s %9.2f %9.2f %9.2f  %s" % (r, d["what"], d["median"], d["min"], d["max"], ratio))

lat = []
for l in re.findall(r"marker_bench: latency sites (\d+) arm (\d+) us syncs (\d+) disarm (\d+) us syncs (\d+): (\S+)", text):
    if l[5] not in [x[5] for x in lat]:
        lat.append(l)
print("\narming latency (one name, its sites in one module):")
print("%6s %10s %6s %12s %6s" % ("sites", "arm us", "syncs", "disarm us", "syncs"))
for l in lat:
    print("%6s %10s %6s %12s %6s" % l[:5])

# Static figures, from the build: the fall-through path of each function.
def fallthrough(obj, fn):
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

obj = kobj + "/samples/markers/marker-bench.o"
print("\nstatic figures (%s):" % obj.replace(kobj + "/", ""))
ref = fallthrough(obj, "fn_base")
static = []
for fn, what in [("fn_mark", "dormant MARK"), ("fn_sdt", "dormant SDT site"), ("fn_tp", "dormant tracepoint")]:
    f = fallthrough(obj, fn)
    if ref and f:
        static.append((what, f[0] - ref[0], f[1] - ref[1]))
        print("  %-20s +%d instruction(s), +%d bytes on the fall-through path" % (what, f[0] - ref[0], f[1] - ref[1]))
def marker_relocs(o):
    rel = subprocess.run(["readelf", "-rW", o], capture_output=True, text=True).stdout
    if ".rela__markers" not in rel:
        return []
    part = rel.split(".rela__markers")[1].split("Relocation section")[0]
    return re.findall(r"^\S+\s+\S+\s+(R_X86_64_\w+)", part, re.M)

def section_size(o, name):
    out = subprocess.run(["readelf", "-SW", o], capture_output=True, text=True).stdout
    m = re.search(r"\]\s+%s\s+\S+\s+\S+\s+\S+\s+([0-9a-f]+)" % re.escape(name), out)
    return int(m.group(1), 16) if m else 0

# The record size, from the build: __markers over the sites markers-list finds.
nsites = len(subprocess.run([kobj + "/scripts/markers/markers-list", obj],
                            capture_output=True, text=True).stdout.splitlines())
rec = section_size(obj, "__markers") // nsites if nsites else 0
print("  record: %d bytes per site in __markers (+16 in __jump_table for MARK,"
      " plus a struct marker_desc per MARK expansion)" % rec)
abs_total = 0
for o, label in [(obj, "marker-bench.o"), (kobj + "/kernel/module/main.o", "kernel/module/main.o, vmlinux sites")]:
    types = marker_relocs(o)
    abs_rel = [t for t in types if t in ("R_X86_64_64", "R_X86_64_32", "R_X86_64_32S")]
    abs_total += len(abs_rel)
    print("  relocations of __markers in %s: %d, absolute: %d (%s)"
          % (label, len(types), len(abs_rel), ", ".join(sorted(set(types)))))
print("  absolute relocations per site (so KASLR relocations added): %d" % abs_total)

with open(out, "w", newline="") as fh:
    w = csv.writer(fh)
    w.writerow(["row", "what", "median_ns", "min_ns", "max_ns", "runs", "iters", "ratio"])
    for r in want:
        if r in rows:
            d = rows[r]
            w.writerow([r, d["what"], d["median"], d["min"], d["max"], d["runs"], d["iters"], d.get("ratio", "")])
    for l in lat:
        w.writerow(["latency", "sites=" + l[0], l[1], "", l[3], "", "", "arm/disarm us; syncs %s/%s" % (l[2], l[4])])
    for s in static:
        w.writerow(["static", s[0], s[1], "", s[2], "", "", "instructions/bytes added"])
print("\nCSV: %s" % out)
if missing:
    print("missing rows: %s" % "".join(missing))
    sys.exit(1)
if len(lat) != 3:
    print("missing latency lines")
    sys.exit(1)
