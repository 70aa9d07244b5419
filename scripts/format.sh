#!/usr/bin/env bash
# Formats every C++ file of the repository with the project's .clang-format, or, with
# --check, fails (exit 1) naming the files that are not formatted: the gate `.ci/run` runs.
#   usage: scripts/format.sh [--check]
set -euo pipefail
cd "$(dirname "$0")/.."
format=$(command -v clang-format-14 || command -v clang-format)
mapfile -t files < <(git ls-files '*.h' '*.cc')
if [[ ${1:-} == --check ]]; then
  "$format" --dry-run --Werror "${files[@]}"
else
  "$format" -i "${files[@]}"
fi
