"""The game library of ``plies web --games``: a seeded file of random legal Othello games in GGF (written to a
temporary folder, removed afterwards), then the library served by the app in a fresh process, as a browser asks it:

    python benchmarks/library.py                 # 100,000 games
    python benchmarks/library.py --games 20000 --seed 3

Prints the time to the first page (from the call that creates the app, its modules imported as ``plies web`` has
them before it reads a game, to the answer of ``GET /api/library/games``),
the full index time, the time of a search by player, by opening and by position (the position after the fourth
move of a game; over the full index), and the process's peak resident memory.  Times are wall seconds.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NAMES = [f"{first} {last}" for first in ("Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo")
         for last in ("Abel", "Bell", "Cole", "Dunn", "Eads", "Ford", "Gray", "Hume", "Iles", "Jinks")]


def random_games(count: int, seed: int) -> list[str]:
    """``count`` GGF lines of random legal games (the compiled core plays them), seeded."""
    from plies.core import lib

    rng = random.Random(seed)
    out = []
    for k in range(count):
        own, opp, side = 0x0000000810000000, 0x0000001008000000, 0
        moves = []
        mob = lib.legal_mask8(own, opp)
        stop = rng.random() < 0.1 and rng.randint(20, 59)  # a tenth of the games stop before the end
        while True:
            if not mob:
                if not lib.legal_mask8(opp, own):
                    break
                moves.append(("BW"[side], "PA"))
                own, opp, side = opp, own, 1 - side
                mob = lib.legal_mask8(own, opp)
                continue
            squares = [i for i in range(64) if mob >> i & 1]
            sq = rng.choice(squares)
            moves.append(("BW"[side], "ABCDEFGH"[sq % 8] + str(sq // 8 + 1)))
            a, b, mob = lib.play8(own, opp, sq)
            own, opp, side = b, a, 1 - side
            if stop and len(moves) >= stop:
                break
        black, white = (own, opp) if side == 0 else (opp, own)
        d = black.bit_count() - white.bit_count()
        result = "?" if stop else f"{d:+d}.000"
        body = "".join(f"{c}[{m}]" for c, m in moves)
        out.append(f"(;GM[Othello]PC[bench]DT[2024-{k % 12 + 1:02d}-{k % 28 + 1:02d}]PB[{rng.choice(NAMES)}]"
                   f"PW[{rng.choice(NAMES)}]RE[{result}]TY[8]BO[8 {'-' * 27}O*------*O{'-' * 27} *]{body};)\n")
    return out


def write_file(path: Path, count: int, seed: int) -> None:
    with path.open("w") as f:
        for k in range(0, count, 5000):
            f.writelines(random_games(min(5000, count - k), seed * 1_000_003 + k))


def measure(path: Path) -> dict[str, float | int | str]:
    """In this (fresh) process: the app with the library, its first page, the full index, three searches."""
    t = time.perf_counter()
    from fastapi.testclient import TestClient

    import plies.web.app  # noqa: F401  (the web app's modules, which plies web imports before it reads any game)
    from plies.web import create_app

    imported = time.perf_counter() - t
    began = time.perf_counter()
    app = create_app(Path(tempfile.mkdtemp()) / "h.sqlite", workers=1, library_path=path)
    created = time.perf_counter() - began
    with TestClient(app, base_url="http://localhost") as client:
        t = time.perf_counter()
        page = client.get("/api/library/games?limit=50").json()
        request = time.perf_counter() - t
        first = time.perf_counter() - began
        first_count = len(page["games"])
        library = app.state.library
        library.wait()
        full = time.perf_counter() - began
        out: dict[str, float | int | str] = {"first_page_s": round(first, 3), "first_page_games": first_count,
                                             "create_s": round(created, 3), "request_s": round(request, 3),
                                             "import_s": round(imported, 3),
                                             "first_block_s": round(library.first_seconds or 0.0, 3),
                                             "index_s": round(full, 2), "index_thread_s": round(library.seconds, 2),
                                             "games": library.count, "skipped": library.skipped}
        one = client.get(f"/api/library/games/{library.count // 2}").json()
        position = one["frames"][4]["position"]
        for kind, query in (("player", "player=ann%20abel"), ("opening", "opening=f5d6c3"),
                            ("position", "position=" + position.replace(" ", ""))):
            t = time.perf_counter()
            found = client.get(f"/api/library/games?{query}&limit=50").json()
            out[f"{kind}_s"] = round(time.perf_counter() - t, 3)
            out[f"{kind}_hits"] = found["total"]
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # the child process
    args = ap.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.ggf"
        t = time.perf_counter()
        write_file(path, args.games, args.seed)
        print(f"wrote {args.games:,} random games ({path.stat().st_size / 1e6:.1f} MB) in "
              f"{time.perf_counter() - t:.1f} s")
        child = subprocess.run([sys.executable, __file__, "--measure", str(path)], capture_output=True, text=True,
                               check=False)
        if child.returncode:
            sys.exit(child.stderr)
        r = json.loads(child.stdout.strip().splitlines()[-1])
    from plies.web.library import FIRST_CHUNK

    print(f"games indexed            {r['games']:,} ({r['skipped']} skipped)")
    print(f"first page               {r['first_page_s']:.3f} s from creating the app ({r['first_page_games']} games "
          f"listed; the app's creation {r['create_s']:.3f} s, the request {r['request_s']:.3f} s; the first "
          f"{FIRST_CHUNK} games indexed {r['first_block_s']:.3f} s after the library began; importing the web "
          f"app before that {r['import_s']:.3f} s)")
    print(f"full index               {r['index_s']:.2f} s from start ({r['index_thread_s']:.2f} s indexing)")
    for kind in ("player", "opening", "position"):
        print(f"search by {kind:<15}{r[f'{kind}_s']:.3f} s ({r[f'{kind}_hits']:,} games)")
    print(f"peak RSS                 {r['peak_rss_mb']:.0f} MB")


if __name__ == "__main__":
    main()
