#!/usr/bin/env python3
"""`preemptcheck check` under mpirun with 2 and 3 ranks of one thread and 2 ranks of two
threads against one process, on scenarios.

For each scenario: the --json documents must be equal apart from the timing and memory
figures (seconds, states per second, peak memory), the exit status equal, and a
counterexample file written under --out equal byte for byte. Every run stops at the first
violation (--stop-at-first); cli/mpi_check_test.sh compares runs with a verdict per property.
Usage: mpi_scenarios_test.py "MPIRUN ARGS" PREEMPTCHECK SCENARIO.yaml[::CHECK ARGS]...
(CHECK ARGS: more words for `check`, separated by spaces).
"""
import json
import os
import shlex
import subprocess
import sys
import tempfile

VOLATILE = {"seconds", "states_per_second", "peak_rss_bytes", "memory_bytes"}


def stable(document):
    if isinstance(document, dict):
        return {k: stable(v) for k, v in document.items() if k not in VOLATILE}
    if isinstance(document, list):
        return [stable(v) for v in document]
    return document


def run(launcher, binary, case, out_dir, more=()):
    scenario, _, extra = case.partition("::")
    command = launcher + [binary, "check", scenario, *extra.split(), *more, "--stop-at-first",
                          "--quiet", "--json", "--out", out_dir]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    files = {}
    for name in sorted(os.listdir(out_dir)):
        path = os.path.join(out_dir, name)
        with open(path, "rb") as f:
            files[name] = f.read()
        os.remove(path)
    try:
        document = stable(json.loads(done.stdout))
    except json.JSONDecodeError:
        document = None
    return done.returncode, document, files, done


def main():
    mpirun = shlex.split(sys.argv[1])
    binary = sys.argv[2]
    failures = 0
    for scenario in sys.argv[3:]:
        with tempfile.TemporaryDirectory() as tmp:
            # One directory for every run: the file names the directory it was written to.
            out_dir = os.path.join(tmp, "out")
            os.mkdir(out_dir)
            expected = run([], binary, scenario, out_dir)
            if expected[1] is None:
                print(f"{scenario}: one process printed no JSON:\n{expected[3].stderr}")
                failures += 1
                continue
            # Ranks of one thread each, and two ranks of two threads each.
            for ranks, threads in ((2, 1), (3, 1), (2, 2)):
                actual = run(mpirun + ["-np", str(ranks)], binary, scenario, out_dir,
                             ["--threads", str(threads)])
                same = actual[:3] == expected[:3]
                summary = expected[1].get("stats", expected[1].get("outcome"))
                print(f"{scenario}: {ranks} ranks x {threads} threads: "
                      f"{'same' if same else 'DIFFERENT'} "
                      f"(exit {actual[0]}, {len(actual[2])} counterexample file(s)) {summary}")
                if not same:
                    failures += 1
                    print(f"  one process: exit {expected[0]} {json.dumps(expected[1])[:2000]}")
                    print(f"  {ranks} ranks: exit {actual[0]} {json.dumps(actual[1])[:2000]}")
                    print(f"  stderr: {actual[3].stderr[:2000]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
