"""Search labels: replace the noisy game-result labels of midgame positions by the value of a search.

The self-play files label every position before the exact phase with the outcome of the game as a depth-4
player went on to play it: right on average, but noisy.  Buro's scheme for Logistello gives earlier phases
better labels: fit the late phases on exact results, then label the positions of the phase before them by a
search whose leaves fall in the phases already fitted, fit that phase, and go on towards the opening.  This
module does one step: it copies a data file, relabelling the positions with ``empties`` in a range by the
engine's value at ``depth`` with given weights (kind 2 in the file); the other positions keep their labels.

Game ``i`` is relabelled by a fresh engine (empty hash tables), so the output does not depend on the order or
the number of workers, and a run resumes like ``plies train data`` (whole game lines, ``--resume``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from plies.game import PASS, WIN, PliesError
from plies.games import OthelloState
from plies.train.data import FORMAT, VERSION, append_lines, read_games, read_header, remove_header_only
from plies.train.files import same_file

if TYPE_CHECKING:
    from plies.engine.api import Engine
    from plies.train.data import GameLine, Header

SEARCH_LABEL = 2
"""Kind of a label set by a search (0: game result, 1: exact)."""


@dataclass(frozen=True)
class LabelSettings:
    """What decides the labels of a relabelling run (a resumed run must use the same)."""

    depth: int = 6
    lo: int = 19
    hi: int = 60
    weights: str = ""
    blend: float = 1.0

    def check(self) -> None:
        if not 1 <= self.depth <= 30:
            raise PliesError("--depth must be between 1 and 30")
        if not 0 <= self.lo <= self.hi <= 60:
            raise PliesError("--empties wants LO-HI with 0 <= LO <= HI <= 60")
        if not 0 < self.blend <= 1:
            raise PliesError("--blend must be in (0, 1]")
        if self.weights:
            from plies.train.fit import load_weights

            load_weights(self.weights)  # a clear error now, before any file is written


def disc_value(value: float) -> float:
    """A search value in discs: a won/lost terminal value (±WIN + margin) becomes its margin."""
    if value >= WIN / 2:
        return value - WIN
    if value <= -WIN / 2:
        return value + WIN
    return value


class Labeller:
    """The engine with the learned evaluation (shipped weights, or those of ``settings.weights``)."""

    def __init__(self, settings: LabelSettings) -> None:
        self.settings = settings
        self.engine = self._engine()

    def _engine(self) -> Engine:
        from plies.engine import Engine

        return Engine(hash_mb=8, evaluation="learned", weights=self.settings.weights or None)

    def value(self, state: OthelloState) -> float:
        """Search value of a position that is not over, for its side to move, in discs."""
        sign = 1.0
        if state.legal_moves() == [PASS]:
            state = state.play(PASS)
            sign = -1.0
        return sign * disc_value(float(self.engine.search(state, depth=self.settings.depth).value))

    def game(self, rec: GameLine) -> GameLine:
        """A game record with the positions in the empties range relabelled (empty hash tables for each game)."""
        self.engine.clear()
        s = self.settings
        out = []
        for own, opp, label, kind, *rest in rec["positions"]:
            empties = 64 - bin(own | opp).count("1")
            if kind != 1 and s.lo <= empties <= s.hi:
                state = OthelloState(own, opp, 0)
                if not state.is_over():
                    v = self.value(state)
                    label, kind = round(s.blend * v + (1 - s.blend) * label, 2), SEARCH_LABEL
            out.append([own, opp, label, kind, *rest])
        return {**rec, "positions": out}


def _open(src: str, out: str, settings: LabelSettings, resume: bool) -> tuple[Header, set[int]]:
    head = read_header(src)
    if head is None:
        raise PliesError(f"{src}: no such data file (or it is empty)")
    labels = head.get("labels", [])
    if not isinstance(labels, list):
        raise PliesError(f"{src}: line 1: 'labels' must be a list")
    header: Header = {"format": FORMAT, "version": VERSION, "settings": head.get("settings", {}),
              "labels": [*labels, {"source": os.path.basename(src), **asdict(settings)}]}
    if "weights" in head:  # the search values are copied: so is the name of the weights that made them
        header["weights"] = head["weights"]
    if os.path.exists(out) and os.path.getsize(out):
        if not resume:
            raise PliesError(f"{out} exists; add --resume to continue it or choose another --out")
        have = read_header(out)
        if have is None or have.get("labels") != header["labels"] or have.get("settings") != header["settings"]:
            raise PliesError(f"{out} was made from another file or with other settings; choose another --out")
        from plies.train.data import done_games

        return header, done_games(out)
    with open(out, "w", encoding="utf-8") as f:
        f.write(json.dumps(header) + "\n")
    return header, set()


def _games(src: str) -> list[tuple[int, str]]:
    """(index, line) of every game of ``src``, all read and checked (a bad line is an error naming it)."""
    return [(rec["i"], line.decode("utf-8")) for _, rec, line in read_games(src)]


_worker: Labeller | None = None


def _init(settings: LabelSettings) -> None:
    global _worker
    _worker = Labeller(settings)


def _work(line: str) -> str:
    assert _worker is not None
    return json.dumps(_worker.game(json.loads(line)), separators=(",", ":"))


def relabel(src: str, out: str, settings: LabelSettings, workers: int = 1, resume: bool = False,
            on_start: Callable[[int, int], None] | None = None,
            on_game: Callable[[int], None] | None = None) -> tuple[int, int]:
    """Copy ``src`` to ``out`` with search labels in the empties range; (games done now, games in ``out``)."""
    settings.check()
    if same_file(src, out):
        raise PliesError("--out must be another file than the data it relabels")
    if read_header(src) is None:
        raise PliesError(f"{src}: no such data file (or it is empty)")
    games = _games(src)  # every line of the source checked, and the engine made, before OUT is
    if not games:
        raise PliesError(f"{src} holds no games")
    _init(settings)
    new = read_header(out) is None
    _, done = _open(src, out, settings, resume)
    n = 0
    try:
        todo = [line for i, line in games if i not in done]
        if on_start:
            on_start(len(done), len(todo))
        lines: Iterable[str]
        if workers <= 1:
            lines = (_work(line) for line in todo)
        else:
            import multiprocessing as mp

            ctx = mp.get_context("spawn")
            pool = ctx.Pool(workers, initializer=_init, initargs=(settings,))
            lines = pool.imap_unordered(_work, todo, chunksize=1)
        try:
            n = append_lines(out, lines, lambda line: on_game(1) if on_game else None)
        finally:
            if workers > 1:
                pool.terminate()
    finally:
        if new and not n:
            remove_header_only(out)
    return n, len(done) + n
