"""Mutation fuzzing of the file readers: ``plies show`` and ``plies convert`` on mutated files of every format.

Valid files (transcripts, boards, OBF, GGF, WTHOR games and player lists) are mutated at random: bytes flipped,
inserted, deleted or duplicated, the file cut short or a piece repeated, rich markup and lone surrogates
spliced in, a line made endless.  Each mutated file must either read or give one clean error line (exit 2):
anything else (an internal error, a traceback) is a crash and is listed with its file.

    .venv/bin/python tools/fuzz_formats.py --files 20000 --seed 1

The test suite runs a short version (tests/formats/test_hardening.py).  Files are written to a temporary folder
(``--keep DIR`` keeps them); nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from plies.cli import main
from plies.formats.board import write_board
from plies.formats.ggf import write_ggf
from plies.formats.model import OthelloGame
from plies.formats.obf import ObfPosition, write_obf
from plies.formats.transcript import write_transcript
from plies.formats.wthor import WthorGame, write_names, write_wtb
from plies.games.othello import OthelloState

MARKUP = [b"[/]", b"[/b]", b"[bold]", b"[link=x]", b"\\ud800", b"\xed\xa0\x80", b"\xff\xfe", b"\x00", b"(;", b";)",
          b"]", b"\\", b"\n" * 3, b"NaN", b"%", b";"]


def _game(rng: random.Random) -> OthelloGame:
    s = OthelloState.start()
    g = OthelloGame(start=s)
    stop = rng.randint(1, 70)
    while not s.is_over() and len(g.moves) < stop:
        m = rng.choice(s.legal_moves())
        g.moves.append(m)
        s = s.play(m)
    g.evals = [None] * len(g.moves)
    g.times = [None] * len(g.moves)
    g.black, g.white = rng.choice(["alice", "bob", "[b]eve", "x"]), rng.choice(["carol", "dan", "[/]"])
    return g


def seeds(rng: random.Random) -> list[tuple[str, bytes]]:
    """One valid file of each format: (suffix, bytes)."""
    games = [_game(rng) for _ in range(4)]
    finished = []
    while len(finished) < 3:
        g = _game(random.Random(rng.random()))
        s = g.final
        while not s.is_over():
            m = rng.choice(s.legal_moves())
            g.moves.append(m)
            s = s.play(m)
        finished.append(g)
    positions = [ObfPosition(g.final) for g in games if not g.final.is_over()] or [ObfPosition(OthelloState.start())]
    return [
        (".txt", "".join(write_transcript(g) + "\n" for g in games).encode()),
        (".txt", write_transcript(games[0], style="playok").encode()),
        (".ggf", "".join(write_ggf(g) + "\n" for g in games).encode()),
        (".obf", write_obf(positions).encode()),
        (".board", "".join(write_board(p.state) + "\n" for p in positions).encode()),
        (".wtb", write_wtb([WthorGame.from_game(g) for g in finished])),
        (".jou", write_names(["alice", "[/b]", "bob"], 20)),
    ]


def mutate(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        op = rng.randrange(8)
        at = rng.randrange(len(b) + 1) if b else 0
        if op == 0 and b:
            b[min(at, len(b) - 1)] = rng.randrange(256)
        elif op == 1:
            b[at:at] = bytes([rng.randrange(256)])
        elif op == 2 and b:
            del b[at:at + rng.randint(1, 8)]
        elif op == 3:
            b[at:at] = rng.choice(MARKUP)
        elif op == 4:
            b = b[:at]
        elif op == 5 and b:
            piece = b[at:at + rng.randint(1, 40)]
            b[at:at] = piece * rng.randint(1, 20)
        elif op == 6:
            b[at:at] = b"f5" * rng.randint(100, 5000)  # a line longer than any game
        else:
            b[at:at] = bytes(rng.randrange(32, 127) for _ in range(rng.randint(1, 12)))
    return bytes(b)


def run(files: int = 1000, seed: int = 1, folder: Path | None = None) -> dict[str, Any]:
    """Mutate and read ``files`` files; the report counts those read, those refused with an error line, and
    lists the crashes (exit codes other than 0 and 2)."""
    rng = random.Random(seed)
    base = seeds(rng)
    tmp = None
    if folder is None:
        tmp = tempfile.TemporaryDirectory(prefix="plies-fuzz-")
        folder = Path(tmp.name)
    read = errors = 0
    crashes: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    try:
        for k in range(files):
            suffix, data = base[k % len(base)]
            path = folder / f"f{k:05d}{suffix}"
            path.write_bytes(mutate(data, rng))
            args = ["show", str(path), "--json"] if k % 3 else ["convert", str(path), "-", "--to", "ggf"]
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = main(args)
                except SystemExit as e:  # pragma: no cover - main never exits
                    code = int(e.code or 0)
            text = err.getvalue()
            if code == 0:
                read += 1
                if args[0] == "show":
                    json.loads(out.getvalue())  # the JSON is whole
            elif code == 2 and text.count("\n") == 1 and "Traceback" not in text:
                errors += 1
            else:
                crashes.append({"file": str(path), "args": args, "code": code, "stderr": text[-500:]})
    finally:
        if tmp is not None:
            tmp.cleanup()
    return {"files": files, "read": read, "errors": errors, "crashes": crashes,
            "seconds": round(time.perf_counter() - t0, 1)}


def main_cli() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", type=Path, default=None, help="Write the mutated files to this folder and keep them.")
    a = ap.parse_args()
    if a.keep:
        a.keep.mkdir(parents=True, exist_ok=True)
    report = run(a.files, a.seed, a.keep)
    print(json.dumps({k: v for k, v in report.items() if k != "crashes"} | {"crashes": len(report["crashes"])}))
    for c in report["crashes"][:20]:
        print(json.dumps(c), file=sys.stderr)
    return 1 if report["crashes"] else 0


if __name__ == "__main__":
    sys.exit(main_cli())
