"""``kill -9`` of ``plies web`` just after it told a player a game had finished: is every such game in History?

Each round starts ``plies web`` on a new port (the same database every round), plays ``--games`` / ``--rounds``
tic-tac-toe games between two people at once over the REST API (one thread and one keep-alive connection a game,
each with its own pace, so the moves interleave), and after the answer that finishes the k-th of them (k drawn at
random) waits a random 0..``--max-delay`` seconds (most often a few milliseconds, while a store still under
way would be lost) and kills the server with SIGKILL, while the other games are
still being played.
Every game whose finishing answer (``over`` true, and not ``saved`` false) reached its player before the kill
must then be in the database; the games of all rounds are counted together.

    .venv/bin/python tools/kill_web.py --games 200 --rounds 20 --seed 1

Prints one line a round and a summary; exits 1 when a game that a player was told had finished is missing.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

MOVES = ["b2", "a1", "a2", "c2", "b1", "c1", "b3"]
START_TIMEOUT = 120.0
LOCK = threading.Lock()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(db: Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "plies", "web", "--no-browser", "--port", str(port), "--db",
                             str(db), "--processes", "0", "--workers", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"plies web exited with status {proc.returncode} at start-up")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/api/info")
            if conn.getresponse().status == 200:
                conn.close()
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("plies web did not answer within its start-up time")


class Game(threading.Thread):
    """One tic-tac-toe game between two people, over its own keep-alive connection."""

    ended = 0  # games of this round whose last answer came

    def __init__(self, port: int, told: list[str], finished: threading.Event, kill_after: int,
                 rng: random.Random) -> None:
        super().__init__(daemon=True)
        self.port, self.told, self.finished, self.kill_after = port, told, finished, kill_after
        self.pause = rng.uniform(0.0, 0.06)  # between moves: the games end at different moments
        self.error = ""

    def call(self, conn: http.client.HTTPConnection, path: str, body: dict[str, Any], token: str = ""
             ) -> dict[str, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["X-Plies-Token"] = token
        conn.request("POST", path, body=json.dumps(body), headers=headers)
        r = conn.getresponse()
        data = json.loads(r.read())
        if r.status != 200:
            raise RuntimeError(f"{path}: {r.status} {data}")
        return dict(data)

    def run(self) -> None:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            new = self.call(conn, "/api/games/new", {"game": "tictactoe", "players": [{"kind": "human"}] * 2})
            gid, token = new["game"]["id"], new["token"]
            for move in MOVES:
                time.sleep(self.pause)
                view = self.call(conn, f"/api/games/{gid}/moves", {"move": move}, token)
            if not view["over"]:
                raise RuntimeError(f"game {gid} did not end: {view['moves']}")
            if view.get("saved") is not False:  # the player is told it ended (and not that it could not be saved)
                self.told.append(gid)
            with LOCK:
                Game.ended += 1
                if Game.ended >= self.kill_after:
                    self.finished.set()
        except (OSError, http.client.HTTPException, ValueError) as e:  # the server was killed meanwhile
            self.error = f"{type(e).__name__}: {e}"
        except RuntimeError as e:
            self.error = str(e)


def in_history(db: Path) -> set[str]:
    if not db.exists():
        return set()
    with sqlite3.connect(db) as conn:
        return {row[0] for row in conn.execute("SELECT id FROM games")}


def round_(db: Path, games: int, max_delay: float, rng: random.Random) -> tuple[int, int, list[str]]:
    """One round: (games told finished, of those found in the history, the missing ids)."""
    port = free_port()
    proc = start(db, port)
    told: list[str] = []
    finished = threading.Event()
    Game.ended = 0
    kill_after = rng.randint(1, games)
    threads = [Game(port, told, finished, kill_after, rng) for _ in range(games)]
    try:
        for t in threads:
            t.start()
        finished.wait(60)
        time.sleep(max_delay * rng.random() ** 4)  # from 0 to max_delay, most within milliseconds of the answer
        snapshot = list(told)  # every game told finished before the kill
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
    for t in threads:
        t.join(30)
    told_before_kill = set(snapshot) | set(told)  # an answer read during the kill was still sent before it
    stored = in_history(db)
    missing = sorted(told_before_kill - stored)
    return len(told_before_kill), len(told_before_kill) - len(missing), missing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games in all rounds together (default 200)")
    ap.add_argument("--rounds", type=int, default=20, help="kills (default 20)")
    ap.add_argument("--max-delay", type=float, default=0.2, help="longest wait after the answer (s, default 0.2)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.rounds < 1 or args.games < args.rounds:
        ap.error("give at least one round and one game a round")
    rng = random.Random(args.seed)
    per_round = args.games // args.rounds
    told = found = 0
    lost: list[str] = []
    with tempfile.TemporaryDirectory(prefix="plies-kill-web-") as tmp:
        db = Path(tmp) / "web.sqlite"
        for r in range(args.rounds):
            n, ok, missing = round_(db, per_round, args.max_delay, rng)
            told, found = told + n, found + ok
            lost += missing
            print(f"round {r + 1}: {n} game(s) told finished before the kill, {ok} in the history"
                  + (f", MISSING {', '.join(missing)}" if missing else ""), flush=True)
        total = len(in_history(db))
    print(f"{args.rounds} kill(s); {told} game(s) told finished, {found} in the history, {len(lost)} missing; "
          f"{total} game(s) stored in all")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
