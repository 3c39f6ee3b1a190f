#!/usr/bin/env python3
"""Memory and log-in figures of `ingo serve` under strangers, on loopback, bounded.

    python3 crates/server/scripts/strangers.py [PATH/TO/ingo] [--db sqlite:PATH|postgres://...]

Starts `ingo serve` on 127.0.0.1 (a fresh SQLite file by default), then measures the server
process's resident memory (VmRSS) before and after:

1. 1,000 log-ins with 1 MB names (8 at a time);
2. 60 anonymous WebSocket connections to one game, each sending one 64 MiB text message
   (streamed; the server may close the socket at any point);

and counts how many of 200 concurrent wrong passwords for one name from one address were
verified (answered 401) rather than refused by the limit (429). Prints one `name=value` line.
Only the Python standard library; everything stays on 127.0.0.1 and ends within minutes.
"""

import base64
import concurrent.futures
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def request(port, method, path, body=None, cookie=None, csrf=None, timeout=60):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Connection": "close"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if cookie:
        headers["Cookie"] = cookie
    if csrf:
        headers["X-CSRF-Token"] = csrf
    try:
        c.request(method, path, body=data, headers=headers)
        r = c.getresponse()
        text = r.read()
        return r.status, dict(r.getheaders()), text
    finally:
        c.close()


def register(port, name):
    status, headers, text = request(
        port, "POST", "/api/register", {"name": name, "password": "correct horse", "rank": "2k"}
    )
    assert status == 201, (status, text)
    cookie = headers["set-cookie"].split(";")[0]
    return cookie, json.loads(text)["csrf"]


def websocket_flood(port, game_id, size):
    """Opens the game's socket without a session and streams one text message of `size`
    bytes; answers how many bytes were sent before the server closed it."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET /api/games/{game_id}/ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            return 0
        head += chunk
    assert b" 101 " in head.split(b"\r\n")[0], head
    # One masked text frame with a 64-bit length, then its payload (mask of zeros: the bytes
    # sent are the bytes meant).
    frame = bytes([0x81, 0x80 | 127]) + size.to_bytes(8, "big") + b"\0\0\0\0"
    sent = 0
    block = b"x" * (1 << 20)
    try:
        s.sendall(frame)
        while sent < size:
            s.sendall(block[: min(len(block), size - sent)])
            sent += min(len(block), size - sent)
    except OSError:
        pass
    finally:
        s.close()
    return sent


def main():
    args = sys.argv[1:]
    binary = "target/release/ingo" if os.path.exists("target/release/ingo") else "target/debug/ingo"
    db = None
    while args:
        a = args.pop(0)
        if a == "--db":
            db = args.pop(0)
        else:
            binary = a
    tmp = tempfile.TemporaryDirectory()
    if db is None:
        db = f"sqlite:{tmp.name}/strangers.db"
    server = subprocess.Popen(
        [binary, "serve", "--db", db, "--listen", "127.0.0.1:0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = server.stdout.readline()
        port = int(re.search(r"127\.0\.0\.1:(\d+)", line).group(1))
        alice, alice_csrf = register(port, "alice")
        bob, bob_csrf = register(port, "bob")
        status, _, text = request(port, "POST", "/api/challenges", {"size": 9}, alice, alice_csrf)
        assert status == 201, text
        cid = json.loads(text)["id"]
        status, _, text = request(port, "POST", f"/api/challenges/{cid}/accept", {}, bob, bob_csrf)
        assert status == 201, text
        gid = json.loads(text)["game_id"]

        before = rss_kib(server.pid)
        name = "n" * (1 << 20)
        statuses = {}
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            for status, _, _ in pool.map(
                lambda _: request(port, "POST", "/api/login", {"name": name, "password": "guess"}),
                range(1000),
            ):
                statuses[status] = statuses.get(status, 0) + 1
        after_names = rss_kib(server.pid)

        with concurrent.futures.ThreadPoolExecutor(60) as pool:
            sent = list(pool.map(lambda _: websocket_flood(port, gid, 64 << 20), range(60)))
        after_sockets = rss_kib(server.pid)

        with concurrent.futures.ThreadPoolExecutor(200) as pool:
            guesses = list(
                pool.map(
                    lambda i: request(
                        port, "POST", "/api/login", {"name": "alice", "password": f"guess {i}"}
                    )[0],
                    range(200),
                )
            )
        print(
            f"rss_start_kib={before} rss_after_1000_long_names_kib={after_names} "
            f"long_name_statuses={json.dumps(statuses, separators=(',', ':'))} "
            f"rss_after_60_sockets_kib={after_sockets} "
            f"socket_bytes_sent_max={max(sent)} "
            f"verified_of_200={guesses.count(401)} refused_429={guesses.count(429)} "
            f"other={len(guesses) - guesses.count(401) - guesses.count(429)}"
        )
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
