"""Fuzzing a HexThello server over loopback: many connections send malformed messages (and some play well),
then the records are checked and the server must still play a clean match.

A ``plies hexthello server`` runs as a child process on 127.0.0.1 with its own database.  Each fuzz connection
picks a behaviour: garbage bytes at once, a name length of 128-255 (negative for the course's server), names
that are rich markup or not UTF-8, a name cut short, silence, a good name then moves that are off the board,
occupied, passes while a move exists, half a move, or a disconnect in the middle of a game.  Good agents play
legal moves meanwhile.  Afterwards: every stored game is finished or interrupted (none left "playing"), every
game's moves replay legally up to its last one (which may be the illegal move that lost), and two agents play
a whole match.  The server's memory (VmRSS) is read before and after.

    .venv/bin/python tools/fuzz_hexthello.py --connections 600 --seed 1

The test suite runs a short version (tests/hexthello/test_hex_tools.py).  Everything stays on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from plies.game import PASS
from plies.games.hexthello import HexThelloState
from plies.net.hexthello import protocol as P
from plies.net.hexthello.store import Store

TIMEOUT = 20.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kb(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def start_server(port: int, db: str, extra: list[str] | None = None) -> subprocess.Popen[bytes]:
    args = [sys.executable, "-m", "plies", "hexthello", "server", "-p", str(port), "--db", db, "--matches", "0",
            "-q", *(extra or [])]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + TIMEOUT * 3
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError("the server did not start") from None
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the server did not start")


class Agent:
    """A C-style agent that can misbehave."""

    def __init__(self, port: int, rng: random.Random, timeout: float = TIMEOUT) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.rng = rng
        self.state = HexThelloState.start()
        self.me = 0
        self.sent = 0  # messages sent (names, moves, garbage bursts)

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)
        self.sent += 1

    def read(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return data

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    def legal(self) -> bytes:
        s = self.state.with_side(self.me)
        moves = s.legal_moves()
        move = self.rng.choice(moves) if moves else PASS
        self.state = s.play(move) if moves else s
        return P.encode_move(move)

    def bad_move(self) -> bytes:
        kind = self.rng.randrange(5)
        if kind == 0:
            return bytes([self.rng.randrange(256), self.rng.randrange(256)])  # anything, often off the board
        if kind == 1:
            return bytes([7, 7])  # occupied at the start
        if kind == 2:
            return b"\xce\x00"  # a pass while a move exists
        if kind == 3:
            return bytes([self.rng.randrange(15)])  # half a move, then silence
        return bytes([0, 0])  # off the hexagon

    def play(self, behaviour: str, max_messages: int = 400) -> None:
        """Follow the server until 107 or the end, answering as ``behaviour`` says."""
        requests = 0
        bad_at = self.rng.randint(1, 30)
        while True:
            m = self.read(1)[0]
            if m in (P.COLOR_W, P.COLOR_B):
                self.me = 1 if m == P.COLOR_W else 0
            elif m == P.REQUEST_NAME:
                self.name(behaviour)
                if behaviour in ("silent-name", "half-name"):
                    return
            elif m == P.NEW_POSITION:
                pos = self.read(P.POSITION_BYTES)
                self.state = HexThelloState.from_array(pos[:225], pos[227])
            elif m == P.PREPARE_TO_RECEIVE_MOVE:
                row, col = P.decode_move(self.read(2))
                s = self.state.with_side(1 - self.me)
                try:
                    self.state = s.play(P.move_from_rowcol(row, col))
                except Exception:
                    pass
            elif m == P.REQUEST_MOVE:
                requests += 1
                if behaviour == "bad-moves" and requests == bad_at:
                    self.send(self.bad_move())
                elif behaviour == "vanish" and requests == bad_at:
                    return
                else:
                    self.send(self.legal())
            elif m == P.QUIT:
                return
            if self.sent > max_messages:
                return

    def name(self, behaviour: str) -> None:
        rng = self.rng
        if behaviour == "silent-name":
            return
        if behaviour == "negative-length":
            self.send(bytes([rng.randint(128, 255)]) + os.urandom(rng.randint(0, 40)))
        elif behaviour == "half-name":
            self.send(bytes([8]) + b"abc")
        elif behaviour == "markup-name":
            self.send(P.encode_name(rng.choice(["[/]", "[/b]", "[bold]x", "[link=a]", "\\[", "]["])))
        elif behaviour == "binary-name":
            raw = os.urandom(rng.randint(1, 8))
            self.send(bytes([len(raw)]) + raw)
        else:
            self.send(P.encode_name(f"a{rng.randrange(10**6)}"))


BEHAVIOURS = ["garbage", "negative-length", "half-name", "markup-name", "binary-name", "silent-name", "bad-moves",
              "vanish", "good"]


def run(connections: int = 600, seed: int = 1, folder: Path | None = None, workers: int = 16) -> dict[str, Any]:
    """Fuzz a fresh server with ``connections`` connections; return the figures and the problems found."""
    rng = random.Random(seed)
    tmp = tempfile.TemporaryDirectory(prefix="plies-hexfuzz-") if folder is None else None
    base = Path(tmp.name) if tmp is not None else folder
    assert base is not None
    db = str(base / "fuzz.sqlite")
    port = free_port()
    proc = start_server(port, db, ["--move-time", "2", "--name-time", "1", "--parallel", "16"])
    messages = 0
    problems: list[str] = []
    lock = threading.Lock()
    t0 = time.perf_counter()
    try:
        time.sleep(0.5)
        before = rss_kb(proc.pid)
        jobs = [(BEHAVIOURS[k % len(BEHAVIOURS)], rng.randrange(2**32)) for k in range(connections)]
        rng.shuffle(jobs)

        def one(behaviour: str, s: int) -> None:
            nonlocal messages
            r = random.Random(s)
            try:  # a fuzz agent left alone in the lobby gives up after 3 s (every game step comes within 2 s)
                agent = Agent(port, r, timeout=3.0)
            except OSError as e:
                with lock:
                    problems.append(f"connection refused: {e}")
                return
            try:
                if behaviour == "garbage":
                    for _ in range(r.randint(1, 40)):
                        agent.send(os.urandom(r.randint(1, 300)))
                else:
                    agent.play(behaviour)
            except (ConnectionError, OSError):
                pass
            finally:
                agent.close()
                with lock:
                    messages += agent.sent

        pending = list(jobs)
        threads: list[threading.Thread] = []
        while pending or threads:
            while pending and len(threads) < workers:
                behaviour, s = pending.pop()
                t = threading.Thread(target=one, args=(behaviour, s), daemon=True)
                t.start()
                threads.append(t)
            for t in list(threads):
                t.join(0.01)
                if not t.is_alive():
                    threads.remove(t)
        # the server still plays a clean match
        good: list[Agent] = []
        results: list[str] = []
        for k in range(2):
            a = Agent(port, random.Random(seed + k))
            good.append(a)
            time.sleep(0.05)
        ts = [threading.Thread(target=lambda a=a: results.append(_quietly(a.play, "good"))) for a in good]
        for t in ts:
            t.start()
        for t in ts:
            t.join(TIMEOUT * 3)
        for a in good:
            messages += a.sent
            a.close()
        if proc.poll() is not None:
            problems.append(f"the server exited with {proc.returncode}")
        time.sleep(0.5)
        after = rss_kb(proc.pid)
    finally:
        proc.terminate()
        try:
            proc.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
    store = Store(db)
    try:
        rows = store.games()
    finally:
        store.close()
    checked = 0
    for r in rows:
        if r["status"] == "playing":
            problems.append(f"game {r['id']} left playing")
        s = HexThelloState.start()
        for k, m in enumerate(r["moves"]):
            try:
                s = s.play(P.move_from_rowcol(m["row"], m["col"]))
            except Exception:
                if k != len(r["moves"]) - 1 or "illegal" not in r["reason"]:
                    problems.append(f"game {r['id']} move {k + 1} does not replay ({r['reason']})")
                break
        checked += 1
    last = rows[-1] if rows else None
    if not last or last["status"] != "finished" or last["reason"] != "normal":
        problems.append(f"the final clean match did not end normally: {last and last['reason']}")
    if tmp is not None:
        tmp.cleanup()
    return {"connections": connections + 2, "messages": messages, "games": len(rows), "records_checked": checked,
            "rss_kb_before": before, "rss_kb_after": after, "seconds": round(time.perf_counter() - t0, 1),
            "problems": problems}


def _quietly(fn: Any, *args: Any) -> str:
    try:
        fn(*args)
        return "ok"
    except (ConnectionError, OSError) as e:
        return str(e)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--connections", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    report = run(a.connections, a.seed)
    print(json.dumps(report))
    return 1 if report["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
