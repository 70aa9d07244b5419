#!/usr/bin/env python3
# Runs every command with --json, on holding, violated, limited, interrupted (check and
# search), stopped (a replay) and failing inputs (a counterexample that cannot be written
# included), and validates each document
# against docs/json-schema/preemptcheck-output.schema.json; the exit code must equal the
# document's exit_code. Exits 77 (skipped) without python3-jsonschema.
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

try:
    import jsonschema
except ImportError:
    print("SKIPPED: the Python module jsonschema is not installed "
          "(Debian: apt-get install python3-jsonschema)")
    sys.exit(77)

binary, source = sys.argv[1], sys.argv[2]
with open(os.path.join(source, "docs/json-schema/preemptcheck-output.schema.json")) as f:
    schema = json.load(f)
validator = jsonschema.Draft202012Validator(schema)
jsonschema.Draft202012Validator.check_schema(schema)

failures = []


def run(args, expect_rc, env=None, interrupt_after=None):
    """Runs `preemptcheck ARGS` (with `env` added to the environment; sent SIGINT after
    `interrupt_after` seconds) and validates its one JSON line."""
    label = "preemptcheck " + " ".join(args)
    if interrupt_after is None:
        p = subprocess.run([binary] + args, cwd=source, capture_output=True, text=True,
                           env=dict(os.environ, **(env or {})))
        rc, stdout, stderr = p.returncode, p.stdout, p.stderr
    else:
        label += f"  # SIGINT after {interrupt_after} s"
        p = subprocess.Popen([binary] + args, cwd=source, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        time.sleep(interrupt_after)
        p.send_signal(signal.SIGINT)
        stdout, stderr = p.communicate(timeout=120)
        rc = p.returncode
    if rc != expect_rc:
        failures.append(f"{label}: exit {rc}, expected {expect_rc}\n{stderr}")
        return None
    lines = stdout.splitlines()
    if len(lines) != 1:
        failures.append(f"{label}: expected one JSON line, got {len(lines)}:\n{stdout}")
        return None
    doc = json.loads(lines[0])
    for e in validator.iter_errors(doc):
        failures.append(f"{label}: {e.json_path}: {e.message}")
    if doc.get("exit_code") != expect_rc:
        failures.append(f"{label}: exit_code {doc.get('exit_code')}, exit {expect_rc}")
    print(f"ok {label} -> exit {rc}")
    return doc


counterexample = "counterexamples/no-overcommit--assume-window--assume-off.yaml"
with tempfile.TemporaryDirectory() as scratch:
    bad = os.path.join(scratch, "bad.yaml")
    with open(bad, "w") as f:
        f.write("name: bad\ndescription: x\nnodes:\n  - {name: a, cpu: 4}\n"
                "pods:\n  - {name: v, cpu: 1, node: z}\n")
    run(["check", "--json"], 0)
    # Random walks: a violation found and written; none found (nothing is proven, exit 3).
    doc = run(["check", "cli/testdata/gang.yaml", "--profile", "kubernetes", "--simulate", "300",
               "--seed", "1", "--json", "--out", scratch], 1)
    if doc and not doc.get("simulation", {}).get("violations"):
        failures.append("check --simulate: no violation in the document's simulation")
    run(["check", "--simulate", "5", "--seed", "3", "--json", "--property", "no-overcommit"], 3)
    # A state limit: the levels, the estimate and the advice.
    doc = run(["check", "cli/testdata/gang.yaml", "--max-states", "20000", "--json", "--quiet"], 3)
    if doc and not any(a["kind"] == "advice" for a in doc.get("advice", [])):
        failures.append("check --max-states on the gang: no advice in the document")
    doc = run(["check", "--json", "--inflight=off", "--out", scratch], 1)
    if doc and not any(p["verdict"] == "violated" for p in doc["properties"]):
        failures.append("check --inflight=off: no property is violated in the document")
    doc = run(["check", "scenarios/g1-basic.yaml", "--profile", "kubernetes", "--json",
               "--out", scratch], 1)
    own = [p for p in (doc or {}).get("properties", []) if "counterexample" in p]
    if doc and len(own) < 2:
        failures.append("check g1-basic --profile kubernetes: fewer than two properties carry "
                        "their own counterexample")
    # A counterexample that cannot be written (a simulated full disk) keeps the verdict.
    doc = run(["check", "--json", "--inflight=off", "--out", os.path.join(scratch, "full")], 1,
              env={"PREEMPTCHECK_TEST_WRITE_FAULT_AFTER": "100"})
    if doc and "write_error" not in doc:
        failures.append("check with a full disk: no write_error in the document")
    # An interrupted check: the statistics so far, "interrupted", exit 3.
    doc = run(["check", "bench/three-nodes.yaml", "--json"], 3, interrupt_after=2)
    if doc and (doc["limit"] != "interrupted" or "interrupted" not in doc):
        failures.append("check interrupted: the document does not say so")
    # check --liveness: holds, a lasso (fair and unfair, written), gated, and a limit.
    run(["check", "scenarios/g2-single-victim.yaml", "--profile", "kubernetes", "--liveness",
         "--json"], 0)
    doc = run(["check", "scenarios/returning-victim.yaml", "--profile", "kubernetes-1.35",
               "--liveness", "--json", "--out", scratch], 1)
    if doc and (doc["lasso"]["unfair"] or not doc.get("counterexample")):
        failures.append(f"check --liveness: the fair lasso is not written or called unfair: {doc}")
    doc = run(["check", "scenarios/g2-single-victim.yaml", "--profile", "kubernetes", "--liveness",
               "--unfair", "--json"], 1)
    if doc and not doc["lasso"]["unfair"]:
        failures.append("check --liveness --unfair: the lasso is not marked unfair")
    junit = os.path.join(scratch, "liveness.xml")
    doc = run(["check", "scenarios/returning-victim.yaml", "--profile", "kubernetes-1.35",
               "--liveness", "--expect-violated", "no-starvation", "--junit", junit, "--json"], 0)
    if doc and not (os.path.exists(junit) and doc["expectations"][0]["met"]):
        failures.append("check --liveness --expect-violated: no report, or the expectation unmet")
    run(["check", "scenarios/returning-victim.yaml", "--profile", "kubernetes-1.35",
         "--liveness", "--junit", junit, "--json"], 1)
    doc = run(["check", "scenarios/returning-victim.yaml", "--liveness", "--time-limit", "0",
               "--json"], 3)
    if doc and doc["limit"] != "time-limit":
        failures.append(f"check --liveness --time-limit 0: limit {doc['limit']}")
    run(["check", "scenarios/returning-victim.yaml", "--liveness", "--max-states", "10",
         "--json"], 3)
    run(["check", "--json", "--max-states", "10"], 3)
    run(["check", "--json", "--max-memory", "1K"], 3)
    run(["check", bad, "--json"], 2)
    err = run(["check", "--json", "--max-states", "0x10"], 2)
    run(["replay", counterexample, "--json"], 1)
    run(["replay", counterexample, "--json", "--profile", "reference"], 0)
    # A replay that runs and then stops (a step not enabled) prints its own document, exit 2.
    doc = run(["replay", "counterexamples/no-lost-wakeup--g1-basic--kubernetes.yaml", "--json",
               "--profile", "reference"], 2)
    if doc and not doc.get("diverged"):
        failures.append("replay --json exit 2: the document does not say why in 'diverged'")
    # It stopped at step 2: no property is judged past step 1, none "holds".
    if doc and any(p["verdict"] == "holds" for p in doc["properties"]):
        failures.append("replay --json stopped at step 2: a property holds past the last step")
    if doc and not any(p["verdict"] == "not-judged" and p.get("step") == 1
                       for p in doc["properties"]):
        failures.append("replay --json stopped at step 2: no property is not-judged past step 1")
    run(["replay", os.path.join(scratch, "missing.yaml"), "--json"], 2)
    doc = run(["graph", "--json", "--dot", os.path.join(scratch, "g.dot")], 0)
    if doc and (doc["states"] != 8819 or doc["around"] is not None):
        failures.append("graph --json: expected the default scenario's 8819 states drawn whole")
    doc = run(["graph", "--json", "--around", counterexample, "--dot",
               os.path.join(scratch, "around.dot")], 0)
    if doc and doc["around"] != counterexample:
        failures.append("graph --around --json: the document does not name the file")
    run(["graph", "--json", "--dot", os.path.join(scratch, "g.dot"), "--max-states", "100"], 3)
    run(["search", "--json", "--seed", "3", "--runs", "5"], 0)
    run(["search", "--json", "--seed", "9", "--runs", "100", "--nomination=async",
         "--out", scratch], 1)
    run(["search", "--json", "--stateful", "--seed", "1", "--runs", "2", "--max-steps", "20"], 0)
    # An interrupted search: its seed and the statistics so far, "interrupted", exit 3.
    doc = run(["search", "--json", "--seed", "11", "--runs", "100000000"], 3, interrupt_after=2)
    if doc and (doc["outcome"] != "interrupted" or doc.get("interrupted") != "SIGINT"
                or doc["seed"] != 11):
        failures.append(f"search interrupted: the document does not say so: {doc}")
    run(["search", "--json", "--differential", "--seed", "1"], 2)
    doc = run(["import", "files/testdata/kubectl-cluster.yaml", "--json"], 0)
    if doc and not doc["dropped"]:
        failures.append("import --json: the fixture's dropped fields are not listed")
    doc = run(["import", "files/testdata/kubectl-malformed-quantity.yaml", "--json"], 2)
    if doc and not doc["error"].get("line"):
        failures.append(f"import of a malformed fixture: the error names no line: {doc['error']}")
    doc = run(["check", bad, "--json"], 2)
    if doc and (doc["error"].get("file") != bad or not doc["error"].get("line")):
        failures.append(f"check {bad}: the error names no file and line: {doc['error']}")

for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
