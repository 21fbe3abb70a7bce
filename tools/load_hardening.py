"""Load runs on loopback: silent viewers, silent connections, thousands of names, one client flooding the web
app.  Each part prints its figures; the test suite runs short versions (tests/hexthello/test_hex_tools.py,
tests/web/test_hardening_load.py).

- ``viewers``: a HexThello server with its viewer (child process); N WebSocket viewers connect and never read
  while two agents play G games.  Figures: the server's memory (VmRSS) before and after.
- ``silent``: a G-game match between two agents, alone and after S connections that never give a name.
  Figures: both durations.
- ``names``: the summary table and a state event with N names.  Figures: seconds to draw / build them.
- ``flood``: one client starts N games on the web app, a new token each time, while another client has one.
  Figures: whether the other client's game lives, how many the flooder keeps.

    .venv/bin/python tools/load_hardening.py --viewers 6 --games 10 --silent 6 --names 2000 --flood 5000
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fuzz_hexthello import TIMEOUT, Agent, free_port, rss_kb, start_server  # noqa: E402


def _match(port: int, seed: int) -> float:
    """Two good agents play the server's match; seconds from the first connection to both agents' 107."""
    t0 = time.perf_counter()
    agents = [Agent(port, random.Random(seed))]
    time.sleep(0.02)
    agents.append(Agent(port, random.Random(seed + 1)))
    threads = [threading.Thread(target=a.play, args=("good", 100_000)) for a in agents]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT * 20)
    for a in agents:
        a.close()
    return time.perf_counter() - t0


def viewers(count: int = 6, games: int = 10, seed: int = 1) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="plies-load-") as tmp:
        port, web = free_port(), free_port()
        proc = start_server(port, str(Path(tmp) / "v.sqlite"), ["-g", str(games), "--web", str(web)])
        try:
            end = time.monotonic() + TIMEOUT
            while True:
                try:
                    socket.create_connection(("127.0.0.1", web), timeout=0.2).close()
                    break
                except OSError:
                    if time.monotonic() > end:
                        raise
                    time.sleep(0.05)
            time.sleep(0.3)
            before = rss_kb(proc.pid)
            socks = []
            for _ in range(count):
                s = socket.create_connection(("127.0.0.1", web), timeout=TIMEOUT)
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                s.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                socks.append(s)  # ... and never read again
            seconds = _match(port, seed)
            time.sleep(0.5)
            after = rss_kb(proc.pid)
            for s in socks:
                s.close()
            time.sleep(0.5)
            left = rss_kb(proc.pid)
        finally:
            proc.terminate()
            proc.wait(TIMEOUT)
    return {"viewers": count, "games": games, "seconds": round(seconds, 1), "rss_kb_before": before,
            "rss_kb_after": after, "rss_kb_after_they_left": left}


def silent(count: int = 6, games: int = 10, seed: int = 1) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="plies-load-") as tmp:
        port = free_port()
        proc = start_server(port, str(Path(tmp) / "s.sqlite"), ["-g", str(games)])
        try:
            time.sleep(0.3)
            alone = _match(port, seed)
            quiet = [socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) for _ in range(count)]
            time.sleep(0.1)
            crowded = _match(port, seed + 2)
            for s in quiet:
                s.close()
        finally:
            proc.terminate()
            proc.wait(TIMEOUT)
    return {"games": games, "silent_connections": count, "seconds_alone": round(alone, 2),
            "seconds_with_silent": round(crowded, 2)}


def names(count: int = 2000) -> dict[str, Any]:
    import io

    from rich.console import Console

    from plies.games.hexthello import HexThelloState
    from plies.net.hexthello.server import HexServer, Live, Tally, summary_table

    server = HexServer(port=0)
    rng = random.Random(1)
    for k in range(count):
        server.tally[f"n{k:05d}"] = Tally(games=10, wins=rng.randrange(10), draws=0, losses=0, discs_for=400,
                                          discs_against=300)
    t0 = time.perf_counter()
    Console(file=io.StringIO(), width=120).print(summary_table(server))
    draw = time.perf_counter() - t0
    live = Live(1, 1, 1, ("a", "b"), ("agent", "agent"))
    t0 = time.perf_counter()
    for _ in range(100):
        server.publish_state(live, HexThelloState.start(), None)
    event = (time.perf_counter() - t0) / 100
    return {"names": count, "summary_seconds": round(draw, 4), "state_event_seconds": round(event, 5)}


def flood(posts: int = 5000, per_address: int = 256) -> dict[str, Any]:
    from fastapi.testclient import TestClient

    from plies.web import create_app

    humans = {"players": [{"kind": "human"}, {"kind": "human"}]}
    with tempfile.TemporaryDirectory(prefix="plies-load-") as tmp:
        app = create_app(Path(tmp) / "f.sqlite", per_address=per_address)
        t0 = time.perf_counter()
        with TestClient(app, base_url="http://localhost", client=("10.0.0.1", 1)) as victim, \
                TestClient(app, base_url="http://localhost", client=("10.0.0.2", 2)) as attacker:
            mine = victim.post("/api/games/new", json=humans).json()["game"]["id"]
            statuses: dict[int, int] = {}
            for _ in range(posts):
                attacker.cookies.clear()
                r = attacker.post("/api/games/new", json=humans)
                statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
            alive = victim.post(f"/api/games/{mine}/moves", json={"move": "f5"}).status_code == 200
            kept = sum(1 for gid, a in app.state.sessions.address.items() if a == "10.0.0.2")
        seconds = time.perf_counter() - t0
    return {"posts": posts, "statuses": statuses, "other_clients_game_alive": alive, "flooder_keeps": kept,
            "seconds": round(seconds, 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--viewers", type=int, default=6)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--silent", type=int, default=6)
    ap.add_argument("--names", type=int, default=2000)
    ap.add_argument("--flood", type=int, default=5000)
    a = ap.parse_args()
    report = {
        "viewers": viewers(a.viewers, a.games) if a.viewers else None,
        "silent": silent(a.silent, a.games) if a.silent else None,
        "names": names(a.names) if a.names else None,
        "flood": flood(a.flood) if a.flood else None,
    }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
