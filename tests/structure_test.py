#!/usr/bin/env python3
"""scripts/structure.py catches what it is for: on a copy of the tree it passes, and each
planted violation in turn makes it fail (exit 1) with a line naming the file.

  usage: tests/structure_test.py ROOT

Planted: an upward include in a library header (impl/ including cli/), in a test (checker/
including impl/) and across floors (files/ including checker/); a source file one line past
500; yaml-cpp in another library's links; files/ linking checker's library; a report/ header
reaching yaml-cpp through files/; three more library sources compiling the engine; two headers
that include each other. Not planted, and so must pass: a test file past 500
lines, and a folder including one it may.
"""

import os
import shutil
import subprocess
import sys
import tempfile

FOLDERS = ["impl", "spec", "checker", "files", "properties", "report", "cli", "fuzz"]


def copy_tree(root, into):
    for folder in FOLDERS:
        shutil.copytree(
            os.path.join(root, folder),
            os.path.join(into, folder),
            ignore=shutil.ignore_patterns("*.yaml", "*.md", "regressions"),
        )
    shutil.copy(os.path.join(root, "CMakeLists.txt"), into)
    shutil.copytree(os.path.join(root, "cmake"), os.path.join(into, "cmake"))


def run(script, tree):
    p = subprocess.run(
        [sys.executable, script, tree], capture_output=True, text=True, check=False
    )
    return p.returncode, p.stdout + p.stderr


def append(path, text):
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)


def pad_to(path, lines):
    with open(path, encoding="utf-8") as f:
        have = f.read().count("\n")
    append(path, "// padding\n" * (lines - have))


def add_to_deps(path, library, text):
    """Adds `text` to the DEPS of preemptcheck_library(`library` ...) in the CMake file."""
    with open(path, encoding="utf-8") as f:
        cmake = f.read()
    start = cmake.index(f"preemptcheck_library({library}")
    deps = cmake.index("DEPS", start) + len("DEPS")
    with open(path, "w", encoding="utf-8") as f:
        f.write(cmake[:deps] + f" {text}" + cmake[deps:])


# (name, plant(tree), the file the failure must name, or None when the plant must pass)
CASES = [
    (
        "upward include in a library header",
        lambda t: append(os.path.join(t, "impl", "world.h"), '#include "cli/options.h"\n'),
        "impl/world.h:",
    ),
    (
        "upward include in a test",
        lambda t: append(
            os.path.join(t, "checker", "explorer_test.cc"), '#include "impl/world.h"\n'
        ),
        "checker/explorer_test.cc:",
    ),
    (
        "files including the engine",
        lambda t: append(
            os.path.join(t, "files", "counterexample_yaml.h"), '#include "checker/explorer.h"\n'
        ),
        "files/counterexample_yaml.h:",
    ),
    (
        "a source file of 501 lines",
        lambda t: pad_to(os.path.join(t, "impl", "cycle.cc"), 501),
        "impl/cycle.cc: 501 lines",
    ),
    (
        "a header of 501 lines",
        lambda t: pad_to(os.path.join(t, "checker", "model.h"), 501),
        "checker/model.h: 501 lines",
    ),
    (
        "yaml-cpp linked by another library",
        lambda t: add_to_deps(os.path.join(t, "report", "CMakeLists.txt"), "report", "yaml-cpp"),
        "report/CMakeLists.txt:",
    ),
    (
        "yaml-cpp linked by a target_link_libraries call",
        lambda t: append(
            os.path.join(t, "cli", "CMakeLists.txt"),
            "target_link_libraries(preemptcheck PRIVATE yaml-cpp::yaml-cpp)\n",
        ),
        "cli/CMakeLists.txt:",
    ),
    (
        "files linking the engine",
        lambda t: add_to_deps(
            os.path.join(t, "files", "CMakeLists.txt"), "files", "preemptcheck::checker"
        ),
        "files/CMakeLists.txt:",
    ),
    (
        "a report header that includes the YAML reader",
        lambda t: append(os.path.join(t, "report", "json.h"), '#include "files/strict_yaml.h"\n'),
        "report/json.h: includes yaml-cpp/",
    ),
    (
        "a library source that compiles the engine again",
        lambda t: [
            append(os.path.join(t, f), '#include "checker/explorer.h"\n')
            for f in ("report/json.cc", "report/timeline.cc", "cli/args.cc")
        ],
        "compiles the search engine",
    ),
    (
        "two headers that include each other",
        lambda t: append(os.path.join(t, "checker", "level_search.h"), '#include "checker/level_explorer.h"\n'),
        "includes itself through",
    ),
    (
        "a test file of 600 lines",
        lambda t: pad_to(os.path.join(t, "impl", "world_test.cc"), 600),
        None,
    ),
    (
        "a folder including one it may",
        lambda t: append(os.path.join(t, "report", "json.h"), '#include "properties/schedule.h"\n'),
        None,
    ),
]


def main(argv):
    if len(argv) != 2:
        print("usage: tests/structure_test.py ROOT", file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1])
    script = os.path.join(root, "scripts", "structure.py")
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        clean = os.path.join(scratch, "clean")
        copy_tree(root, clean)
        code, out = run(script, clean)
        if code != 0:
            failures.append(f"the unplanted copy: exit {code}, expected 0:\n{out}")
        for name, plant, names in CASES:
            tree = os.path.join(scratch, "planted")
            shutil.copytree(clean, tree)
            plant(tree)
            code, out = run(script, tree)
            if names is None and code != 0:
                failures.append(f"{name}: exit {code}, expected 0:\n{out}")
            elif names is not None and (code != 1 or names not in out):
                failures.append(f"{name}: exit {code}, expected 1 and a line naming {names}:\n{out}")
            else:
                print(f"ok: {name}: exit {code}" + (f": {out.strip()}" if out.strip() else ""))
            shutil.rmtree(tree)
    for failure in failures:
        print(f"FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
