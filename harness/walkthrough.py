#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The walk-throughs of Documentation/trace/markers.rst, as test scripts.

A walk-through is made of the literal blocks that follow a comment
".. walk-through: NAME" (several blocks may share a NAME: they run in
document order), in one shell (a cd or a variable carries over):

- in a command block, a line ":#> COMMAND" is a command run as root in
  the guest (a guest walk-through), a line "$ COMMAND" one run on the
  host (a host walk-through, in a directory of its own, with MARKERS set
  to the repository); the lines after a command, up to the next one, are
  lines its output (stdout and stderr) must have, each a whole line,
  "..." standing for any text. Each command must exit 0;
- a comment ".. walk-through: NAME file PATH" makes the next literal
  block the file PATH (relative to the shell's directory at that point).

In a Markdown file (*.md), the comment is "<!-- walk-through: NAME -->"
(or "... file PATH -->") and the block the next fenced one (```).

  walkthrough.py RST              "NAME guest" or "NAME host", one a line;
                                  "NAME file PATH" for a file alone
  walkthrough.py RST NAME         the script of NAME, on stdout
  walkthrough.py RST NAME PATH    the file PATH of NAME, on stdout (a
                                  walk-through may be a file alone)

The script prints each command and its output, "WALK-FAIL: ..." for each
command that did not do what the guide shows, and at the end
"walk-through NAME: N commands, M failed"; it exits 1 if M > 0.
"""
import re
import sys

ERE_SPECIAL = set('.[]()*+?{}|^$\\')
PROMPTS = {':#> ': 'guest', '$ ': 'host'}


def ere(line):
    """An ERE for a whole line of output, "..." matching anything."""
    esc = [''.join('\\' + c if c in ERE_SPECIAL else c for c in p)
           for p in line.split('...')]
    return '^' + '.*'.join(esc) + '$'


def md_blocks(path, lines):
    """blocks() of a Markdown file: each comment's next fenced block."""
    out = []
    i = 0
    while i < len(lines):
        m = re.match(r'^<!-- walk-through: ([a-z0-9-]+)(?: file (\S+))? -->\s*$', lines[i])
        i += 1
        if not m:
            continue
        while i < len(lines) and not lines[i].startswith('```'):
            i += 1
        body = []
        i += 1
        while i < len(lines) and not lines[i].startswith('```'):
            body.append(lines[i])
            i += 1
        if not body:
            sys.exit(f'{path}: walk-through {m.group(1)}: no fenced block after it')
        out.append((m.group(1), m.group(2), body))
    return out


def blocks(path):
    """[(name, file path or None, [lines of the block, unindented])]."""
    lines = open(path, encoding='utf-8').read().split('\n')
    if path.endswith('.md'):
        return md_blocks(path, lines)
    out = []
    i = 0
    while i < len(lines):
        m = re.match(r'^\.\. walk-through: ([a-z0-9-]+)(?: file (\S+))?\s*$', lines[i])
        if not m:
            i += 1
            continue
        name, fpath = m.group(1), m.group(2)
        i += 1
        # The next literal block: after a line ending in "::" and the
        # blank lines after it, the indented lines.
        while i < len(lines) and not lines[i].rstrip().endswith('::'):
            i += 1
        i += 1
        while i < len(lines) and not lines[i].strip():
            i += 1
        body = []
        while i < len(lines) and (not lines[i].strip() or lines[i][:1] in ' \t'):
            body.append(lines[i])
            i += 1
        while body and not body[-1].strip():
            body.pop()
        if not body:
            sys.exit(f'{path}: walk-through {name}: no literal block after it')
        indent = re.match(r'^[ \t]*', body[0]).group(0)
        out.append((name, fpath, [b[len(indent):] if b.startswith(indent) else b.strip()
                                  for b in body]))
    return out


def kind(path, name):
    kinds = set()
    for n, fpath, body in blocks(path):
        if n == name and fpath is None:
            kinds |= {k for p, k in PROMPTS.items() for line in body if line.startswith(p)}
    if len(kinds) != 1:
        sys.exit(f'{path}: walk-through {name}: commands of {sorted(kinds) or "no"} kind')
    return kinds.pop()


def shq(s):
    return "'" + s.replace("'", "'\\''") + "'"


RUNNER = r'''nrun=0 nbad=0 out=${TMPDIR:-/tmp}/walk.$$
run() {
	_c=$1
	shift
	echo "PROMPT$_c"
	nrun=$((nrun + 1))
	eval "$_c" > "$out" 2>&1
	_rc=$?
	cat "$out"
	if [ $_rc != 0 ]; then
		echo "WALK-FAIL: exit status $_rc: $_c"
		nbad=$((nbad + 1))
		return
	fi
	for _re in "$@"; do
		grep -Eq -- "$_re" "$out" && continue
		echo "WALK-FAIL: no line matches '$_re': $_c"
		nbad=$((nbad + 1))
	done
}'''


def script(path, name):
    k = kind(path, name)
    prompt = [p for p, kk in PROMPTS.items() if kk == k][0]
    out = ['#!/bin/sh',
           f'# Made by harness/walkthrough.py from {path}: walk-through {name} ({k}).',
           RUNNER.replace('PROMPT', prompt)]
    steps = []

    def flush():
        for cmd, res in steps:
            out.append('run ' + ' '.join(shq(x) for x in [cmd] + res))
        steps.clear()

    for n, fpath, body in blocks(path):
        if n != name:
            continue
        if fpath:
            flush()
            out.append(f'mkdir -p "$(dirname {shq(fpath)})" && cat > {shq(fpath)} <<\'WALK_EOF\'')
            out.extend(body)
            out.append('WALK_EOF')
            continue
        for line in body:
            if line.startswith(prompt):
                steps.append((line[len(prompt):], []))
            elif not steps:
                sys.exit(f'{path}: walk-through {name}: output before any command: {line}')
            elif line.strip():
                steps[-1][1].append(ere(line))
        flush()
    out.append('rm -f "$out"')
    out.append(f'echo "walk-through {name}: $nrun commands, $nbad failed"')
    out.append('exit $((nbad > 0))')
    return '\n'.join(out) + '\n'


def main():
    if len(sys.argv) == 2:
        seen = []
        files = []
        for n, fpath, _ in blocks(sys.argv[1]):
            if fpath is None and n not in seen:
                seen.append(n)
            elif fpath is not None:
                files.append((n, fpath))
        for n in seen:
            print(n, kind(sys.argv[1], n))
        for n, fpath in files:
            if n not in seen:
                print(n, 'file', fpath)
    elif len(sys.argv) == 3:
        sys.stdout.write(script(sys.argv[1], sys.argv[2]))
    elif len(sys.argv) == 4:
        files = [body for n, fpath, body in blocks(sys.argv[1])
                 if n == sys.argv[2] and fpath == sys.argv[3]]
        if len(files) != 1:
            sys.exit(f'{sys.argv[1]}: walk-through {sys.argv[2]}: '
                     f'{len(files)} files {sys.argv[3]}')
        sys.stdout.write('\n'.join(files[0]) + '\n')
    else:
        sys.exit('usage: walkthrough.py RST|MD [NAME [PATH]]')


if __name__ == '__main__':
    main()
