#!/usr/bin/env python3
# Runs every example of README.md that shows a command and what it prints, and fails when the
# command prints something else: the README's figures cannot drift from the tool.
#
#   readme_examples_test.py PREEMPTCHECK SOURCE_DIR
#
# An example is a fenced block whose lines start with `$ build/dev/cli/preemptcheck …` (or
# `$ cat …`), each followed by what it prints. A line `...` stands for any number of lines, a
# line that ends in ` ...` for every line it begins, and a trailing `(exit N)` is the exit
# code; an example shown without output must run without being refused (exit 2). Wall-clock
# figures (seconds, states per second, peak memory) are not compared. Each command runs in a
# scratch folder that sees the repository's scenarios, counterexamples, files, bench and cli
# folders, so the files an example writes (a JUnit report, an imported scenario, `--out DIR`)
# land there; a command that writes into the repository's docs/ (a picture made for the
# README) is not run.
import os
import re
import shlex
import subprocess
import sys
import tempfile

binary, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
PREFIX = "build/dev/cli/preemptcheck"
SHARED = ("scenarios", "counterexamples", "files", "bench", "cli")
VOLATILE = [
    (re.compile(r"\d+(\.\d+)? s\b"), "T s"),
    (re.compile(r"\d+ states/s"), "R states/s"),
    (re.compile(r"peak memory \d+(\.\d+)? [KMG]iB"), "peak memory M"),
]


def normal(line):
    for pattern, replacement in VOLATILE:
        line = pattern.sub(replacement, line)
    return line.rstrip()


def examples(text):
    """Yields (line number, command, expected lines) for every example in the README."""
    in_block, command, expected, at = False, None, [], 0
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            if in_block and command is not None:
                yield at, command, expected
            in_block, command, expected = not in_block, None, []
            continue
        if not in_block:
            continue
        if line.startswith("$ "):
            if command is not None:
                yield at, command, expected
            words = line[2:]
            runnable = words.startswith(PREFIX + " ") or words.startswith("cat ")
            command = words if runnable and "docs/" not in words else None
            expected, at = [], number
        elif command is not None:
            expected.append(line)


def matches(expected, actual):
    """Whether `actual` is `expected` with each `...` standing for any run of lines."""
    segments, current = [], []
    for line in expected:
        if line.strip() == "...":
            segments.append(current)
            current = []
        else:
            current.append(normal(line))
    segments.append(current)
    actual = [normal(line) for line in actual]

    def same(want, got):  # a line that ends in "..." stands for every line it begins
        return got.startswith(want[:-3]) if want.endswith(" ...") else got == want

    def at(segment, start):
        return len(actual) - start >= len(segment) and all(
            same(want, got) for want, got in zip(segment, actual[start:]))

    if not at(segments[0], 0):
        return False
    position = len(segments[0])
    for i, segment in enumerate(segments[1:], 1):
        if i == len(segments) - 1:  # the last segment ends the output
            end = len(actual) - len(segment)
            return end >= position and at(segment, end)
        found = next((p for p in range(position, len(actual) - len(segment) + 1)
                      if at(segment, p)), None)
        if found is None:
            return False
        position = found + len(segment)
    return position == len(actual)


failures = []
with open(os.path.join(source, "README.md")) as f:
    readme = f.read()
ran = 0
with tempfile.TemporaryDirectory() as scratch:
    for name in SHARED:
        os.symlink(os.path.join(source, name), os.path.join(scratch, name))
    os.mkdir(os.path.join(scratch, "DIR"))
    for line, command, expected in examples(readme):
        words = shlex.split(command)
        if words[0] == PREFIX:
            words[0] = binary
        # One stream, as a terminal shows it: standard error as it comes, standard output (a
        # pipe, so buffered) as the command flushes it.
        run = subprocess.run(words, cwd=scratch, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        actual = run.stdout.splitlines()
        said = next((l for l in reversed(actual) if l.startswith("(exit ")), None)
        if said is not None and said != f"(exit {run.returncode})":  # the tool's own line
            failures.append(f"README.md:{line}: `{command}` says {said}, exits {run.returncode}")
        elif said is None and expected and expected[-1].startswith("(exit "):
            actual.append(f"(exit {run.returncode})")
        ran += 1
        if not expected:  # shown without its output: it must run, not be refused
            if run.returncode == 2:
                failures.append(f"README.md:{line}: `{command}` exits 2:\n" + run.stdout)
        elif not matches(expected, actual):
            failures.append(f"README.md:{line}: `{command}` printed\n" + "\n".join(actual) +
                            "\n--- where the README shows\n" + "\n".join(expected))
for failure in failures:
    print("FAIL:", failure, "\n")
print(f"{ran} README examples run, {len(failures)} differ")
sys.exit(1 if failures or ran == 0 else 0)
