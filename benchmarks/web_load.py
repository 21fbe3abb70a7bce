"""Load test of ``plies web``: many simultaneous games through the WebSocket API, move latency percentiles.

Starts ``plies web`` as a separate process on a free loopback port (so the clients do not share its GIL),
then for each level plays ``--games`` games at once: a client plays a random legal move for Black and times
how long until the computer's reply (White, at that level) arrives.  Latency = move sent -> reply received,
which includes the server's queueing under load.  Run:

    .venv/bin/python benchmarks/web_load.py                    # 50 games, levels 1-3, 10 moves each
    .venv/bin/python benchmarks/web_load.py --levels 1,2,3,4,5 --games 50 --moves 10 --think 0.5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, db: Path, workers: int, processes: int | None) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "plies", "web", "--no-browser", "--port", str(port), "--db", str(db),
           "--workers", str(workers)]
    if processes is not None:
        cmd += ["--processes", str(processes)]
    log = db.with_suffix(".log")
    with open(log, "wb") as err:  # a file, not a pipe nobody reads (a full pipe would stall the server)
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited: {log.read_text(errors='replace')[-2000:]}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/info", timeout=1).raise_for_status()
            break
        except httpx.HTTPError:
            time.sleep(0.2)
    else:
        proc.kill()
        raise SystemExit("server did not start within 60 s")
    # the server loads the engine's kernels in the background at start-up: do not measure during that
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        engine = httpx.get(f"http://127.0.0.1:{port}/api/info", timeout=5).json()["engine"]
        if engine.get("warm") or not engine.get("available"):
            return proc
        time.sleep(0.5)
    return proc


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    k = (len(xs) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


async def play_one(base: str, level: int, moves: int, think: float, seed: int, out: list[float],
                   algorithm: str) -> int:
    """One game: Black (us, random moves) against the computer at ``level``; appends reply latencies."""
    rng = random.Random(seed)
    if think:  # people do not all sit down at the same instant
        await asyncio.sleep(rng.uniform(0, 2 * think))
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        r = await http.post("/api/games", json={"players": [{"kind": "human"},
                                                            {"kind": "computer", "level": level,
                                                             "algorithm": algorithm}]})
        r.raise_for_status()
        data = r.json()
    gid, token = data["game"]["id"], data["token"]
    ws_url = base.replace("http", "ws") + f"/ws/games/{gid}"
    played = 0
    async with connect(ws_url, additional_headers={"X-Plies-Token": token}, max_size=2**22) as ws:
        game = None
        while game is None:
            msg = json.loads(await ws.recv())
            if msg["type"] == "state":
                game = msg["game"]
        while played < moves and not game["over"]:
            if game["to_move"] != 0 or game["thinking"] is not None or not game["legal"]:
                msg = json.loads(await ws.recv())
                if msg["type"] == "state":
                    game = msg["game"]
                continue
            ply = game["ply"]
            move = rng.choice(game["legal"])["move"]
            t0 = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "move": move}))
            while True:
                msg = json.loads(await ws.recv())
                if msg["type"] == "error":
                    raise RuntimeError(msg["message"])
                if msg["type"] != "state":
                    continue
                game = msg["game"]
                if game["ply"] > ply and game["thinking"] is None and (game["over"] or game["to_move"] == 0):
                    break
            if game["ply"] >= ply + 2 or game["over"]:
                out.append(time.perf_counter() - t0)
            played += 1
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))
    return played


async def run_level(base: str, level: int, games: int, moves: int, think: float, algorithm: str) -> dict[str, float]:
    latencies: list[float] = []
    t0 = time.perf_counter()
    results = await asyncio.gather(*(play_one(base, level, moves, think, 1000 * level + g, latencies, algorithm)
                                     for g in range(games)), return_exceptions=True)
    wall = time.perf_counter() - t0
    errors = [r for r in results if isinstance(r, BaseException)]
    if errors:
        print(f"  level {level}: {len(errors)} game(s) failed, first: {errors[0]!r}", file=sys.stderr)
    ms = [x * 1000 for x in latencies]
    return {
        "level": level, "replies": len(ms), "p50": percentile(ms, 0.5), "p95": percentile(ms, 0.95),
        "p99": percentile(ms, 0.99), "max": max(ms) if ms else float("nan"),
        "mean": statistics.fmean(ms) if ms else float("nan"), "wall": wall, "errors": len(errors),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50, help="simultaneous games per level")
    ap.add_argument("--levels", default="1,2,3", help="comma-separated levels")
    ap.add_argument("--moves", type=int, default=10, help="moves each client plays per game")
    ap.add_argument("--think", type=float, default=0.0,
                    help="mean seconds a client waits between its moves (0 = play at once: worst case)")
    ap.add_argument("--algorithm", default="alphabeta", choices=["alphabeta", "minimax"])
    ap.add_argument("--workers", type=int, default=4, help="search threads of the server")
    ap.add_argument("--processes", type=int, default=None,
                    help="search processes of the server (default: the server's own default; 0 = threads only)")
    ap.add_argument("--url", help="use a server already running at this URL instead of starting one")
    args = ap.parse_args()
    levels = [int(x) for x in args.levels.split(",") if x.strip()]

    proc = None
    tmp = tempfile.TemporaryDirectory()
    if args.url:
        base = args.url.rstrip("/")
    else:
        port = free_port()
        proc = start_server(port, Path(tmp.name) / "load.sqlite", args.workers, args.processes)
        base = f"http://127.0.0.1:{port}"
    print(f"plies web load test: {args.games} simultaneous games per level, {args.moves} moves each, "
          f"think {args.think:g}s, {args.algorithm}, server {base} ({os.cpu_count()} CPUs, "
          f"processes={'default' if args.processes is None else args.processes})")
    print(f"{'level':>5} {'replies':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8} {'mean ms':>8} "
          f"{'replies/s':>9}  p95<100ms")
    try:
        for level in levels:
            r = asyncio.run(run_level(base, level, args.games, args.moves, args.think, args.algorithm))
            ok = "yes" if r["p95"] < 100 else "no"
            print(f"{r['level']:>5} {r['replies']:>7} {r['p50']:>8.1f} {r['p95']:>8.1f} {r['p99']:>8.1f} "
                  f"{r['max']:>8.1f} {r['mean']:>8.1f} {r['replies'] / r['wall']:>9.1f}  {ok}", flush=True)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
        tmp.cleanup()


if __name__ == "__main__":
    main()
