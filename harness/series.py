#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The kernel side as a git-am-able patch series (make patches).

    series.py generate  build the series in a git tree of pristine 6.12 and
                        write it with git format-patch to build/patches/
    series.py check     git am the patches onto pristine 6.12, compare the
                        result with the grafted tree, checkpatch each patch

The split lives in harness/series.def (its head says how to read it).

generate takes from the environment (make patches RFC= VERSION=
BASE_COMMIT=): RFC=0 drops the RFC of the subject prefix ("RFC PATCH"),
VERSION=N > 1 adds "vN", BASE_COMMIT=HASH (the commit of the tree the
series is for, which the tree make patches works in does not have) adds
a base-commit: line to the cover letter. The cover letter is Cc'd to
everyone scripts/get_maintainer.pl names for the series (send it with
git send-email --cc-cover).
Every overlay file and every hunk of patches/ must land in exactly one
patch (or be excluded there, with a reason): a file added to the overlay
and not to the split is an error, not a silent omission.
"""

import csv
import fcntl
import os
import re
import shutil
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
B = os.environ.get("B", os.path.join(TOP, "build"))
PRISTINE = os.path.join(B, "pristine")
KSRC = os.path.join(B, "linux")
SERIES = os.path.join(B, "series")
BASE = os.path.join(SERIES, "tree")	# git tree: pristine 6.12 + the series
# PATCHES_OUT: another directory than build/patches, for a variant.
OUT = os.environ.get("PATCHES_OUT") or os.path.join(B, "patches")
DEF = os.path.join(TOP, "harness", "series.def")
OVERLAY_DIRS = ["include", "kernel", "arch", "samples", "scripts",
                "Documentation", "lib", "tools"]
OVERLAY_FILES = ["Kconfig.marker"]


def die(msg):
    print("series: error: " + msg, file=sys.stderr)
    sys.exit(1)


def run(*args, cwd=None, env=None, input=None, check=True):
    p = subprocess.run(args, cwd=cwd, env=env, input=input, text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if check and p.returncode:
        die("%s failed:\n%s" % (" ".join(args), p.stdout))
    return p


# --- The definition ---------------------------------------------------

class Patch:
    def __init__(self, subject):
        self.subject = subject
        self.files = []		# (path, regex or None)
        self.hunks = []		# (patch file, target file or None, [n] or None)
        self.ignore = []	# (types, reason)
        self.body = []


def parse_def():
    d = {"exclude": {}, "cover": None, "patches": []}
    cur = None
    body = False
    for no, line in enumerate(open(DEF), 1):
        line = line.rstrip("\n")
        key, _, val = line.partition(": ")
        if key in ("patch", "cover") and not line.startswith((" ", "\t")):
            cur = Patch(val.strip())
            body = False
            if key == "cover":
                d["cover"] = cur
            else:
                d["patches"].append(cur)
            continue
        if body:
            cur.body.append(line)
            continue
        if line.startswith("#") or not line.strip():
            continue
        where = "%s:%d" % (os.path.relpath(DEF, TOP), no)
        if key == "exclude":
            path, _, why = val.strip().partition(" ")
            if not why.strip():
                die("%s: an exclusion needs its reason" % where)
            d["exclude"][path] = why.strip()
        elif cur is None:
            die("%s: '%s' before the first patch:" % (where, key))
        elif key == "file":
            path, _, rx = val.strip().partition(" ~ ")
            cur.files.append((path, rx or None))
        elif key == "hunks":
            f = val.split()
            nums = None
            if len(f) > 2:
                nums = [int(n) for n in f[2].split(",")]
            pf = f[0] if f[0].startswith("patches/") else "patches/" + f[0]
            cur.hunks.append((pf, f[1] if len(f) > 1 else None, nums))
        elif key == "ignore":
            types, _, why = val.strip().partition(" ")
            if not why.strip():
                die("%s: a checkpatch exception needs its reason" % where)
            cur.ignore.append((types, why.strip()))
        elif line == "body:":
            body = True
        else:
            die("%s: cannot read '%s'" % (where, line))
    if not d["patches"] or not d["cover"]:
        die("series.def needs a cover and patches")
    for p in d["patches"] + [d["cover"]]:
        while p.body and not p.body[-1].strip():
            p.body.pop()
        while p.body and not p.body[0].strip():
            p.body.pop(0)
    return d


# --- The hunks of patches/ ---------------------------------------------

def split_patch(path):
    """[(target file, header lines, [hunk text...])] of a unified diff."""
    out = []
    cur = None
    hunk = None
    for line in open(path):
        if line.startswith("--- "):
            cur = None
            pending = line
            continue
        if line.startswith("+++ "):
            target = re.sub(r"^\+\+\+ [^/]*/(\S+).*\n", r"\1", line)
            cur = (target, [pending, line], [])
            out.append(cur)
            hunk = None
            continue
        if cur is None:
            continue
        if line.startswith("@@"):
            hunk = [line]
            cur[2].append(hunk)
        elif hunk is not None and line[:1] in (" ", "+", "-", "\\"):
            hunk.append(line)
        else:
            hunk = None
    return [(t, h, ["".join(x) for x in hs]) for t, h, hs in out]


def patches_series():
    names = []
    for line in open(os.path.join(TOP, "patches", "series")):
        line = line.split("#")[0].strip()
        if line:
            names.append("patches/" + line.split()[0])
    return names


# --- Assigning everything to one patch ----------------------------------

def overlay_files():
    p = run("git", "ls-files", "--cached", "--others", "--exclude-standard",
            "--", *OVERLAY_DIRS, *OVERLAY_FILES, cwd=TOP)
    return sorted(f for f in set(p.stdout.split()) if os.path.isfile(os.path.join(TOP, f)))


def plan(d):
    """Per patch: {file: set of line numbers}, [(patch, target, hunk idx)]."""
    files = overlay_files()
    owner_lines = {}	# file -> [patch index per line]
    seen_whole = {}
    for i, p in enumerate(d["patches"]):
        for path, rx in p.files:
            if path not in files:
                die("patch %d (%s) lists %s, which is not an overlay file" %
                    (i + 1, p.subject, path))
            lines = open(os.path.join(TOP, path)).read().splitlines(True)
            own = owner_lines.setdefault(path, [None] * len(lines))
            if rx is None:
                if path in seen_whole:
                    die("%s is listed whole twice" % path)
                seen_whole[path] = i
                continue
            text = "".join(lines)
            starts = [0]
            for ln in lines:
                starts.append(starts[-1] + len(ln))
            hit = False
            for m in re.finditer(rx, text, re.M | re.S):
                hit = True
                for n in range(len(lines)):
                    if starts[n] >= m.start() and starts[n + 1] <= m.end():
                        if own[n] is not None:
                            die("%s line %d: in patches %d and %d" %
                                (path, n + 1, own[n] + 1, i + 1))
                        own[n] = i
            if not hit:
                die("patch %d: '%s ~ %s' matches nothing" % (i + 1, path, rx))
    for path, own in owner_lines.items():
        if path not in seen_whole:
            die("%s has line groups but no patch that lists it whole" % path)
        w = seen_whole[path]
        for n, o in enumerate(own):
            if o is None:
                own[n] = w
            elif o < w:
                die("%s: lines assigned to patch %d, before the file "
                    "arrives in patch %d" % (path, o + 1, w + 1))
    missing = [f for f in files if f not in owner_lines and f not in d["exclude"]]
    if missing:
        die("overlay files in no patch of series.def: " + " ".join(missing))

    hunk_owner = {}
    all_hunks = []
    for pf in patches_series():
        for fi, (target, _, hs) in enumerate(split_patch(os.path.join(TOP, pf))):
            for hi in range(len(hs)):
                all_hunks.append((pf, fi, hi, target))
    for i, p in enumerate(d["patches"]):
        for pf, target, nums in p.hunks:
            got = False
            for (hpf, fi, hi, tgt) in all_hunks:
                if hpf != pf or (target and tgt != target):
                    continue
                if nums and hi + 1 not in nums:
                    continue
                key = (hpf, fi, hi)
                if key in hunk_owner:
                    die("%s %s hunk %d: in patches %d and %d" %
                        (pf, tgt, hi + 1, hunk_owner[key] + 1, i + 1))
                hunk_owner[key] = i
                got = True
            if not got:
                die("patch %d: 'hunks: %s %s' selects nothing" % (i + 1, pf, target or ""))
    left = [(pf, tgt, hi + 1) for (pf, fi, hi, tgt) in all_hunks
            if (pf, fi, hi) not in hunk_owner]
    if left:
        die("hunks in no patch of series.def: " +
            ", ".join("%s %s #%d" % x for x in left))
    return owner_lines, hunk_owner


# --- The git tree -------------------------------------------------------

def git(*args, **kw):
    return run("git", "-C", BASE, *args, **kw)


def base_tree():
    """A git tree of pristine 6.12 (commit tagged 'v6.12-base'), made once."""
    stamp = open(os.path.join(B, "tarball.stamp")).read()
    sfile = os.path.join(SERIES, "tree.stamp")
    if os.path.isfile(sfile) and open(sfile).read() == stamp and \
       run("git", "-C", BASE, "rev-parse", "-q", "--verify", "v6.12-base",
           check=False).returncode == 0:
        return
    print("series: making a git tree of %s (once)" % PRISTINE, file=sys.stderr)
    shutil.rmtree(SERIES, ignore_errors=True)
    os.makedirs(SERIES)
    # Hard links cost nothing; every write below replaces a file (new
    # inode), never writes into one, so build/pristine stays pristine.
    run("cp", "-al", PRISTINE, BASE)
    run("git", "init", "-q", BASE)
    git("config", "core.autocrlf", "false")
    git("config", "gc.auto", "0")
    git("add", "-A", "-f", ".")
    env = ident_env("Linux 6.12 <linux@example.org>")
    git("commit", "-q", "-m", "Linux 6.12 (linux-source-6.12)", env=env)
    git("tag", "v6.12-base")
    with open(sfile, "w") as f:
        f.write(stamp)


def identity():
    """The git identity of whoever runs make patches: "Name <email>".

    It signs off every patch, and a Signed-off-by certifies the Developer's
    Certificate of Origin: only a person can give it, so there is no
    default. GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL override git config, as
    they do for git commit.
    """
    r = run("git", "-C", TOP, "-c", "user.useConfigOnly=true", "var",
            "GIT_AUTHOR_IDENT", check=False)
    m = re.match(r"(.+ <[^<>]+@[^<>]+>) \d+ [+-]\d{4}$", r.stdout.strip()) \
        if r.returncode == 0 else None
    if not m:
        die("no git identity to sign the patches off with: set yours with\n"
            "  git config --global user.name \"Your Name\"\n"
            "  git config --global user.email you@example.org\n"
            "(or GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL); every patch's "
            "author and Signed-off-by are it")
    return m.group(1)


def ident_env(ident, date="2026-11-30 00:00:00 +0000"):
    m = re.match(r"(.*) <(.*)>", ident)
    env = dict(os.environ)
    env.update(GIT_AUTHOR_NAME=m.group(1), GIT_AUTHOR_EMAIL=m.group(2),
               GIT_COMMITTER_NAME=m.group(1), GIT_COMMITTER_EMAIL=m.group(2),
               GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    return env


# The maintainer in patches/'s MAINTAINERS entry: make patches puts the
# identity that signs the series off in its place.
MAINTAINER_PLACEHOLDER = "Kernel Markers Team <markers@example.org>"


def maintainers_as(path, ident):
    """The text of MAINTAINERS at @path, with @ident as our maintainer."""
    return open(path).read().replace(MAINTAINER_PLACEHOLDER, ident)


def write_new(path, text, mode=None):
    """Replace @path by a new file (never write through a hard link)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.lexists(path):
        mode = mode or os.stat(path).st_mode & 0o777
        os.unlink(path)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode or 0o644)


def reset_to_base():
    # A git am that stopped midway (a patch that did not apply, a run
    # killed) leaves its session, and the next git am refuses to start.
    if os.path.isdir(os.path.join(BASE, ".git", "rebase-apply")):
        git("am", "--abort")
    git("checkout", "-q", "-f", "--detach", "v6.12-base")
    git("clean", "-q", "-f", "-d", "-x", "--", *OVERLAY_DIRS, *OVERLAY_FILES)


def generate():
    d = parse_def()
    ident = identity()		# before any work: stop early without one
    owner_lines, hunk_owner = plan(d)
    base_tree()
    reset_to_base()
    git("branch", "-q", "-f", "markers")
    git("checkout", "-q", "markers")
    hunks = {}
    for pf in patches_series():
        hunks[pf] = split_patch(os.path.join(TOP, pf))
    for i, p in enumerate(d["patches"]):
        touched = set()
        # Overlay files: the lines of this patch and of those before it.
        for path, own in owner_lines.items():
            if i not in own:
                continue
            lines = open(os.path.join(TOP, path)).read().splitlines(True)
            text = "".join(ln for ln, o in zip(lines, own) if o <= i)
            write_new(os.path.join(BASE, path), text,
                      os.stat(os.path.join(TOP, path)).st_mode & 0o777)
            touched.add(path)
        # Hunks of patches/, in the order patches/series applies them.
        for pf in patches_series():
            for fi, (target, header, hs) in enumerate(hunks[pf]):
                mine = [h for hi, h in enumerate(hs) if hunk_owner[(pf, fi, hi)] == i]
                if not mine:
                    continue
                dst = os.path.join(BASE, target)
                text = open(dst).read()
                write_new(dst, text)	# break the hard link first
                r = run("patch", "-p1", "-N", "-F0", "--no-backup-if-mismatch",
                        "-r", "-", "-d", BASE, input="".join(header + mine),
                        check=False)
                if r.returncode:
                    die("patch %d: %s hunks of %s do not apply:\n%s" %
                        (i + 1, pf, target, r.stdout))
                touched.add(target)
        if not touched:
            die("patch %d (%s) changes nothing" % (i + 1, p.subject))
        if "MAINTAINERS" in touched:
            dst = os.path.join(BASE, "MAINTAINERS")
            write_new(dst, maintainers_as(dst, ident))
        git("add", "-f", "--", *sorted(touched))
        msg = p.subject + "\n\n" + "\n".join(p.body) + "\n\nSigned-off-by: " + ident + "\n"
        git("commit", "-q", "-F", "-", input=msg, env=ident_env(ident))
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    git("format-patch", "-q", "--cover-letter", "--no-signature", "--stat=80",
        "--thread", "--subject-prefix=" + subject_prefix(), "-o", OUT,
        "v6.12-base..markers", env=ident_env(ident))
    cover_letter(d, ident)
    for f in sorted(os.listdir(OUT)):
        print(os.path.join(OUT, f))


def bench_table():
    """The make bench tables (build/bench.csv, bench-arming.csv), as text."""
    csvf = os.path.join(B, "bench.csv")
    if not os.path.isfile(csvf):
        return None
    rows = list(csv.DictReader(open(csvf)))
    # Deterministic figures only: instruction counts, not emulated times.
    t = ["Instructions per iteration of samples/markers/marker-bench.ko, on a",
         "production-like x86-64 configuration without debugging options,",
         "counted on an emulated machine whose clock advances one nanosecond",
         "per retired instruction (the same from run to run; it sees no traps,",
         "caches or branch prediction); net is less the baseline row, ratio is",
         "net over the armed tracepoint's net:", "",
         "  %-26s %-42s %8s %7s %7s" % ("id", "the function holds", "insns",
                                      "net", "ratio")]
    for r in rows:
        t.append("  %-26s %-42s %8s %7s %7s" % (
            r["id"], r["label"][:42], r["insns"],
            r.get("insns_net", ""), r.get("ratio_net", "")))
    arm = os.path.join(B, "bench-arming.csv")
    if os.path.isfile(arm):
        rows = list(csv.DictReader(open(arm)))
        cols = ["what", "sites", "arm_insns", "arm_syncs", "disarm_insns",
                "disarm_syncs", "grace_periods"]
        t += ["", "Arming one MARK() name against enabling one static key, their",
              "sites in one module (instructions, counted as above; syncs are",
              "machine-wide text-patching syncs):", ""]
        t += ["  " + " ".join("%13s" % c for c in cols)]
        t += ["  " + " ".join("%13s" % r.get(c, "") for c in cols) for r in rows]
    return "\n".join(t)


def subject_prefix():
    """"RFC PATCH", "PATCH", with " vN" for VERSION=N > 1."""
    prefix = "PATCH" if os.environ.get("RFC", "1") == "0" else "RFC PATCH"
    version = os.environ.get("VERSION") or "1"
    if not version.isdigit() or int(version) < 1:
        die("VERSION=%s: a version is a number from 1" % version)
    return prefix + (" v" + version if int(version) > 1 else "")


def cc_list(ident):
    """Everyone scripts/get_maintainer.pl names for the series, but us."""
    pfiles = sorted(os.path.join(OUT, f) for f in os.listdir(OUT)
                    if re.match(r"\d{4}-", f) and not f.startswith("0000-"))
    r = run("perl", "scripts/get_maintainer.pl", "--no-git", "--no-git-fallback",
            "--no-rolestats", "--no-tree", *pfiles, cwd=BASE)
    own = ident.split("<")[-1].rstrip(">")
    return [a for a in r.stdout.splitlines() if a.strip() and own not in a]


def cover_letter(d, ident):
    cover = [f for f in os.listdir(OUT) if f.startswith("0000-")][0]
    path = os.path.join(OUT, cover)
    text = open(path).read()
    text = text.replace("*** SUBJECT HERE ***", d["cover"].subject)
    blurb = "\n".join(d["cover"].body)
    table = bench_table() or "(No figures: the benchmark was not run.)"
    blurb = blurb.replace("@BENCH@", table)
    mk = dict(re.findall(r"^(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)$",
                         open(os.path.join(BASE, "Makefile")).read(), re.M))
    blurb += "\n\nThe series is against Linux %s.%s.%s." % (
        mk["VERSION"], mk["PATCHLEVEL"], mk["SUBLEVEL"])
    text = text.replace("*** BLURB HERE ***", blurb)
    base = os.environ.get("BASE_COMMIT", "")
    if base:
        if not re.fullmatch(r"[0-9a-f]{40}", base):
            die("BASE_COMMIT=%s: the base is a full commit hash" % base)
        text = text.rstrip("\n") + "\n\nbase-commit: %s\n" % base
    # NO_CC=1: without the Cc list (get_maintainer.pl takes 12 s).
    cc = [] if os.environ.get("NO_CC") == "1" else cc_list(ident)
    if cc:
        text = text.replace("\nSubject: ", "\nCc: " + ",\n    ".join(cc) +
                            "\nSubject: ", 1)
    with open(path, "w") as f:
        f.write(text)


# --- The checks ----------------------------------------------------------

def check():
    d = parse_def()
    owner_lines, _ = plan(d)
    base_tree()
    pfiles = sorted(f for f in os.listdir(OUT) if re.match(r"\d{4}-", f) and
                    not f.startswith("0000-"))
    if len(pfiles) != len(d["patches"]):
        die("build/patches has %d patches, series.def %d: run make patches" %
            (len(pfiles), len(d["patches"])))
    rc = 0
    # 1. git am onto pristine 6.12.
    reset_to_base()
    git("branch", "-q", "-f", "am")
    git("checkout", "-q", "am")
    r = run("git", "-C", BASE, "am", "-q", "--keep-cr",
            *[os.path.join(OUT, f) for f in pfiles], check=False,
            env=ident_env(identity()))
    if r.returncode:
        run("git", "-C", BASE, "am", "--abort", check=False)
        die("git am failed:\n" + r.stdout)
    print("git am: %d patches applied onto v6.12-base" % len(pfiles))
    # 2. The result against the grafted tree: every file the graft wrote,
    #    and nothing else changed.
    changed = set(git("diff", "--name-only", "v6.12-base", "HEAD").stdout.split())
    grafted = set(open(os.path.join(B, "grafted.list")).read().split())
    excluded = set(d["exclude"])
    differ = []
    ident = identity()
    for f in sorted(grafted - excluded):
        a = os.path.join(BASE, f)
        b = os.path.join(KSRC, f)
        if f == "MAINTAINERS":	# with the signer as maintainer (generate())
            same = os.path.isfile(a) and open(a).read() == maintainers_as(b, ident)
        else:
            same = os.path.isfile(a) and open(a, "rb").read() == open(b, "rb").read()
        if not same:
            differ.append(f)
    extra = sorted(changed - grafted)
    lost = sorted((grafted - excluded) - changed)
    if differ or extra:
        print("tree identity: FAILED: differ: %s; changed by the series only: %s" %
              (" ".join(differ) or "-", " ".join(extra) or "-"))
        rc = 1
    else:
        print("tree identity: the series gives the grafted tree (%d files; "
              "excluded, tests only: %s)" % (len(grafted - excluded),
                                             " ".join(sorted(excluded))))
    if lost:
        print("note: grafted but unchanged from pristine: " + " ".join(lost))
    # 3. checkpatch --strict, patch by patch, with the def's exceptions.
    for f, p in zip(pfiles, d["patches"]):
        types = ",".join(t for t, _ in p.ignore)
        args = ["perl", "scripts/checkpatch.pl", "--strict", "--quiet",
                "--show-types", "--terse", "--typedefsfile",
                os.path.join(TOP, "harness", "checkpatch.typedefs")]
        if types:
            args += ["--ignore", types]
        # checkpatch runs scripts/spdxcheck.py with the python3 first in
        # PATH: the system's, where deps.sh installed python3-ply.
        env = dict(os.environ, PATH="/usr/bin:" + os.environ.get("PATH", ""))
        r = run(*args, os.path.join(OUT, f), cwd=BASE, env=env, check=False)
        if r.returncode:
            print("checkpatch: %s:\n%s" % (f, r.stdout))
            rc = 1
        else:
            print("checkpatch --strict: %s clean%s" %
                  (f, " (ignoring %s)" % types if types else ""))
    return rc


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ("generate", "check", "plan"):
        die("usage: series.py generate|check|plan")
    # One at a time: make check's host tests series and series-objects
    # both generate the series, in the same git tree (build/series/tree),
    # and may run at once; the second waits for the first.
    os.makedirs(os.path.join(B, "series"), exist_ok=True)
    lock = open(os.path.join(B, "series", ".lock"), "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    if sys.argv[1] == "generate":
        generate()
    elif sys.argv[1] == "plan":
        plan(parse_def())
        print("series.def covers every overlay file and hunk")
    else:
        sys.exit(check())


if __name__ == "__main__":
    main()
