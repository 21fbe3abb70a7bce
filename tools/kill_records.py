"""``kill -9`` at random moments, then the records are checked: nothing that happened is lost or doubled.

HexThello (``--hexthello N``): a ``plies hexthello server`` child plays matches between two agents on 127.0.0.1;
it is killed N times at a random move and started again on the same database.  Checked: every move an agent saw
forwarded (105) is stored; no game is left "playing" (a killed server's game is marked interrupted when the
next one starts); match numbers go on across restarts; every game's stored moves replay legally.

Matches (``--matches N``): ``plies match`` (and ``plies tournament``) with worker processes are killed N times
after some games and resumed with ``--resume``.  Checked: the plan's games are all stored exactly once, games
stored before a kill are unchanged, and no worker process outlives a killed parent.

    .venv/bin/python tools/kill_records.py --hexthello 8 --matches 13 --seed 1

The test suite runs a short version (tests/hexthello/test_hex_tools.py, tests/match/test_match_tools.py).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fuzz_hexthello import TIMEOUT, Agent, free_port, start_server  # noqa: E402

from plies.games.hexthello import HexThelloState  # noqa: E402
from plies.net.hexthello import protocol as P  # noqa: E402
from plies.net.hexthello.store import Store  # noqa: E402


class Recording(Agent):
    """A good agent that remembers the moves forwarded to it (105), game by game."""

    def __init__(self, port: int, rng: random.Random) -> None:
        super().__init__(port, rng)
        self.forwarded: list[list[tuple[int, int]]] = []
        self.sent_moves: list[list[tuple[int, int]]] = []

    def run(self) -> None:
        try:
            while True:
                m = self.read(1)[0]
                if m in (P.COLOR_W, P.COLOR_B):
                    self.me = 1 if m == P.COLOR_W else 0
                elif m == P.REQUEST_NAME:
                    self.send(P.encode_name(f"k{self.rng.randrange(1000)}"))
                elif m == P.NEW_POSITION:
                    pos = self.read(P.POSITION_BYTES)
                    self.state = HexThelloState.from_array(pos[:225], pos[227])
                    self.forwarded.append([])
                    self.sent_moves.append([])
                elif m == P.PREPARE_TO_RECEIVE_MOVE:
                    row, col = P.decode_move(self.read(2))
                    self.forwarded[-1].append((row, col))
                    self.state = self.state.with_side(1 - self.me).play(P.move_from_rowcol(row, col))
                elif m == P.REQUEST_MOVE:
                    data = self.legal()
                    self.sent_moves[-1].append(P.decode_move(data))
                    self.send(data)
                    time.sleep(0.002)
                elif m == P.QUIT:
                    return
        except (ConnectionError, OSError):
            return


def hexthello(kills: int = 8, seed: int = 1, folder: Path | None = None) -> dict[str, Any]:
    rng = random.Random(seed)
    tmp = tempfile.TemporaryDirectory(prefix="plies-kill-") if folder is None else None
    base = Path(tmp.name) if tmp is not None else folder
    assert base is not None
    db = str(base / "hex.sqlite")
    problems: list[str] = []
    agents: list[list[Recording]] = []
    for round_no in range(kills + 1):
        port = free_port()
        proc = start_server(port, db, ["-g", "3", "-s", "--move-time", "10"])
        pair = [Recording(port, random.Random(rng.random()))]
        time.sleep(0.05)
        pair.append(Recording(port, random.Random(rng.random())))
        threads = [threading.Thread(target=a.run, daemon=True) for a in pair]
        for t in threads:
            t.start()
        if round_no < kills:  # kill at a random move of the match
            target = rng.randint(3, 120)
            end = time.monotonic() + TIMEOUT * 2
            while time.monotonic() < end and sum(len(g) for a in pair for g in a.forwarded) < target \
                    and any(t.is_alive() for t in threads):
                time.sleep(0.002)
            proc.send_signal(signal.SIGKILL)
            proc.wait(TIMEOUT)
        else:  # the last round plays its match to the end; its start marked the killed game interrupted
            for t in threads:
                t.join(TIMEOUT * 3)
            proc.terminate()
            proc.wait(TIMEOUT)
        for a in pair:
            a.close()
        for t in threads:
            t.join(TIMEOUT)
        agents.append(pair)
    store = Store(db)
    try:
        rows = store.games()
    finally:
        store.close()
    stored_moves = [[(m["row"], m["col"]) for m in r["moves"]] for r in rows]
    forwarded = 0
    by_match: dict[int, list[list[tuple[int, int]]]] = {}
    for r, moves in zip(rows, stored_moves, strict=True):
        by_match.setdefault(r["match"], []).append(moves)
    for round_no, pair in enumerate(agents):  # round k played match k + 1: each move seen is stored, in order
        games = by_match.get(round_no + 1, [])
        for a in pair:
            for g, seen in enumerate(a.forwarded):
                forwarded += len(seen)
                if seen and (g >= len(games) or not _in_order(seen, games[g])):
                    problems.append(f"match {round_no + 1} game {g + 1}: a forwarded move is not stored")
    matches = [r["match"] for r in rows]
    if matches != sorted(matches) or len(set(matches)) != kills + 1:
        problems.append(f"match numbers do not go on across restarts: {sorted(set(matches))}")
    for r in rows:
        if r["status"] == "playing":
            problems.append(f"game {r['id']} left playing")
        s = HexThelloState.start()
        for m in r["moves"]:
            try:
                s = s.play(P.move_from_rowcol(m["row"], m["col"]))
            except Exception:
                problems.append(f"game {r['id']}: stored moves do not replay")
                break
    interrupted = sum(r["status"] == "interrupted" for r in rows)
    if tmp is not None:
        tmp.cleanup()
    return {"kills": kills, "games": len(rows), "interrupted": interrupted, "moves_forwarded": forwarded,
            "moves_stored": sum(len(g) for g in stored_moves), "records_checked": len(rows), "problems": problems}


def _in_order(part: list[tuple[int, int]], whole: list[tuple[int, int]]) -> bool:
    it = iter(whole)
    return all(any(x == y for y in it) for x in part)


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc; none where there is no /proc)."""
    out = []
    if not os.path.isdir("/proc"):
        return out
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(d))
    return out


def alive(pid: int) -> bool:
    """``pid`` runs (exists and is not a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def outliving(proc: subprocess.Popen[Any], kids: list[int], sig: int = signal.SIGKILL, wait: float = 30) -> list[int]:
    """Send ``sig`` to ``proc``, then wait up to ``wait`` seconds for its ``kids`` to end: those still running."""
    proc.send_signal(sig)
    proc.wait(wait)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and any(alive(k) for k in kids):
        time.sleep(0.1)
    return [k for k in kids if alive(k)]


def _count(db: Path) -> int:
    try:
        with sqlite3.connect(db) as c:
            return int(c.execute("select count(*) from games").fetchone()[0])
    except sqlite3.Error:
        return 0


def matches(kills: int = 13, seed: int = 1, folder: Path | None = None, games: int = 40) -> dict[str, Any]:
    """Kill -9 ``plies match``/``tournament`` runs with two workers ``kills`` times, resuming each time."""
    rng = random.Random(seed)
    tmp = tempfile.TemporaryDirectory(prefix="plies-killm-") if folder is None else None
    base = Path(tmp.name) if tmp is not None else folder
    assert base is not None
    problems: list[str] = []
    orphans = 0
    runs = 0
    checked = 0
    events = [("match", base / "m.sqlite"), ("tournament", base / "t.sqlite")]
    toml = base / "t.toml"
    toml.write_text(f'name = "kill"\nplayers = ["random", "greedy", "alphabeta:depth=1"]\ngames_per_pair = '
                    f'{max(2, games // 6 * 2)}\nrandom_openings = 2\nseed = {seed}\n')
    for k in range(kills):
        kind, db = events[k % 2]
        if kind == "match":
            args = ["match", "alphabeta:depth=2", "random", "--games", str(games), "--random-openings", "2",
                    "--seed", str(seed)]
        else:
            args = ["tournament", "run", str(toml)]
        args += ["--db", str(db), "--workers", "2", "--no-progress"] + (["--resume"] if db.exists() else [])
        before = _count(db)
        proc = subprocess.Popen([sys.executable, "-m", "plies", *args], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        runs += 1
        wait_for = before + rng.randint(1, 4)
        end = time.monotonic() + TIMEOUT * 6
        while time.monotonic() < end and proc.poll() is None and _count(db) < wait_for:
            time.sleep(0.02)
        kids = children(proc.pid)
        snapshot = _finished_at(db)
        proc.send_signal(signal.SIGKILL)
        proc.wait(TIMEOUT)
        end = time.monotonic() + TIMEOUT
        while time.monotonic() < end and any(alive(c) for c in kids):
            time.sleep(0.05)
        left = [c for c in kids if alive(c)]
        orphans += len(left)
        for c in left:
            os.kill(c, signal.SIGKILL)
        after = _finished_at(db)
        if any(after.get(i) != t for i, t in snapshot.items()):
            problems.append(f"{kind}: a game stored before the kill changed")
    for kind, db in events:  # finish both
        args = ["match", "alphabeta:depth=2", "random", "--games", str(games), "--random-openings", "2", "--seed",
                str(seed)] if kind == "match" else ["tournament", "run", str(toml)]
        done = subprocess.run([sys.executable, "-m", "plies", *args, "--db", str(db), "--resume", "--no-progress",
                               "--workers", "2"], capture_output=True, timeout=600)
        runs += 1
        if done.returncode != 0:
            problems.append(f"{kind}: the last --resume failed: {done.stderr.decode()[-300:]}")
        with sqlite3.connect(db) as c:
            planned = c.execute("select planned from events").fetchall()
            idx = [r[0] for r in c.execute("select idx from games order by idx")]
        if len(planned) != 1 or idx != list(range(planned[0][0])):
            problems.append(f"{kind}: stored games {len(idx)} of {planned}, duplicates or gaps")
        checked += len(idx)
    if orphans:
        problems.append(f"{orphans} worker process(es) outlived a killed parent")
    if tmp is not None:
        tmp.cleanup()
    return {"kills": kills, "runs": runs, "records_checked": checked, "orphans": orphans, "problems": problems}


def _finished_at(db: Path) -> dict[tuple[int, int], str]:
    try:
        with sqlite3.connect(db) as c:
            return {(e, i): t for e, i, t in c.execute("select event_id, idx, finished_at from games")}
    except sqlite3.Error:
        return {}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hexthello", type=int, default=8, help="kills of the HexThello server")
    ap.add_argument("--matches", type=int, default=13, help="kills of plies match / tournament")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    report = {"hexthello": hexthello(a.hexthello, a.seed) if a.hexthello else None,
              "matches": matches(a.matches, a.seed) if a.matches else None}
    print(json.dumps(report))
    return 1 if any(r and r["problems"] for r in report.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
