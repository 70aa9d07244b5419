#!/usr/bin/env python3
"""`preemptcheck explore` driven in headless Chromium over the DevTools protocol: the server
is started on a committed counterexample's scenario and switches (read from the file), the
page opened, the file's steps taken by clicking their buttons, the file's property seen
holding before its last step and broken at it, two steps taken back, the URL reloaded to the
same state, the path downloaded from the page's link and replayed (`replay` must exit 1 and
say "reproduced", with the file's fingerprints), and "shortest violation from here" from the
initial state asked to find a path as short as the file's. A screenshot of the broken state is
written to OUT_DIR/explore.png.

  usage: explore_browser_test.py PREEMPTCHECK CHROMIUM COUNTEREXAMPLE.yaml OUT_DIR
Exit 77 (skipped) when Chromium is not installed.
"""

import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request


def fail(what):
    print("FAIL: " + what)
    sys.exit(1)


class DevTools:
    """The DevTools protocol over a WebSocket, with the standard library only (RFC 6455:
    masked text frames out, unmasked frames in)."""

    def __init__(self, ws_url):
        u = urllib.parse.urlparse(ws_url)
        self.sock = socket.create_connection((u.hostname, u.port), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(("GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
                           "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n" % (u.path, u.hostname, u.port, key)).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                fail("DevTools closed the WebSocket handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            fail("DevTools refused the WebSocket: %r" % head)
        self.next_id = 0

    def _read(self, n):
        out = b""
        while len(out) < n:
            chunk = self.sock.recv(n - len(out))
            if not chunk:
                fail("DevTools closed the connection")
            out += chunk
        return out

    def _frame(self):
        message = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(n)
            message += payload
            if b0 & 0x80:
                return b0 & 0x0F, message

    def call(self, method, **params):
        self.next_id += 1
        data = json.dumps({"id": self.next_id, "method": method, "params": params}).encode()
        mask = os.urandom(4)
        head = bytes([0x81])
        if len(data) < 126:
            head += bytes([0x80 | len(data)])
        elif len(data) < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", len(data))
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", len(data))
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
        while True:
            opcode, message = self._frame()
            if opcode != 1:
                continue
            reply = json.loads(message)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    fail("DevTools %s: %s" % (method, reply["error"]))
                return reply["result"]

    def js(self, expression):
        r = self.call("Runtime.evaluate", expression=expression, awaitPromise=True,
                      returnByValue=True)
        if "exceptionDetails" in r:
            fail("the page's script threw on %s: %s" % (expression, r["exceptionDetails"]))
        return r["result"].get("value")


def main():
    preemptcheck, chromium, file, out_dir = sys.argv[1:5]
    if not chromium or not os.access(chromium, os.X_OK):
        print("SKIP: Chromium is not installed (Debian: apt-get install chromium); the explore "
              "page was not driven in a browser")
        return 77
    os.makedirs(out_dir, exist_ok=True)
    text = open(file, encoding="utf-8").read()
    prop = re.search(r"^property: (\S+)$", text, re.M).group(1)
    steps = re.findall(r'^  - \{action: "([^"]+)", fingerprint: "(0x[0-9a-f]+)"\}', text, re.M)
    found_by = re.search(r"^# Found by: +preemptcheck check (.*)$", text, re.M).group(1).split()
    # The file's scenario and switches as its check was run: the embedded default or a
    # committed scenario, a profile and switches (not the check's own options).
    args, i = [], 0
    while i < len(found_by):
        w = found_by[i]
        if w == "--profile":
            args += [w, found_by[i + 1]]
            i += 1
        elif w.startswith("--") and "=" in w and not w.startswith("--reduce"):
            args.append(w)
        elif w.startswith("--out") or w.startswith("--property") or w.startswith("--expect"):
            i += 1
        elif not w.startswith("--"):
            args.append(w)
        i += 1
    if not steps:
        fail("no steps with fingerprints in %s" % file)
    k = len(steps)

    server = subprocess.Popen([preemptcheck, "explore", *args, "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    profile = tempfile.mkdtemp()
    browser = None
    try:
        line = server.stdout.readline().strip()
        m = re.match(r"explore +(http://127\.0\.0\.1:\d+/)$", line)
        if not m:
            fail("explore %s printed %r, not its URL (stderr %r)" % (args, line, server.stderr.read()))
        base = m.group(1)
        browser = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--hide-scrollbars", "--window-size=1480,1000", "--remote-debugging-port=0",
             "--user-data-dir=" + profile, "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        ws = None
        for line in browser.stderr:
            m = re.search(r"DevTools listening on (ws://\S+)", line)
            if m:
                ws = m.group(1)
                break
        if not ws:
            fail("Chromium did not print its DevTools address")
        port = urllib.parse.urlparse(ws).port
        pages = json.load(urllib.request.urlopen("http://127.0.0.1:%d/json/list" % port))
        page = DevTools([p for p in pages if p["type"] == "page"][0]["webSocketDebuggerUrl"])
        page.call("Page.enable")

        def wait_ready(path):
            deadline = time.time() + 60
            while time.time() < deadline:
                state = page.js("[document.body && document.body.dataset.ready === '1', "
                                "new URLSearchParams(location.search).get('path') || '']")
                if state and state[0] and state[1] == path:
                    return
                time.sleep(0.05)
            fail("the page did not show path %r" % path)

        def status(name):
            return page.js("(() => { const r = document.querySelector('#properties tr[data-property=\"%s\"]');"
                           " return r ? [r.dataset.status, r.dataset.step || null] : null; })()" % name)

        def state_text():
            return page.js("document.getElementById('state').innerText + '|' + "
                           "document.getElementById('path').innerText")

        page.call("Page.navigate", url=base)
        wait_ready("")
        if status(prop) != ["holds", None]:
            fail("%s at the initial state: %r" % (prop, status(prop)))
        taken = []
        for n, (step, _) in enumerate(steps, 1):
            clicked = page.js("(() => { const b = document.querySelector('#enabled button[data-step=\"%s\"]');"
                              " if (!b) return false; b.click(); return true; })()" % step)
            if not clicked:
                fail("step %d '%s' has no enabled button" % (n, step))
            taken.append(step)
            wait_ready(",".join(taken))
            got = status(prop)
            want = ["broken", str(k)] if n == k else ["holds", None]
            if got != want:
                fail("after step %d %s is %r, expected %r" % (n, prop, got, want))
        broken_url = page.js("location.href")
        changed = page.js("document.querySelectorAll('#state tr.changed').length")
        if not changed:
            fail("the last step changed nothing on the page")
        shot = page.call("Page.captureScreenshot", format="png")
        png = base64.b64decode(shot["data"])
        if png[:8] != b"\x89PNG\r\n\x1a\n" or len(png) < 40000:
            fail("the screenshot is not a PNG of the page (%d bytes)" % len(png))
        with open(os.path.join(out_dir, "explore.png"), "wb") as f:
            f.write(png)
        download = page.js("document.getElementById('download').href")
        yaml = page.js("fetch(document.getElementById('download').href).then(r => r.text())")

        back = page.js("(() => { const a = document.querySelector('#path a.back[data-to=\"%d\"]');"
                       " if (!a) return false; a.click(); return true; })()" % (k - 2))
        if not back:
            fail("no 'back to step %d' link" % (k - 2))
        wait_ready(",".join(taken[:k - 2]))
        if status(prop) != ["holds", None]:
            fail("back at step %d %s is %r" % (k - 2, prop, status(prop)))
        before = state_text()
        page.call("Page.reload")
        time.sleep(0.2)
        wait_ready(",".join(taken[:k - 2]))
        if state_text() != before:
            fail("the reloaded URL shows another state")

        # The downloaded file replays as recorded, with the fingerprints of the committed one.
        saved = os.path.join(out_dir, "downloaded.yaml")
        with open(saved, "w", encoding="utf-8") as f:
            f.write(yaml)
        got_steps = re.findall(r'^  - \{action: "([^"]+)", fingerprint: "(0x[0-9a-f]+)"\}', yaml, re.M)
        if got_steps != steps:
            fail("the downloaded steps %r are not the file's %r" % (got_steps, steps))
        r = subprocess.run([preemptcheck, "replay", saved], capture_output=True, text=True)
        if r.returncode != 1 or "reproduced" not in r.stdout:
            fail("replay of the download (%s): exit %d\n%s%s" % (download, r.returncode, r.stdout, r.stderr))

        # "Shortest violation from here", from the initial state: as short as the file's.
        page.call("Page.navigate", url=base)
        wait_ready("")
        page.js("(() => { document.getElementById('search-property').value = '%s';"
                " document.getElementById('search').click(); })()" % prop)
        deadline = time.time() + 120
        path = ""
        while time.time() < deadline:
            path = page.js("new URLSearchParams(location.search).get('path') || ''") or ""
            if path and page.js("!!document.body && document.body.dataset.ready === '1'"):
                break
            time.sleep(0.1)
        if len(path.split(",")) != k or status(prop) != ["broken", str(k)]:
            fail("the shortest violation from the initial state is %r (%s %r), expected %d steps"
                 % (path, prop, status(prop), k))
    finally:
        if browser:
            browser.kill()
            browser.wait()
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(profile, ignore_errors=True)
    if server.returncode != 0:
        fail("explore did not stop with exit 0 on SIGTERM: %d" % server.returncode)
    print("ok: %s: %d steps clicked, %s broken at step %d, back to %d and reloaded alike, "
          "the download reproduced, the search found %d steps; screenshot %s"
          % (file, k, prop, k, k - 2, k, os.path.join(out_dir, "explore.png")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
