#!/bin/sh
# `check --out` on a file system that is full: a tmpfs of 64 KiB, mounted for the test and
# filled before the check. The verdict and statistics are printed in full, every failed file
# is named with the system's reason (a check that writes two names both), the exit code is the verdict's (1), and nothing is left in
# the file system but the file that filled it: no 0-byte, partial or temporary file.
# Exits 77 (skipped) where a tmpfs cannot be mounted (not root, or no permission).
#
#   full_disk_test.sh PREEMPTCHECK
set -u
program=$1
scratch=$(mktemp -d)
mnt="$scratch/full"
mkdir "$mnt"
if ! mount -t tmpfs -o size=64k tmpfs "$mnt" 2>/dev/null; then
  rmdir "$mnt" "$scratch"
  echo "SKIPPED: cannot mount a tmpfs here"
  exit 77
fi
trap 'umount "$mnt"; rm -rf "$scratch"' EXIT
# Fill it: dd stops when the file system is full.
dd if=/dev/zero of="$mnt/fill" bs=4096 2>/dev/null
"$program" check --inflight=off --out "$mnt" --quiet >"$scratch/out" 2>"$scratch/err"
status=$?
cat "$scratch/out" "$scratch/err"
echo "(exit $status)"
failures=0
fail() {
  echo "FAIL: $1"
  failures=$((failures + 1))
}
[ "$status" -eq 1 ] || fail "exit $status, expected 1"
grep -q '^explored   [0-9]* states' "$scratch/out" || fail "no statistics"
grep -q '^result     VIOLATED no-double-victim' "$scratch/out" || fail "no verdict"
grep -q "^unwritten  cannot write '$mnt/no-double-victim--default--inflight-off.yaml': No space left on device" \
  "$scratch/out" || fail "the failed file is not named with its reason on standard output"
grep -q "cannot write '$mnt/no-double-victim--default--inflight-off.yaml': No space left on device; the verdict above stands (exit 1)" \
  "$scratch/err" || fail "no error on standard error"
# Two violated properties, two files: each unwritten one is named with its reason.
source_dir=$(cd "$(dirname "$0")/.." && pwd)
"$program" check "$source_dir/scenarios/g1-basic.yaml" --profile kubernetes --out "$mnt" --quiet \
  >"$scratch/out2" 2>"$scratch/err2"
status=$?
cat "$scratch/out2" "$scratch/err2"
echo "(exit $status)"
[ "$status" -eq 1 ] || fail "two files: exit $status, expected 1"
for name in no-double-victim--g1-basic--kubernetes.yaml no-lost-wakeup--g1-basic--kubernetes.yaml; do
  grep -q "^unwritten  .*cannot write '$mnt/$name': No space left on device" "$scratch/out2" ||
    fail "two files: $name is not named with its reason on standard output"
  grep -q "cannot write '$mnt/$name': No space left on device" "$scratch/err2" ||
    fail "two files: $name is not named on standard error"
done
left=$(ls -A "$mnt")
[ "$left" = "fill" ] || fail "the file system holds more than what filled it: $left"
[ "$failures" -eq 0 ] && echo PASS
[ "$failures" -eq 0 ]
