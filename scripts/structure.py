#!/usr/bin/env python3
"""The structural rules of the source tree (README, Layout), checked in one pass.

  usage: scripts/structure.py ROOT

1. Includes point one way. Each folder may include only the folders below it:
     impl/        impl
     spec/        impl, spec
     checker/     checker            (the generic engine knows nothing of scheduling)
     files/       impl, spec, files
     properties/  impl, spec, checker, files, properties
     report/      impl, spec, checker, files, properties, report
     cli/         every folder
     fuzz/        impl, spec, files, fuzz
   Tests sit beside the code and may include what their folder may. The same holds for what
   a folder's CMake targets link: preemptcheck::NAME only from a folder it may include.
2. No source file but a test (x_test.cc, *test_support*) has more than 500 lines.
3. Only the files library links yaml-cpp, and only files in files/ include it, directly or
   through the project's headers (the other folders see the formats' results, not the parser).
4. The engine is compiled once: the search's main headers (ENGINE below) are reached, directly
   or through the project's headers, by at most MAX_ENGINE_UNITS library sources that are not
   tests (the explicit instantiation for the production model, properties/world_explore.cc).
5. No header includes, directly or not, a file that includes it back: a class is not split
   over headers that include each other.

Prints one line per violation, naming the file (and line), and exits 1; prints nothing and
exits 0 when every rule holds; exits 2 on a usage error.
"""

import os
import re
import sys

MAX_LINES = 500

# The search's main headers (rule 4) and how many library sources may compile them.
ENGINE = {
    "checker/explorer.h",
    "checker/explore_auto.h",
    "checker/graph_build.h",
    "checker/level_explorer.h",
    "checker/sequential_explorer.h",
    "checker/mpi/distributed_explorer.h",
}
MAX_ENGINE_UNITS = 3
YAML_HEADER = re.compile(r"^yaml-cpp/")

# What each folder may include (rule 1).
MAY_INCLUDE = {
    "impl": {"impl"},
    "spec": {"impl", "spec"},
    "checker": {"checker"},
    "files": {"impl", "spec", "files"},
    "properties": {"impl", "spec", "checker", "files", "properties"},
    "report": {"impl", "spec", "checker", "files", "properties", "report"},
    "cli": {"impl", "spec", "checker", "files", "properties", "report", "cli"},
    "fuzz": {"impl", "spec", "files", "fuzz"},
}
FOLDERS = set(MAY_INCLUDE)

SOURCE_SUFFIXES = (".h", ".cc")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')

# CMake commands that link a target, and where their target's name is.
LINKING = {"target_link_libraries", "preemptcheck_library", "preemptcheck_test"}
YAML_CPP = re.compile(r"^yaml-cpp(::yaml-cpp)?$")


def is_test(name):
    return name.endswith("_test.cc") or name.endswith("_test.h") or "test_support" in name


def sources(root):
    """Every C++ source under the project's folders, as paths relative to root, sorted."""
    out = []
    for folder in sorted(FOLDERS):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, folder)):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(SOURCE_SUFFIXES):
                    out.append(os.path.relpath(os.path.join(dirpath, name), root))
    return out


def check_includes(root, path, text, problems):
    folder = path.split(os.sep)[0]
    allowed = MAY_INCLUDE[folder]
    for number, line in enumerate(text.splitlines(), 1):
        match = INCLUDE.match(line)
        if not match:
            continue
        target = match.group(1).split("/")[0]
        if "/" in match.group(1) and target in FOLDERS and target not in allowed:
            problems.append(
                f"{path}:{number}: {folder}/ includes {match.group(1)}; {folder}/ may include "
                f"{', '.join(sorted(f + '/' for f in allowed))} only (includes point one way)"
            )


def check_length(path, text, problems):
    if is_test(os.path.basename(path)):
        return
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if lines > MAX_LINES:
        problems.append(
            f"{path}: {lines} lines; a source file that is not a test has at most {MAX_LINES}"
        )


def cmake_commands(text):
    """(command, arguments, line) for each command call in a CMake file, comments removed."""
    text = re.sub(r"#[^\n]*", "", text)
    for match in re.finditer(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(", text):
        depth, i = 1, match.end()
        while i < len(text) and depth > 0:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        args = text[match.end() : i - 1].split()
        yield match.group(1), args, text.count("\n", 0, match.start()) + 1


def cmake_files(root):
    """(path relative to root, text) of every CMake file outside build trees, sorted."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "build")))
        for name in sorted(filenames):
            if name == "CMakeLists.txt" or name.endswith(".cmake"):
                full = os.path.join(dirpath, name)
                with open(full, encoding="utf-8") as f:
                    yield os.path.relpath(full, root), f.read()


def check_links(root, problems):
    files = list(cmake_files(root))
    # preemptcheck::NAME -> the folder whose CMakeLists.txt defines it.
    home = {}
    for path, text in files:
        for command, args, _ in cmake_commands(text):
            if command.lower() == "preemptcheck_library" and args:
                home[f"preemptcheck::{args[0]}"] = path.split(os.sep)[0]
    for path, text in files:
        folder = path.split(os.sep)[0]
        for command, args, line in cmake_commands(text):
            if command.lower() not in LINKING:
                continue
            target = args[0] if args else "?"
            if any(YAML_CPP.match(a) for a in args) and not (
                path == os.path.join("files", "CMakeLists.txt")
                and command.lower() == "preemptcheck_library"
                and target == "files"
            ):
                problems.append(
                    f"{path}:{line}: {command}({target}) links yaml-cpp; only the files "
                    f"library may"
                )
            if folder not in MAY_INCLUDE:
                continue
            for dep in args[1:]:
                if dep in home and home[dep] not in MAY_INCLUDE[folder]:
                    problems.append(
                        f"{path}:{line}: {command}({target}) links {dep} of {home[dep]}/; "
                        f"{folder}/ may depend on "
                        f"{', '.join(sorted(f + '/' for f in MAY_INCLUDE[folder]))} only "
                        f"(dependencies point one way)"
                    )


def project_includes(root, path, text):
    """The includes of `text` that name a file of the tree (relative to root), and the
    system headers it names, each with its line number."""
    local, system = [], []
    for number, line in enumerate(text.splitlines(), 1):
        match = INCLUDE.match(line)
        if not match:
            continue
        name = match.group(1)
        if os.path.isfile(os.path.join(root, name)):
            local.append((name, number))
        else:
            system.append((name, number))
    return local, system


def check_reach(root, texts, problems):
    """Rules 3 (yaml-cpp's headers) and 4 (the engine's) over the transitive includes."""
    graph = {path: project_includes(root, path, text) for path, text in texts.items()}
    reach = {}

    def reached(path):
        # Every project file and system header `path` includes, directly or not.
        if path in reach:
            return reach[path]
        reach[path] = set()
        local, system = graph.get(path, ([], []))
        out = {name for name, _ in system}
        for name, _ in local:
            out.add(name)
            out |= reached(name)
        reach[path] = out
        return out

    # Rule 5: a cycle of includes, reported once, at its first file in sorted order.
    state = {}
    cycles = []

    def visit(path, stack):
        state[path] = "open"
        stack.append(path)
        for name, line in graph.get(path, ([], []))[0]:
            if state.get(name) == "open":
                cycles.append(stack[stack.index(name):] + [name])
            elif name not in state:
                visit(name, stack)
        stack.pop()
        state[path] = "done"

    for path in sorted(texts):
        if path not in state:
            visit(path, [])
    for cycle in cycles:
        problems.append(
            f"{cycle[0]}: includes itself through {' -> '.join(cycle[1:])}; a header may not "
            f"include a file that includes it back (one class, one header)"
        )

    engine_units = []
    for path in sorted(texts):
        folder = path.split(os.sep)[0]
        seen = reached(path)
        if folder != "files":
            yaml = sorted(h for h in seen if YAML_HEADER.match(h))
            if yaml:
                through = [n for n, _ in graph[path][0] if YAML_HEADER.match(n) or any(
                    YAML_HEADER.match(h) for h in reached(n))]
                problems.append(
                    f"{path}: includes {yaml[0]}"
                    + (f" through {through[0]}" if through else "")
                    + "; only files/ may parse yaml-cpp"
                )
        if (
            path.endswith(".cc")
            and not is_test(os.path.basename(path))
            and "/mpi/mpi_toy_main.cc" not in "/" + path
            and seen & ENGINE
        ):
            engine_units.append(path)
    if len(engine_units) > MAX_ENGINE_UNITS:
        problems.append(
            f"{engine_units[MAX_ENGINE_UNITS]}: compiles the search engine; "
            f"{len(engine_units)} library sources do ({', '.join(engine_units)}), at most "
            f"{MAX_ENGINE_UNITS} may (include checker/explore_types.h and call "
            f"properties/world_explore.h)"
        )


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print("usage: scripts/structure.py ROOT", file=sys.stderr)
        return 2
    root = argv[1]
    problems = []
    texts = {}
    for path in sources(root):
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = f.read()
        texts[path] = text
        check_includes(root, path, text, problems)
        check_length(path, text, problems)
    check_reach(root, texts, problems)
    check_links(root, problems)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
