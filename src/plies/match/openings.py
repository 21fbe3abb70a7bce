"""Opening positions for matches: read from a file or made by random plies from the start, reproducibly.

Every opening is played twice with colours swapped (paired openings), so an opening that favours one side
favours both players equally.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from pathlib import Path

from plies.game import PASS, PliesError, State
from plies.games import parse_position, start_position


@dataclass(frozen=True)
class Opening:
    """A start position for one pair of games; ``moves`` is how it was reached from the start, when known."""

    position: str
    moves: str = ""

    def state(self, game: str) -> State:
        return parse_opening(self.position, game)


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from a base seed and labels (game index, side, ...): the same inputs give the same seed on
    every machine and in every worker, unlike ``hash()``."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def parse_opening(text: str, game: str) -> State:
    """One opening line for ``game``: a position (board + side to move) or a transcript from the start."""
    start = start_position(game)
    t = text.strip()
    if t in ("", "start", "-"):
        return start
    n = getattr(start, "n", None)
    if start.game == "othello" and n is not None and n != 8:
        from plies.games.othello import OthelloState

        compact = "".join(t.split())
        if len(compact) == n * n + 1:
            return OthelloState.from_text(compact)
        return OthelloState.from_transcript(t, n=n)
    return parse_position(t, game=start.game)


MAX_FILE = 16 << 20
MAX_LINE = 4096


def read_openings(path: str | Path, game: str) -> list[Opening]:
    """Openings from a file, one per line (position or transcript); blank lines and ``#`` comments skipped.
    The file is at most ``MAX_FILE`` bytes and each line at most ``MAX_LINE`` characters."""
    try:
        size = Path(path).stat().st_size
        if size > MAX_FILE:
            raise PliesError(f"openings file {path} is {size} bytes; at most {MAX_FILE} (one opening a line)")
        lines = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as e:
        raise PliesError(f"cannot read openings file {path}: {e.strerror}") from None
    out: list[Opening] = []
    for number, line in enumerate(lines, 1):
        if len(line) > MAX_LINE:
            raise PliesError(f"{path}:{number}: a line of {len(line)} characters is longer than any opening")
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            state = parse_opening(text, game)
        except PliesError as e:
            raise PliesError(f"{path}:{number}: {e}") from None
        if state.is_over():
            raise PliesError(f"{path}:{number}: the opening is already a finished game")
        out.append(Opening(state.to_text(), text if len(text) < 60 else ""))
    if not out:
        raise PliesError(f"openings file {path} holds no opening")
    return out


def random_opening(game: str, plies: int, seed: int) -> Opening:
    """``plies`` uniformly random moves from the start (never a finished game), the same for the same seed."""
    start = start_position(game)
    for attempt in range(100):
        rng = random.Random(derive_seed(seed, "opening-attempt", attempt))
        state, moves = start, []
        for _ in range(plies):
            legal = state.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            moves.append(state.move_str(move) if move != PASS else "pass")
            state = state.play(move)
        if not state.is_over():
            sep = "" if start.game == "othello" else ", " if any(" " in m for m in moves) else " "
            return Opening(state.to_text(), sep.join(moves))
    raise PliesError(f"no unfinished {game} position after {plies} random plies; use fewer")


def random_openings(game: str, plies: int, count: int, seed: int) -> list[Opening]:
    """``count`` random openings (distinct where the game allows it), opening ``i`` seeded from (seed, i)."""
    if plies < 0:
        raise PliesError("random openings need a non-negative number of plies")
    out: list[Opening] = []
    seen: set[str] = set()
    for i in range(count):
        opening = random_opening(game, plies, derive_seed(seed, "opening", i))
        for retry in range(1, 20):
            if opening.position not in seen:
                break
            opening = random_opening(game, plies, derive_seed(seed, "opening", i, retry))
        seen.add(opening.position)
        out.append(opening)
    return out


__all__ = ["Opening", "derive_seed", "parse_opening", "random_opening", "random_openings", "read_openings"]
