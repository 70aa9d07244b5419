#!/usr/bin/env python3
# The documented GitHub Actions workflow (docs/ci/github-actions.yml) is valid YAML with the
# keys GitHub requires (on, jobs.*.runs-on, jobs.*.steps), runs in a debian:12 container,
# runs the README's two commands verbatim (read from README.md's first two ```sh blocks),
# writes JUnit with `ctest --output-junit`, and uploads counterexamples on failure.
# Exits 77 (skipped) without python3-yaml.
import re
import sys

try:
    import yaml
except ImportError:
    print("SKIPPED: the Python module yaml is not installed (Debian: apt-get install python3-yaml)")
    sys.exit(77)

source = sys.argv[1]
failures = []
with open(f"{source}/README.md") as f:
    blocks = re.findall(r"```sh\n(.*?)\n```", f.read(), re.S)
if len(blocks) < 2:
    print("FAIL README.md has fewer than two ```sh blocks")
    sys.exit(1)
readme_commands = [blocks[0].strip(), blocks[1].strip()]

with open(f"{source}/docs/ci/github-actions.yml") as f:
    workflow = yaml.safe_load(f)

if not isinstance(workflow, dict):
    print("FAIL the workflow is not a mapping")
    sys.exit(1)
# YAML 1.1 (PyYAML) reads the key `on` as the boolean true; GitHub reads it as "on".
if "on" not in workflow and True not in workflow:
    failures.append("no 'on' key: the workflow is never triggered")
jobs = workflow.get("jobs")
if not isinstance(jobs, dict) or not jobs:
    failures.append("no jobs")
    jobs = {}
runs = []
uploads = []
for name, job in jobs.items():
    if not isinstance(job, dict):
        failures.append(f"job {name} is not a mapping")
        continue
    if not job.get("runs-on"):
        failures.append(f"job {name}: no runs-on")
    container = job.get("container")
    image = container.get("image") if isinstance(container, dict) else container
    if image != "debian:12":
        failures.append(f"job {name}: container is {image!r}, expected debian:12")
    steps = job.get("steps")
    if not isinstance(steps, list) or not steps:
        failures.append(f"job {name}: no steps")
        continue
    for i, step in enumerate(steps):
        if not isinstance(step, dict) or ("run" in step) == ("uses" in step):
            failures.append(f"job {name}, step {i + 1}: expected exactly one of run and uses")
            continue
        if "run" in step:
            runs.append(step["run"])
        elif step["uses"].startswith("actions/upload-artifact@"):
            uploads.append(step)

for command in readme_commands:
    if not any(command in run for run in runs):
        failures.append(f"no run line contains the README's command verbatim: {command}")
if not any(re.search(r"\bctest\b.*--output-junit", run) for run in runs):
    failures.append("no run line calls ctest --output-junit")
if not any("failure()" in str(u.get("if", "")) and "counterexamples" in str(u.get("with", {}))
           for u in uploads):
    failures.append("no upload-artifact step for counterexamples under if: failure()")

for f in failures:
    print("FAIL", f)
print("ok" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
