#!/usr/bin/env python3
# SIGINT or SIGTERM during a long `check` stops it at the next safe point: it prints the
# statistics it explored and "interrupted: nothing is proven" (text and --json) and exits 3,
# or, when a violation was found before the signal, exits 1 with the counterexample written
# and replayable; so does a signal in the check's first milliseconds. `search` stops the same
# way, with its seed (text and --json), and writes a violation it found before the signal.
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
try:  # the documents are validated against the schema where python3-jsonschema is installed
    import jsonschema
    with open(os.path.join(source, "docs/json-schema/preemptcheck-output.schema.json")) as f:
        validator = jsonschema.Draft202012Validator(json.load(f))
except ImportError:
    validator = None
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


def sigint_caught(pid, timeout=30):
    """Waits until /proc/PID/status lists SIGINT among the caught signals."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    caught = line.startswith("SigCgt:") and int(line.split()[1], 16)
                    if caught and caught & (1 << (signal.SIGINT - 1)):
                        return True
        except FileNotFoundError:
            return False
        time.sleep(0.001)
    return False


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
    # A signal in the first milliseconds, before the search began: the handlers are installed
    # first thing in main, so the check still stops with its statistics, never silently. The
    # signal is sent once the kernel shows SIGINT caught (before that the process is still in
    # the loader or a sanitizer's start-up, which takes longer than 30 ms under ASan), then
    # at once or 50 ms later.
    for delay in (0.0, 0.05):
        p = subprocess.Popen([binary, "check", LONG, "--threads", "1"], cwd=source,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if not sigint_caught(p.pid):
            failures.append(f"early signal: SIGINT never caught by process {p.pid}")
        time.sleep(delay)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
        print(f"$ preemptcheck check {LONG}  # SIGINT after {delay} s\n{out}{err}"
              f"(exit {p.returncode})\n")
        expect(p.returncode == 3, f"early signal ({delay} s): exit {p.returncode}, expected 3")
        expect("result     interrupted: nothing is proven" in out,
               f"early signal ({delay} s): no interrupted result line")

    # `search` stops after the cluster under way: its seed, the statistics so far, exit 3.
    rc, out, err = interrupted([binary, "search", "--seed", "11", "--runs", "100000000"],
                               signal.SIGINT)
    expect(rc == 3, f"search: exit {rc}, expected 3")
    expect("search     seed 11," in out, "search: no seed")
    expect("result     interrupted: nothing is proven; the search stopped at SIGINT after " in out,
           "search: no interrupted result line")
    expect("reproduce  preemptcheck search --seed 11 " in out, "search: no reproduce line")
    rc, out, err = interrupted([binary, "search", "--runs", "100000000", "--json"],
                               signal.SIGTERM, wait_for_progress=False)
    expect(rc == 3, f"search --json: exit {rc}, expected 3")
    try:
        doc = json.loads(out)
        expect(doc["outcome"] == "interrupted", f"search --json: outcome {doc['outcome']}")
        expect(doc["interrupted"] == "SIGTERM", f"search --json: {doc.get('interrupted')}")
        expect(isinstance(doc["seed"], int), "search --json: no seed")
        expect(doc["reproduce"].startswith(f"preemptcheck search --seed {doc['seed']} "),
               "search --json: no reproduce line with the seed")
        expect(doc["exit_code"] == 3, f"search --json: exit_code {doc['exit_code']}")
    except (ValueError, KeyError) as e:
        failures.append(f"search --json: not the document expected ({e}):\n{out}")
    # A violation found before the signal stands: shrinking stops where it got, the file is
    # written and replays. Text first (a progress line says shrinking is under way), which also
    # times it for --json, whose progress lines come out only at the end.
    SHRINKS = ["search", "--seed", "2", "--profile", "kubernetes", "--gate=release-before-last",
               "--property", "no-over-preemption", "--runs", "3000"]
    with tempfile.TemporaryDirectory() as scratch:
        start = time.monotonic()
        p = subprocess.Popen([binary] + SHRINKS + ["--out", scratch], cwd=source,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        shrinking = None
        for line in p.stderr:
            if "shrinking" in line:
                shrinking = time.monotonic() - start
                p.send_signal(signal.SIGINT)
                break
        out, err = p.communicate(timeout=120)
        ended = time.monotonic() - start
        print(f"$ preemptcheck {' '.join(SHRINKS)}  # SIGINT while shrinking\n{out}{err}"
              f"(exit {p.returncode})\n")
        expect(shrinking is not None, "search: no shrinking progress line")
        expect(p.returncode == 1, f"search shrinking: exit {p.returncode}, expected 1")
        expect("interrupted SIGINT stopped the search while shrinking" in out,
               "search shrinking: the interrupt is not reported")
        files = os.listdir(scratch)
        expect(len(files) == 1, f"search shrinking: files written {files}")
        for f in files:
            replay = subprocess.run([binary, "replay", os.path.join(scratch, f)], cwd=source,
                                    capture_output=True, text=True)
            expect(replay.returncode == 1 and "reproduced" in replay.stdout,
                   f"search shrinking: replay {f}: exit {replay.returncode}")
    # --json: the signal at a time inside the shrinking the text run saw, moved if it missed.
    if shrinking is not None:
        delay, doc = shrinking + 0.5, None
        for attempt in range(4):
            with tempfile.TemporaryDirectory() as scratch:
                p = subprocess.Popen([binary] + SHRINKS + ["--out", scratch, "--json"],
                                     cwd=source, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
                time.sleep(delay)
                p.send_signal(signal.SIGINT)
                out, err = p.communicate(timeout=120)
                try:
                    doc = json.loads(out)
                except ValueError:
                    failures.append(f"search --json shrinking: not JSON:\n{out}{err}")
                    break
                print(f"search --json, SIGINT after {delay:.1f} s: outcome {doc['outcome']}, "
                      f"interrupted {doc.get('interrupted')}, exit {p.returncode}")
                if doc["outcome"] == "interrupted":  # before the violation: later
                    delay += 1.0
                    continue
                if "interrupted" not in doc:  # shrinking had ended: earlier
                    delay = max(0.2, delay - 1.0)
                    continue
                expect(p.returncode == 1, f"search --json shrinking: exit {p.returncode}")
                expect(doc["seed"] == 2 and doc["exit_code"] == 1,
                       f"search --json shrinking: seed {doc['seed']}, exit {doc['exit_code']}")
                if validator is not None:
                    for e in validator.iter_errors(doc):
                        failures.append(f"search --json shrinking: {e.json_path}: {e.message}")
                replay = subprocess.run([binary, "replay", doc["counterexample"]], cwd=source,
                                        capture_output=True, text=True)
                expect(replay.returncode == 1 and "reproduced" in replay.stdout,
                       f"search --json shrinking: replay: exit {replay.returncode}")
                break
        else:
            failures.append("search --json: no SIGINT landed while shrinking in 4 attempts")
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
