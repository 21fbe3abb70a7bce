"""Self-play training data: games with random openings, labelled with exact endgame results.

Game ``i`` of a run depends only on the run's settings and ``i`` (its own seeded generator), so games can be
played by any worker in any order and a run can stop and resume.  A game: a random opening of a few plies,
then the backend at a low depth (with a small chance of a random move) until ``exact_empties`` squares are
left; that position is solved exactly and the game goes on along the perfect line.  Labels, for the side to
move of each position, in discs:

- from ``exact_empties`` on, the exact final disc difference with perfect play (kind 1);
- before that, the same exact result propagated back (kind 0): the outcome of the game as the backend played
  it and then finished it perfectly.  These labels are noisy but in the same unit as the exact ones, which the
  engine's midgame values are not.

With ``search_values`` each position before the exact phase also carries the value of the self-play search
at the run's depth (a fifth element, in discs for the side to move; random moves are searched for it too): a
label with less noise than the outcome, which ``plies train fit --search-share`` blends in.

The file is JSON lines: a header line with the settings and the digest of the learned weights the self-play
searched with (its search values are that evaluation's), then one line per finished game
(``{"i", "moves", "positions": [[own, opp, label, kind(, search)], ...]}``, ``own``/``opp`` bitboards of the
side to move and its opponent).  A line is written only when its game is complete, so an interrupted run loses at most
the games in flight.
"""

from __future__ import annotations

import json
import math
import os
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from typing import Any, NotRequired, TypedDict, cast

import numpy as np

from plies.extras import optional_import
from plies.game import PASS, PliesError
from plies.games import OthelloState
from plies.train.backends import Backend, get_backend

FORMAT = "plies-train-data"
VERSION = 1


class Header(TypedDict):
    """A data file's first line; ``weights``: the digest of the learned weights the self-play searched with (None:
    another evaluation; absent in older files); ``labels``: the relabelling runs (``plies.train.label``) that
    made it."""

    format: str
    version: int
    settings: dict[str, object]
    weights: NotRequired[str | None]
    labels: NotRequired[list[dict[str, object]]]


class GameLine(TypedDict):
    """One game of a data file: its index, moves (``--`` a pass), positions [own, opp, label, kind(, search)]."""

    i: int
    moves: str
    positions: list[list[Any]]


@dataclass(frozen=True)
class Settings:
    """Everything that decides the games of a run (a resumed run must use the same)."""

    seed: int = 1
    backend: str = "engine"
    depth: int = 4
    exact_empties: int = 18
    random_min: int = 2
    random_max: int = 12
    epsilon: float = 0.0
    evaluation: str = "default"
    search_values: bool = False

    def check(self) -> None:
        if not 0 <= self.random_min <= self.random_max <= 40:
            raise PliesError("random opening plies: need 0 <= min <= max <= 40")
        if not 0 <= self.epsilon <= 1:
            raise PliesError("--epsilon must be between 0 and 1")
        if not 0 <= self.exact_empties <= 30:
            raise PliesError("--exact must be between 0 and 30 empty squares")
        if self.depth < 1:
            raise PliesError("--depth must be at least 1")


def play_one(index: int, settings: Settings, backend: Backend) -> GameLine:
    """Game ``index`` of a run and its labelled positions (deterministic for given settings and backend)."""
    rng = random.Random(f"{settings.seed}:{index}")
    backend.new_game()
    state = OthelloState.start()
    moves: list[str] = []
    path: list[tuple[int, int, int]] = []  # (own, opp, side to move) before each move
    searched: list[float] = []  # the self-play search's value of each position before the exact phase
    n_random = rng.randint(settings.random_min, settings.random_max)
    ply = 0
    exact: int | None = None
    exact_at = -1
    while not state.is_over():
        if state.empties() <= settings.exact_empties:
            exact, pv = backend.solve(state)
            exact_at = len(path)
            side = state.to_move
            # follow the perfect line; positions on it keep the exact value (sign by side to move)
            while not state.is_over():
                own, opp = state.own_opp()
                path.append((own, opp, state.to_move))
                legal = state.legal_moves()
                if not pv or pv[0] not in legal:
                    _, pv = backend.solve(state)
                if pv and pv[0] in legal:
                    m = pv.pop(0)
                elif legal == [PASS]:
                    m = PASS
                else:
                    raise PliesError(f"the {backend.name} backend gave no legal move in {state.to_text()}")
                moves.append(state.move_str(m))
                state = state.play(m)
            break
        own, opp = state.own_opp()
        path.append((own, opp, state.to_move))
        legal = state.legal_moves()
        chosen: int | None = None
        if settings.search_values:
            chosen, value = backend.search(state, settings.depth)
            searched.append(round(value, 2))
        if ply < n_random or (settings.epsilon and rng.random() < settings.epsilon):
            m = rng.choice(legal)
        else:
            m = chosen if chosen is not None else backend.move(state, settings.depth)
        moves.append(state.move_str(m))
        state = state.play(m)
        ply += 1
    if exact is None:  # the game ended before the exact phase: its final score is exact
        side = 0
        exact = state.score()
        exact_at = len(path)
    positions = []
    for k, (own, opp, to_move) in enumerate(path):
        label = exact if to_move == side else -exact
        row: list[Any] = [own, opp, label, 1 if k >= exact_at else 0]
        if k < len(searched) and k < exact_at:
            row.append(searched[k])
        positions.append(row)
    return {"i": index, "moves": "".join(m if m != "pass" else "--" for m in moves), "positions": positions}


# --- the file ----------------------------------------------------------------------------------------------


def read_header(path: str) -> Header | None:
    """The header of a data file, or None when the file is missing or empty."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    with open(path, "rb") as f:
        first = f.readline(_MAX_HEADER)
    try:
        head = json.loads(first.decode("utf-8"))
    except UnicodeDecodeError:
        raise PliesError(f"{path} is not a plies training data file (not a UTF-8 text file)") from None
    except json.JSONDecodeError:
        raise PliesError(f"{path} is not a plies training data file") from None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise PliesError(f"{path} is not a plies training data file")
    return cast(Header, head)


_MAX_HEADER = 1 << 20
"""Longest header line read (a binary file given by mistake is not read whole to look for a newline)."""


def game_problem(rec: object) -> str | None:
    """What is wrong with a parsed game record, or None for a good one (``i`` a game index, ``positions`` a list
    of [own, opp, label, kind] or [own, opp, label, kind, search]: disjoint 64-bit bitboards, a finite label,
    kind 0, 1 or 2, a finite search value)."""
    if not isinstance(rec, dict):
        return "not a game record (a JSON object)"
    i = rec.get("i")
    if type(i) is not int or i < 0:
        return "no game index 'i' (a whole number >= 0)"
    positions = rec.get("positions")
    if not isinstance(positions, list):
        return "no 'positions' list"
    for n, pos in enumerate(positions):
        if not (isinstance(pos, list) and len(pos) in (4, 5)):
            return f"position {n}: not [own, opp, label, kind] or [own, opp, label, kind, search]"
        own, opp, label, kind = pos[:4]
        if not (type(own) is int and type(opp) is int and 0 <= own < 1 << 64 and 0 <= opp < 1 << 64
                and not own & opp):
            return f"position {n}: own and opp must be disjoint 64-bit bitboards"
        if type(label) not in (int, float) or not math.isfinite(label):
            return f"position {n}: the label must be a finite number"
        if kind not in (0, 1, 2) or type(kind) is not int:
            return f"position {n}: the kind must be 0, 1 or 2"
        if len(pos) == 5 and (type(pos[4]) not in (int, float) or not math.isfinite(pos[4])):
            return f"position {n}: the search value must be a finite number"
    return None


def read_games(path: str) -> Iterator[tuple[int, GameLine, bytes]]:
    """The game records of a data file after its header: (line number, record, the line), each checked.

    A last line without its newline that is not JSON (a write cut short by a stopped run) is left out, and so
    are blank lines; any other line that is not a good game record is a PliesError naming the file and the line.
    """
    with open(path, "rb") as f:
        f.readline()
        for number, line in enumerate(f, start=2):
            rec = _parse_line(path, number, line)
            if rec is not None:
                yield number, rec, line


def _parse_line(path: str, number: int, line: bytes) -> GameLine | None:
    """A checked game record; None for a blank line or a torn last one (no newline, not JSON)."""
    if not line.strip():
        return None
    try:
        rec = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        if not line.endswith(b"\n"):
            return None  # torn by an interrupted write
        why = "not UTF-8 text" if isinstance(e, UnicodeDecodeError) else f"not JSON ({e.msg})"
        raise PliesError(f"{path}: line {number}: {why}") from None
    problem = game_problem(rec)
    if problem:
        raise PliesError(f"{path}: line {number}: {problem}")
    return rec  # (a dict, as game_problem checked)


def done_games(path: str) -> set[int]:
    """Indices of the complete games in a data file; a torn last line (an interrupted write) is cut off."""
    done: set[int] = set()
    with open(path, "rb") as f:
        f.readline()
        good_end = f.tell()
        for number, line in enumerate(f, start=2):
            if not line.endswith(b"\n"):
                break  # the last line, cut short: its game is played again
            rec = _parse_line(path, number, line)
            if rec is not None:
                done.add(rec["i"])
            good_end += len(line)
    if good_end < os.path.getsize(path):
        with open(path, "r+b") as f:
            f.truncate(good_end)
    return done


def open_run(path: str, settings: Settings, resume: bool, weights: str | None = None) -> set[int]:
    """Prepare ``path`` for a run and return the games already in it (an empty set for a new file).  ``weights``:
    the digest of the learned weights the run searches with; a file made with others is not resumed."""
    head = read_header(path)
    if head is None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps({"format": FORMAT, "version": VERSION, "settings": asdict(settings),
                                "weights": weights}) + "\n")
        return set()
    if not resume:
        raise PliesError(f"{path} exists; add --resume to continue it or choose another --out")
    if {**asdict(Settings()), **(head.get("settings") or {})} != asdict(settings):
        raise PliesError(f"{path} was made with other settings ({head.get('settings')}); resume with the same ones")
    if head.get("weights", weights) != weights:
        raise PliesError(f"{path} was played with other weights ({head.get('weights')}; these are {weights}): resume "
                         "with the weights that made it, or start another file")
    return done_games(path)


def search_weights(paths: Iterable[str]) -> dict[str, str | None]:
    """For each data file that carries search values, the digest of the weights its self-play searched with
    ("unrecorded" for older files, None for another evaluation); files without search values are left out."""
    out: dict[str, str | None] = {}
    for p in paths:
        head = read_header(p)
        if head is None or not (head.get("settings") or {}).get("search_values"):
            continue
        w = head.get("weights", "unrecorded")
        if w is not None and not isinstance(w, str):
            raise PliesError(f"{p}: line 1: 'weights' must be a digest or null")
        out[p] = w
    return out


# --- running many games ------------------------------------------------------------------------------------

_worker_backend: Backend | None = None
_worker_settings: Settings | None = None


@dataclass(frozen=True)
class Searcher:
    """The files the self-play engine evaluates and prunes with (None: the shipped ones).  Not settings: the
    header's weights digest names them, and a resumed run must search with the same."""

    weights: str | None = None
    statistics: str | None = None


def _init_worker(settings: Settings, searcher: Searcher = Searcher()) -> None:
    global _worker_backend, _worker_settings
    _worker_settings = settings
    _worker_backend = get_backend(settings.backend, settings.evaluation, weights=searcher.weights,
                                  statistics=searcher.statistics)


def _work(index: int) -> str:
    assert _worker_backend is not None and _worker_settings is not None
    return json.dumps(play_one(index, _worker_settings, _worker_backend), separators=(",", ":"))


def generate(
    path: str,
    games: int,
    settings: Settings,
    workers: int = 1,
    resume: bool = False,
    use_ray: bool = False,
    on_start: Callable[[int, int], None] | None = None,
    on_game: Callable[[int], None] | None = None,
    searcher: Searcher = Searcher(),
) -> tuple[int, int]:
    """Play games ``0..games-1`` not yet in ``path`` and append them; (games played now, games in the file).

    ``on_start(already done, to play)`` is called once, ``on_game(positions)`` after each game written;
    ``searcher`` names other weights and probcut statistics than the shipped ones for the self-play.
    """
    settings.check()
    # every setting is tried before the file is made: a typo must not leave a header that blocks the fixed command
    if use_ray:
        optional_import("ray", "ray", "--ray")
    _init_worker(settings, searcher)  # an unknown --eval, a bad weights file or a missing engine fails here
    assert _worker_backend is not None
    new = read_header(path) is None
    done = open_run(path, settings, resume, _worker_backend.weights())
    todo = [i for i in range(games) if i not in done]
    played = 0
    try:
        if on_start:
            on_start(games - len(todo), len(todo))
        lines: Iterable[str]
        if use_ray:
            lines = _ray_lines(todo, settings, workers, searcher)
        elif workers <= 1:
            lines = (_work(i) for i in todo)
        else:
            lines = _pool_lines(todo, settings, workers, searcher)
        played = append_lines(path, lines, lambda line: on_game(line.count("],[") + 1) if on_game else None)
    finally:
        if new and not played:
            remove_header_only(path)
    return played, len(done) + played


def remove_header_only(path: str) -> None:
    """Remove a file this run made that holds its header only (the run failed or stopped before a whole game):
    left there, it would refuse the corrected command as an existing run."""
    try:
        with open(path, "rb") as f:
            f.readline()
            if f.read(1):
                return
        os.unlink(path)
    except OSError:
        pass


def append_lines(path: str, lines: Iterable[str], on_line: Callable[[str], None] | None = None) -> int:
    """Append finished game lines to ``path`` one by one, flushed (a stopped run keeps every whole line)."""
    n = 0
    with open(path, "a", encoding="utf-8") as f:
        for line in lines:
            f.write(line + "\n")
            f.flush()
            n += 1
            if on_line:
                on_line(line)
    return n


def _pool_lines(todo: list[int], settings: Settings, workers: int, searcher: Searcher) -> Iterator[str]:
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    with ctx.Pool(workers, initializer=_init_worker, initargs=(settings, searcher)) as pool:
        yield from pool.imap_unordered(_work, todo, chunksize=1)


def _ray_lines(todo: list[int], settings: Settings, workers: int, searcher: Searcher) -> Iterator[str]:
    """Games on a Ray cluster (``ray.init()`` joins the one ``RAY_ADDRESS`` names, else starts a local one; the
    searcher's files must be readable at the same paths on its nodes)."""
    ray = optional_import("ray", "ray", "--ray")
    if not ray.is_initialized():
        ray.init()

    @ray.remote
    def batch(indices: list[int]) -> list[str]:
        _init_worker(settings, searcher)
        return [_work(i) for i in indices]

    size = max(1, len(todo) // max(1, workers * 8))
    pending = [batch.remote(todo[k:k + size]) for k in range(0, len(todo), size)]
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        yield from ray.get(ready[0])


# --- loading for the fit -----------------------------------------------------------------------------------


@dataclass
class Dataset:
    """Positions as arrays: side-to-move and opponent bitboards, label (discs), kind (1 exact), game index, and
    the self-play search's value where the file has one (NaN elsewhere)."""

    own: np.ndarray
    opp: np.ndarray
    label: np.ndarray
    kind: np.ndarray
    game: np.ndarray
    search: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.search is None:
            self.search = np.full(len(self.label), np.nan)

    def __len__(self) -> int:
        return len(self.label)

    @property
    def empties(self) -> np.ndarray:
        from plies.engine.patterns import _popcount

        return 64 - _popcount(self.own | self.opp).astype(np.int64)


def load(paths: Iterable[str]) -> Dataset:
    """All positions of one or more data files (games keep their file's index, offset per file)."""
    own: list[int] = []
    opp: list[int] = []
    label: list[int] = []
    kind: list[int] = []
    game: list[int] = []
    search: list[float] = []
    offset = 0
    for path in paths:
        if read_header(path) is None:
            raise PliesError(f"{path}: no such data file (or it is empty)")
        top = 0
        for _, rec, _ in read_games(path):
            g = rec["i"] + offset
            top = max(top, g + 1)
            for pos in rec["positions"]:
                own.append(pos[0])
                opp.append(pos[1])
                label.append(pos[2])
                kind.append(pos[3])
                game.append(g)
                search.append(pos[4] if len(pos) == 5 else math.nan)
        offset = top
    return Dataset(np.array(own, dtype=np.uint64), np.array(opp, dtype=np.uint64),
                   np.array(label, dtype=np.float64), np.array(kind, dtype=np.int8), np.array(game, dtype=np.int64),
                   np.array(search, dtype=np.float64))


def replay(moves: str) -> list[OthelloState]:
    """The positions of a stored game's move string (``--`` for a pass), for checks."""
    state = OthelloState.start()
    out = [state]
    for k in range(0, len(moves), 2):
        tok = moves[k:k + 2]
        state = state.play(PASS if tok == "--" else state.parse_move(tok))
        out.append(state)
    return out
