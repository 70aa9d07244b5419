#!/bin/sh
# Browser test of the swimlane page: writes the page of one counterexample, lets headless
# Chromium load it (scripts on, network off), and checks the rendered DOM — the script ran,
# one lane per component, exactly one breaking step, marked where the heading says, an arrow
# per cause, no lane cut off behind a scroll bar in a 1400 px window — then takes a screenshot
# and checks it is a real PNG of the window's size.
# Usage: browser_test.sh PREEMPTCHECK CHROMIUM COUNTEREXAMPLE.yaml OUT_DIR
# Exit 77 (skipped) when Chromium is not installed.
set -eu
preemptcheck=$1 chromium=$2 file=$3 out=$4

if [ -z "$chromium" ] || [ ! -x "$chromium" ]; then
  echo "SKIP: Chromium is not installed (Debian: apt-get install chromium); the swimlane page was not rendered in a browser"
  exit 77
fi

fail() { echo "FAIL: $file: $*"; exit 1; }

mkdir -p "$out"
html="$out/page.html" dom="$out/dom.html" png="$out/screenshot.png"
rm -f "$html" "$dom" "$png"
# replay exits 1 when the recorded violation reproduces; anything above 1 is a failure.
rc=0
"$preemptcheck" replay "$file" --html "$html" >"$out/replay.log" 2>&1 || rc=$?
[ "$rc" -le 1 ] && [ -f "$html" ] || fail "preemptcheck replay --html exited $rc (see $out/replay.log)"

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
run_chromium() {
  "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --host-resolver-rules="MAP * ~NOTFOUND" --hide-scrollbars \
    --user-data-dir="$profile" "$@" "file://$(realpath "$html")"
}

run_chromium --dump-dom >"$dom" 2>"$out/chromium-dom.log" || fail "chromium --dump-dom failed (see $out/chromium-dom.log)"
count() { grep -o "$1" "$dom" | wc -l | tr -d ' '; }

[ "$(count '<body data-ready="1"')" = 1 ] || fail "the page's script did not run (no data-ready on body)"
for lane in user flush scheduling binding executor api-server informer kubelet; do
  [ "$(count "class=\"lane-head lane-$lane\" data-lane=\"$lane\"")" = 1 ] ||
    fail "lane '$lane' is not present exactly once"
done
[ "$(count 'class="lane-head ')" = 8 ] || fail "expected 8 lanes, found $(count 'class="lane-head ')"
if grep -q '^loop: ' "$file"; then
  # A lasso breaks at no step: the page marks where its loop starts, once, and no step.
  loop=$(sed -n 's/^loop: \([0-9]*\).*/\1/p' "$file")
  [ "$(count '<tbody class="loop-start" id="loop"')" = 1 ] ||
    fail "expected the loop marked once, found $(count '<tbody class="loop-start"')"
  [ "$(count '<tbody class="step breaks')" = 0 ] || fail "a lasso's page marks a breaking step"
  step="none (loop after step $loop)"
else
[ "$(count '<tbody class="step breaks')" = 1 ] ||
  fail "expected exactly one breaking step, found $(count '<tbody class="step breaks')"
step=$(grep -o 'breaks at step [0-9]*' "$dom" | head -n 1 | sed 's/.* //')
[ -n "$step" ] || fail "the heading does not say where the property breaks"
[ "$(count "<tbody class=\"step breaks open\" id=\"step-$step\"")" = 1 ] ||
  fail "step $step is named in the heading but is not the marked, opened step"
fi
causes=$(count 'class="cause" data-cause=')
arrows=$(count '<path class="arrow"')
[ "$arrows" = "$causes" ] || fail "$causes causes but $arrows arrows were drawn"
if grep -Eqi 'src="(https?:)?//|href="(https?:)?//|<link |@import|url\((https?:)?//' "$dom"; then
  fail "the rendered page references something outside itself"
fi

# At 1400 px the lanes fit the window: no column is cut off behind a scroll bar.
run_chromium --dump-dom --window-size=1400,1000 >"$out/dom-1400.html" 2>"$out/chromium-dom.log" ||
  fail "chromium --dump-dom at 1400 px failed (see $out/chromium-dom.log)"
grep -q 'data-clipped="0"' "$out/dom-1400.html" ||
  fail "at 1400 px the lanes are wider than the window (data-clipped is not 0)"

run_chromium --screenshot="$png" --window-size=1480,1000 >"$out/chromium-shot.log" 2>&1 ||
  fail "chromium --screenshot failed (see $out/chromium-shot.log)"
[ -f "$png" ] || fail "no screenshot was written"
magic=$(od -An -tx1 -N8 "$png" | tr -d ' \n')
[ "$magic" = 89504e470d0a1a0a ] || fail "the screenshot is not a PNG"
size=$(wc -c <"$png" | tr -d ' ')
[ "$size" -gt 40000 ] || fail "the screenshot is only $size bytes: the page did not render"
width=$(od -An -tu1 -j16 -N4 "$png" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4}')
[ "$width" -ge 1480 ] || fail "the screenshot is $width pixels wide, expected 1480"

echo "ok: $file: 8 lanes, step $step marked, $arrows arrows, screenshot $size bytes ($png)"
