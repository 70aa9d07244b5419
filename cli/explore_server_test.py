#!/usr/bin/env python3
"""`preemptcheck explore` under hostile requests, on 127.0.0.1 only: malformed paths and
queries, unknown steps, steps that are not enabled, unknown pages and methods, foreign and
missing Host headers, raw bytes that are not HTTP, and a bounded flood of concurrent
requests. Every answer must be a 4xx with a message (never a 5xx), the process must stay up,
answer the page afterwards, and stop with exit 0 and "stopped" on SIGINT. A port already taken
is refused with exit 2.

  usage: explore_server_test.py PREEMPTCHECK
"""

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

FAILURES = []


def fail(what):
    FAILURES.append(what)
    print("FAIL: " + what)


def start(preemptcheck, *args):
    proc = subprocess.Popen([preemptcheck, "explore", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    m = re.match(r"explore +http://127\.0\.0\.1:(\d+)/$", line.strip())
    if not m:
        proc.kill()
        sys.exit("FAIL: explore printed no URL first, got %r (stderr %r)" %
                 (line, proc.stderr.read()))
    return proc, int(m.group(1))


def request(port, target, host=None, method="GET", timeout=20):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {}
    if host is not None:
        conn.putrequest(method, target, skip_host=True)
        if host != "":
            conn.putheader("Host", host)
        conn.endheaders()
    else:
        conn.request(method, target, headers=headers)
    r = conn.getresponse()
    body = r.read().decode("utf-8", "replace")
    conn.close()
    return r.status, body


def expect_4xx(port, target, words, **kw):
    status, body = request(port, target, **kw)
    if not 400 <= status < 500:
        fail("%s %s: expected a 4xx, got %d: %s" % (kw.get("method", "GET"), target, status, body[:200]))
    elif words and words not in body:
        fail("%s: expected %r in the answer, got %s" % (target, words, body[:300]))
    return status, body


def wait_for_search(port, job, seconds=120):
    """Polls /api/search/status until search `job` has ended; its last status, or None."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status, body = request(port, "/api/search/status")
        doc = json.loads(body)
        if status != 200 or doc["id"] != job:
            return None
        if not doc["running"]:
            return doc
        time.sleep(0.1)
    return None


def main():
    preemptcheck = sys.argv[1]
    proc, port = start(preemptcheck)
    try:
        status, body = request(port, "/")
        if status != 200 or "<html" not in body:
            fail("the page: %d" % status)
        status, body = request(port, "/api/state")
        doc = json.loads(body)
        enabled = [s["text"] for s in doc["enabled"]]
        if status != 200 or not enabled:
            fail("the initial state: %d, enabled %r" % (status, enabled))
        # Every step the initial state enables is accepted; one that is not enabled there is
        # refused with replay's words (why, and what is enabled).
        for step in enabled:
            status, _ = request(port, "/api/state?path=" + step.replace(" ", "%20"))
            if status != 200:
                fail("enabled step %r refused: %d" % (step, status))
        disabled = doc["disabled"][0]["text"]
        _, body = expect_4xx(port, "/api/state?path=" + disabled.replace(" ", "%20"),
                             "is not enabled")
        if "why" not in json.loads(body) or not json.loads(body)["enabled"]:
            fail("a step that is not enabled: no why or enabled steps in %s" % body)
        hostile = [
            ("/api/state?path=frobnicate", "step 1 'frobnicate'"),
            ("/api/state?path=schedule%20nobody", "unknown pod 'nobody'"),
            ("/api/state?path=schedule", "bad path"),
            ("/api/state?path=,,,", "bad path"),
            ("/api/state?path=%ff%fe%00", "bad path"),
            ("/api/state?path=%ZZ%", "bad path"),
            ("/api/state?path=" + enabled[0].replace(" ", "%20") + ",evict%20v1%20p-high", ""),
            ("/api/state?path=" + ",".join(["observe"] * 3000), ""),
            ("/../../etc/passwd", "no page"),
            ("/api/nothing", "no page"),
            ("/index.html", "no page"),
            ("/api/shortest?property=no-such-property", "unknown safety property"),
            ("/api/shortest?path=frob&property=no-double-victim", ""),
            ("/api/shortest", "unknown safety property"),
            ("/counterexample.yaml", "breaks no property"),
            ("/counterexample.yaml?property=nope&path=frob", ""),
            ("/counterexample.yaml?property=no-double-victim", "does not break"),
            ("/" + "a" * 20000, ""),
            ("/api/walk?seed=x", "seed expects a whole number"),
            ("/api/walk?seed=-1", "seed expects a whole number"),
            ("/api/walk?seed=1&depth=10001", "depth expects a whole number"),
            ("/api/walk?path=frob", "bad path"),
            ("/swimlanes.html", "breaks no property"),
            ("/swimlanes.html?path=frob", "bad path"),
        ]
        # A random walk is its seed's: the same seed and path give the same walk, every step
        # of it enabled (the page loads it), ending where a property breaks, no step is
        # enabled, or at its depth.
        walks = [request(port, "/api/walk?seed=%d&depth=40" % seed) for seed in (7, 7, 8)]
        if any(status != 200 for status, _ in walks) or walks[0][1] != walks[1][1]:
            fail("a walk is not its seed's: %r" % [w[1][:200] for w in walks])
        for _, body in walks:
            walked = json.loads(body)
            status, _ = request(port, "/api/state?path=" + walked["path"].replace(" ", "%20"))
            if status != 200 or walked["steps"] > 40 or not walked["stopped"]:
                fail("a walk's path %r: %d, %r" % (walked["path"][:100], status, walked))
        for target, words in hostile:
            expect_4xx(port, target, words)
        for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "BREW"]:
            expect_4xx(port, "/", "", method=method)
        for host in ["evil.example:%d" % port, "127.0.0.1:%d" % (port + 1), "127.0.0.1",
                     "localhost", "[::1]:%d" % port, ""]:
            status, body = expect_4xx(port, "/", "", host=host)
            if host and status not in (403, 421):
                fail("Host %r: expected 403 or 421, got %d" % (host, status))
        status, _ = request(port, "/", host="localhost:%d" % port)
        if status != 200:
            fail("Host localhost:PORT refused: %d" % status)
        # Bytes that are not HTTP, and a connection closed in the middle of a request.
        for raw in [b"\x00\x01\x02garbage\r\n\r\n", b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % port,
                    b"GET /" + b"x" * 100000 + b" HTTP/1.1\r\n\r\n"]:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
                try:
                    s.sendall(raw)
                    s.shutdown(socket.SHUT_WR)
                    s.recv(4096)
                except OSError:
                    pass
        # A bounded flood: 16 threads, 40 requests each, mixed good and bad.
        statuses = {}
        lock = threading.Lock()

        def flood(i):
            targets = ["/", "/api/state", "/api/state?path=frob", "/nowhere",
                       "/api/state?path=" + enabled[0].replace(" ", "%20")]
            for j in range(40):
                try:
                    st, _ = request(port, targets[(i + j) % len(targets)], timeout=60)
                except OSError as e:
                    st = "error " + type(e).__name__
                with lock:
                    statuses[st] = statuses.get(st, 0) + 1

        threads = [threading.Thread(target=flood, args=(i,)) for i in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if any(isinstance(k, int) and k >= 500 for k in statuses):
            fail("the flood got a 5xx: %r" % statuses)
        if statuses.get(200, 0) < 16 * 40 * 3 // 5 - 16:
            fail("the flood got too few answers: %r" % statuses)
        if proc.poll() is not None:
            fail("the server ended during the test (exit %r)" % proc.returncode)
        status, body = request(port, "/")
        if status != 200 or "<html" not in body:
            fail("the page after the flood: %d" % status)
        # A second server on the same port is refused with exit 2.
        taken = subprocess.run([preemptcheck, "explore", "--port", str(port)],
                               capture_output=True, text=True, timeout=30)
        if taken.returncode != 2 or "cannot listen on 127.0.0.1:%d" % port not in taken.stderr:
            fail("a taken port: exit %d, %r" % (taken.returncode, taken.stderr))
        bad = subprocess.run([preemptcheck, "explore", "--port", "70000"],
                             capture_output=True, text=True, timeout=30)
        if bad.returncode != 2 or "--port expects" not in bad.stderr:
            fail("--port 70000: exit %d, %r" % (bad.returncode, bad.stderr))
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            fail("SIGINT did not stop the server")
    if proc.returncode != 0 or "stopped     SIGINT" not in out:
        fail("SIGINT: exit %r, stdout %r, stderr %r" % (proc.returncode, out, err))
    # The swimlane page of a path that breaks a property, as replay --html draws its file.
    proc, port = start(preemptcheck, "--inflight=off")
    try:
        broken = "schedule%20p-high,observe,flush,schedule%20p-high"
        status, body = request(port, "/swimlanes.html?path=" + broken)
        if status != 200 or "<html" not in body or "no-double-victim" not in body:
            fail("the swimlane page of a broken path: %d %s" % (status, body[:200]))
        expect_4xx(port, "/swimlanes.html?path=" + broken.rsplit(",", 1)[0], "breaks no property")
        # The background search finds the 4-step violation, as /api/shortest does.
        expect_4xx(port, "/api/search/status", "no search was started")
        status, body = request(port, "/api/search/start?property=no-double-victim")
        done = wait_for_search(port, json.loads(body)["id"]) if status == 200 else None
        if not done or not done["result"]["found"] or \
                done["result"]["path"] != "schedule p-high,observe,flush,schedule p-high":
            fail("the background search: %d %s, then %r" % (status, body, done))
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)
    # On a space of millions of states: its progress, one search at a time, a cancel that
    # stops it ("interrupted"), and a server that stops on SIGINT with a search under way.
    three_nodes = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench",
                               "three-nodes.yaml")
    proc, port = start(preemptcheck, three_nodes, "--max-states", "100000000")
    try:
        status, body = request(port, "/api/search/start?property=no-double-victim")
        job = json.loads(body).get("id")
        progress = None
        for _ in range(100):
            time.sleep(0.1)
            progress = json.loads(request(port, "/api/search/status")[1])
            if progress["states"] > 0:
                break
        if status != 200 or not progress["running"] or progress["states"] == 0:
            fail("a long background search shows no progress: %s, %r" % (body, progress))
        for busy in ["/api/search/start?property=no-double-victim",
                     "/api/shortest?property=no-double-victim"]:
            status, body = request(port, busy)
            if status != 503 or "another search" not in body:
                fail("%s beside a search: %d %s" % (busy, status, body))
        request(port, "/api/search/cancel")
        done = wait_for_search(port, job)
        if not done or done["result"]["limit"] != "interrupted" or done["result"]["found"]:
            fail("a cancelled search: %r" % done)
        status, _ = request(port, "/api/search/start?property=no-double-victim")
        if status != 200:
            fail("a search after a cancelled one: %d" % status)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            out, _ = proc.communicate(timeout=30)
            if proc.returncode != 0 or "stopped     SIGINT" not in out:
                fail("SIGINT with a search under way: exit %r, %r" % (proc.returncode, out))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            fail("SIGINT did not stop a server with a search under way")
    if FAILURES:
        print("%d failures" % len(FAILURES))
        return 1
    print("ok: every hostile request answered with a 4xx, the flood %r, the page answered "
          "afterwards, SIGINT stopped it with exit 0" % statuses)
    return 0


if __name__ == "__main__":
    sys.exit(main())
