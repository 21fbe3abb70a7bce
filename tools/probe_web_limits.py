"""Floods against a real ``plies web`` on loopback, with the server's memory before and after: a 10 MiB header,
100,000 headers, N requests that trickle in one header line at a time, and a WebSocket client that sends 5,000
illegal moves without reading.  Each part prints what the server answered; the limits are in docs/web.md.

    .venv/bin/python tools/probe_web_limits.py --slow 1000 --flood 5000

Exits 1 when a flood was answered 200, a trickling request was held past ``--hold`` seconds, the flooding socket
got no close frame, or the server did not answer an ordinary request afterwards.
"""

from __future__ import annotations

import argparse
import base64
import http.client
import json
import os
import selectors
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REQUEST = b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def start(db: Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "plies", "web", "--no-browser", "--port", str(port), "--db",
                             str(db), "--processes", "0", "--workers", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if ordinary(port) == 200:
            return proc
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("plies web did not start")


def ordinary(port: int) -> int | None:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/api/info")
        code = conn.getresponse().status
        conn.close()
        return code
    except OSError:
        return None


def answer_to(port: int, data: bytes) -> str:
    """The status line the server answers ``data`` with, or what happened instead."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        try:
            for i in range(0, len(data), 65536):
                s.sendall(data[i:i + 65536])
        except OSError:
            pass
        try:
            head = s.recv(200)
        except OSError as e:
            return f"connection {type(e).__name__}"
    return head.split(b"\r\n")[0].decode("latin-1") if head else "connection closed"


def slow(port: int, count: int, hold: float) -> tuple[int, int, float]:
    """``count`` requests that send one header line each 0.5 s: (closed by the server, of those closed in the
    first second, seconds until the last was closed)."""
    socks = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(REQUEST)
        s.setblocking(False)
        socks.append(s)
    sel = selectors.DefaultSelector()
    for s in socks:
        sel.register(s, selectors.EVENT_READ)
    t0 = time.monotonic()
    early = 0
    open_ = set(socks)
    last_trickle = 0.0
    while open_ and time.monotonic() - t0 < hold:
        if time.monotonic() - last_trickle >= 0.5:
            last_trickle = time.monotonic()
            for s in list(open_):
                try:
                    s.send(b"X-Slow: 1\r\n")
                except OSError:
                    open_.discard(s)
        for key, _ in sel.select(timeout=0.1):
            s = key.fileobj
            try:
                gone = s.recv(4096) == b""  # type: ignore[union-attr]
            except BlockingIOError:
                gone = False
            except OSError:
                gone = True
            if gone and s in open_:
                open_.discard(s)  # type: ignore[arg-type]
                sel.unregister(s)
                early += time.monotonic() - t0 < 1.0
    took = time.monotonic() - t0
    closed = count - len(open_)
    for s in socks:
        s.close()
    return closed, early, took


def frame(text: str) -> bytes:
    """A masked WebSocket text frame (as a client sends)."""
    data = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81])
    n = len(data)
    head += bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack("!H", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def frames(data: bytes) -> list[tuple[int, bytes]]:
    """The server's frames in ``data``: (opcode, payload), as far as they are complete."""
    out = []
    i = 0
    while i + 2 <= len(data):
        op, n = data[i] & 0x0F, data[i + 1] & 0x7F
        i += 2
        if n == 126:
            n = struct.unpack("!H", data[i:i + 2])[0]
            i += 2
        elif n == 127:
            n = struct.unpack("!Q", data[i:i + 8])[0]
            i += 8
        if i + n > len(data):
            break
        out.append((op, data[i:i + n]))
        i += n
    return out


def ws_flood(port: int, count: int) -> tuple[int, int | None, str]:
    """A game, then ``count`` illegal moves on its WebSocket without reading: (messages the server sent before
    closing, the close code, its reason)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", "/api/games/new", body=json.dumps({"players": [{"kind": "human"}] * 2}),
                 headers={"Content-Type": "application/json"})
    game = json.loads(conn.getresponse().read())
    conn.close()
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a client that does not read: its window fills
    s.settimeout(30)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws/games/{game['game']['id']} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
               f"X-Plies-Token: {game['token']}\r\n\r\n").encode())
    handshake = b""
    while b"\r\n\r\n" not in handshake:  # a client sends frames once the server has switched protocols
        chunk = s.recv(1)
        if not chunk:
            return 0, None, "no handshake"
        handshake += chunk
    move = frame(json.dumps({"type": "move", "move": "a1"}))
    try:
        for _ in range(count):
            s.sendall(move)
    except OSError:
        pass  # the server closed it part-way
    data = b""
    s.settimeout(20)
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    s.close()
    got = frames(data)
    close = next((payload for op, payload in got if op == 8), None)
    code = struct.unpack("!H", close[:2])[0] if close and len(close) >= 2 else None
    reason = close[2:].decode("utf-8", "replace") if close else ""
    return sum(1 for op, _ in got if op == 1), code, reason


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--slow", type=int, default=1000, help="requests that trickle in (default 1000)")
    ap.add_argument("--hold", type=float, default=60.0, help="longest time to keep trickling (s, default 60)")
    ap.add_argument("--flood", type=int, default=5000, help="illegal moves on one WebSocket (default 5000)")
    args = ap.parse_args(argv)
    bad = []
    with tempfile.TemporaryDirectory(prefix="plies-limits-") as tmp:
        port = free_port()
        proc = start(Path(tmp) / "web.sqlite", port)
        try:
            before = rss_mb(proc.pid)
            big = answer_to(port, REQUEST + b"X-Big: " + b"a" * (10 * 1024 * 1024) + b"\r\n\r\n")
            many = answer_to(port, REQUEST + b"".join(b"X-%d: 1\r\n" % i for i in range(100_000)) + b"\r\n")
            print(f"10 MiB header: {big}\n100,000 headers: {many}")
            bad += [what for what, got in (("10 MiB header", big), ("100,000 headers", many)) if " 200 " in got]
            if args.slow:
                closed, early, took = slow(port, args.slow, args.hold)
                print(f"{args.slow} requests trickling in: {closed} closed by the server within {took:.1f} s "
                      f"({early} at once: more connections than one address may hold)")
                if closed < args.slow:
                    bad.append(f"{args.slow - closed} trickling requests held for {args.hold:g} s")
            if args.flood:
                sent, code, reason = ws_flood(port, args.flood)
                print(f"WebSocket flood of {args.flood} illegal moves, not read: {sent} answers, then "
                      + (f"close frame {code} ({reason})" if code is not None else "no close frame"))
                if code is None:
                    bad.append("no close frame for the flooding WebSocket")
            after_code = ordinary(port)
            after = rss_mb(proc.pid)
            print(f"afterwards an ordinary request: {after_code}; server memory {before:.1f} MB before, "
                  f"{after:.1f} MB after")
            if after_code != 200:
                bad.append("the server did not answer afterwards")
        finally:
            proc.kill()
            _, err = proc.communicate(timeout=30)
        tracebacks = err.decode("utf-8", "replace").count("Traceback")
        print(f"tracebacks in the server's log: {tracebacks}")
        if tracebacks:
            bad.append("tracebacks in the log")
    for b in bad:
        print(f"PROBLEM: {b}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
