#!/usr/bin/env python3
# SIGINT or SIGTERM during a long `check` stops it at the next safe point: it prints the
# statistics it explored and "interrupted: nothing is proven" (text and --json) and exits 3,
# or, when a violation was found before the signal, exits 1 with the counterexample written
# and replayable.
#
#   interrupt_test.py PREEMPTCHECK SOURCE_DIR [MPIRUN_WORDS]
#
# With MPIRUN_WORDS, the same under mpirun with 2 ranks, the signal sent to mpirun: the run
# must end within a minute (no rank left waiting) with a non-zero exit.
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time

binary, source = sys.argv[1], sys.argv[2]
mpirun = shlex.split(sys.argv[3]) if len(sys.argv) > 3 else None
# bench/three-nodes.yaml takes minutes on any machine: a signal after a few seconds always
# finds it running.
LONG = os.path.join(source, "bench/three-nodes.yaml")
failures = []


def interrupted(args, sig, wait_for_progress=True, timeout=120):
    """Runs `preemptcheck ARGS`, sends `sig` once the search is under way (its first progress
    line, or two seconds), and returns (exit code, stdout, stderr)."""
    p = subprocess.Popen(args, cwd=source, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    if wait_for_progress:
        line = p.stderr.readline()  # the progress line, every 3 s, on standard error
        if not line.startswith("progress"):
            failures.append(f"{args}: expected a progress line first, got {line!r}")
    else:
        time.sleep(2)
    sent = time.monotonic()
    p.send_signal(sig)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        failures.append(f"{args}: still running {timeout} s after the signal")
    print(f"$ {' '.join(args)}  # {signal.Signals(sig).name} "
          f"({time.monotonic() - sent:.1f} s to stop)\n{out}{err}(exit {p.returncode})\n")
    return p.returncode, out, err


def expect(condition, what):
    if not condition:
        failures.append(what)


if mpirun is None:
    # One thread and two: the level search looks at the flag on its calling thread.
    for threads in ("1", "2"):
        rc, out, err = interrupted([binary, "check", LONG, "--threads", threads], signal.SIGINT)
        expect(rc == 3, f"text, {threads} thread(s): exit {rc}, expected 3")
        expect("explored   " in out, f"text, {threads} thread(s): no statistics")
        expect("result     interrupted: nothing is proven; the search stopped at SIGINT after "
               in out, f"text, {threads} thread(s): no interrupted result line")
        expect("not verified (search incomplete)" in out,
               f"text, {threads} thread(s): a property is not marked unverified")
        expect(" holds\n" not in out, f"text, {threads} thread(s): a property holds")

    rc, out, err = interrupted([binary, "check", LONG, "--threads", "1", "--json"],
                               signal.SIGTERM, wait_for_progress=False)
    expect(rc == 3, f"json: exit {rc}, expected 3")
    try:
        doc = json.loads(out)
        expect(doc["outcome"] == "limit-reached", f"json: outcome {doc['outcome']}")
        expect(doc["limit"] == "interrupted", f"json: limit {doc['limit']}")
        expect(doc["limit_detail"] == "SIGTERM", f"json: limit_detail {doc.get('limit_detail')}")
        expect(doc["interrupted"] == "interrupted: nothing is proven",
               f"json: interrupted {doc.get('interrupted')}")
        expect(doc["stats"]["states"] > 1, "json: no states explored")
        expect(doc["exit_code"] == 3, f"json: exit_code {doc['exit_code']}")
        expect(all(p["verdict"] in ("incomplete", "reached", "not-reached", "not-checked")
                   for p in doc["properties"]), "json: a verdict other than incomplete")
    except (ValueError, KeyError) as e:
        failures.append(f"json: not the document expected ({e}):\n{out}")

    # A violation found before the signal stands: exit 1, its file written and replayable.
    with tempfile.TemporaryDirectory() as scratch:
        rc, out, err = interrupted([binary, "check", LONG, "--threads", "1", "--inflight=off",
                                    "--out", scratch], signal.SIGINT)
        expect(rc == 1, f"violation: exit {rc}, expected 1")
        expect("result     VIOLATED no-double-victim" in out, "violation: not reported")
        expect("incomplete the search stopped because it was interrupted (SIGINT)" in out,
               "violation: the interrupt is not reported")
        files = os.listdir(scratch)
        expect(len(files) >= 1 and all(f.endswith(".yaml") for f in files),
               f"violation: files written {files}")
        for f in files:
            path = os.path.join(scratch, f)
            expect(os.path.getsize(path) > 0, f"violation: {f} is empty")
            expect(f"replay     preemptcheck replay {path}\n" in out,
                   f"violation: {f} is not named")
            replay = subprocess.run([binary, "replay", path], cwd=source, capture_output=True)
            expect(replay.returncode == 1, f"violation: replay {f}: exit {replay.returncode}")
else:
    # Under mpirun the launcher passes the signal on to the ranks (or ends them): the run
    # must end, never hang with a rank waiting for another.
    rc, out, err = interrupted(mpirun + ["-np", "2", binary, "check", LONG], signal.SIGINT,
                               timeout=60)
    expect(rc != 0, "mpi: exit 0 after an interrupt")
    expect(" holds\n" not in out, "mpi: a property holds after an interrupt")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
