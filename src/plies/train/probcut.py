"""``plies train probcut``: measure how well shallow searches predict deep ones, and fit the statistics the
engine's selective search reads (``plies.engine.probcut``).

1. **Positions** from seeded self-play (``plies.train.data.play_one``: random openings, a shallow engine, a few
   random moves), a few from each game, of every phase.
2. **Values by depth**: each position is searched without selectivity to ``depth`` (iterative deepening: the
   value of every depth on the way, and the static evaluation as depth 0); from ``exact_from`` empties down to
   ``exact_to`` it is also solved exactly (the solver's row).  Samples go to a ``.npz`` file as they are made
   (``--samples``): a stopped run resumes, and a refit needs no new searches.
3. **Fit**: for each depth d, the depth-d value against the value of its shallow depth d'
   (``plies.engine.probcut.shallow_depth``) and against the static evaluation, by least squares with slope and
   offset polynomial in the empties; the spread (sigma) is fitted the same way to the absolute residuals.  The
   exact score is fitted against the shallow search the solver's probcut runs.

Everything depends only on the settings (the seed, the engine and its weights), so the shipped file is
reproducible by the command in docs/training.md.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from plies.engine import probcut as pc
from plies.game import WIN, PliesError
from plies.games.othello import OthelloState

if TYPE_CHECKING:
    from plies.engine.api import Engine
    from plies.search.result import SearchResult

SAMPLES_FORMAT = "plies-probcut-samples-2"


@dataclass(frozen=True)
class Settings:
    """What decides the samples of a run (a resumed run must use the same)."""

    positions: int = 1500
    depth: int = 12
    seed: int = 1
    min_empties: int = 12
    max_empties: int = 58
    exact_from: int = 24  # solved exactly from this many empties down ...
    exact_to: int = 14    # ... to this many (the solver's probcut starts at 14)
    weights: str = ""     # the weights file ("" = shipped)

    def check(self) -> None:
        if self.positions < 20:
            raise PliesError("--positions must be at least 20")
        if not 3 <= self.depth <= 20:
            raise PliesError("--depth must be from 3 to 20")
        if not 1 <= self.min_empties <= self.max_empties <= 60:
            raise PliesError("empties: need 1 <= min <= max <= 60")
        if self.exact_from and not 1 <= self.exact_to <= self.exact_from <= 30:
            raise PliesError("exact solves: need 1 <= --exact-to <= --exact-from <= 30 (or --exact-from 0)")


def sample_positions(settings: Settings) -> list[tuple[int, int]]:
    """``settings.positions`` positions (own, opp) with a side to move that has a move, spread evenly over the
    empties from ``min_empties`` to ``max_empties``: from seeded self-play games, a few from each."""
    from plies.train.backends import get_backend
    from plies.train.data import Settings as GameSettings
    from plies.train.data import play_one

    games = GameSettings(seed=settings.seed, depth=3, exact_empties=0, random_min=2, random_max=20, epsilon=0.05)
    backend = get_backend("engine", "default", selective=False)  # not the statistics this run replaces
    rng = random.Random(f"probcut:{settings.seed}")
    span = settings.max_empties - settings.min_empties + 1
    want = {e: settings.positions // span + (1 if k < settings.positions % span else 0)
            for k, e in enumerate(range(settings.min_empties, settings.max_empties + 1))}
    out: list[tuple[int, int]] = []
    i = 0
    while sum(want.values()) > 0:
        g = play_one(i, games, backend)
        i += 1
        picks = []
        for own, opp, _, _ in g["positions"]:
            e = 64 - (own | opp).bit_count()
            if want.get(e, 0) > 0 and OthelloState(own, opp, 0).legal_moves() != [-1]:
                picks.append((e, own, opp))
        rng.shuffle(picks)
        for e, own, opp in picks[:3]:
            if want[e] > 0:
                want[e] -= 1
                out.append((own, opp))
        if i > 50 * settings.positions:
            raise PliesError("could not find positions for every number of empties")
    return out


_ENGINES: dict[str, Engine] = {}


def _engine(weights: str) -> Engine:
    """This process's engine for a weights file ("" = the shipped one), without selectivity."""
    if weights not in _ENGINES:
        from plies.engine.api import Engine

        _ENGINES.clear()
        _ENGINES[weights] = Engine(threads=1, probcut=None, weights=weights or None)
    return _ENGINES[weights]


def measure(own: int, opp: int, settings: Settings) -> tuple[np.ndarray, float, float]:
    """Values of (own, opp) at depths 0..depth without selectivity (NaN where a depth was not reached: a
    position whose search ends the game early), its exact score and the value of the solver's own shallow search
    (``plies.engine.endgame.shallow_value`` at ``solver_shallow_depth``; both NaN outside the exact range)."""
    from plies.core import lib
    from plies.engine.eval import LEARNED

    engine = _engine(settings.weights)
    state = OthelloState(own, opp, 0)
    values = np.full(settings.depth + 1, np.nan)
    values[0] = float(lib.evaluate(own, opp, LEARNED, engine.weights))
    empties = state.empties()

    def keep(results: list[SearchResult]) -> None:
        r = results[0]
        if 1 <= r.stats.depth <= settings.depth and abs(float(r.value)) < WIN / 2:
            values[r.stats.depth] = float(r.value)

    engine.search(state, depth=min(settings.depth, empties), on_progress=keep)
    exact = solver = math.nan
    if settings.exact_from and settings.exact_to <= empties <= settings.exact_from:
        from plies.engine.endgame import shallow_value

        exact = float(engine.search(state, exact=True).value)
        solver = shallow_value(own, opp, solver_shallow_depth(empties), engine.weights)
    return values, exact, solver


def _work(args: tuple[int, int, Settings]) -> tuple[np.ndarray, float, float]:
    return measure(*args)


@dataclass
class Samples:
    """Measured positions: bitboards, values by depth (rows), exact scores and the solver's shallow values
    (NaN where not solved)."""

    own: np.ndarray
    opp: np.ndarray
    values: np.ndarray
    exact: np.ndarray
    solver: np.ndarray

    @property
    def empties(self) -> np.ndarray:
        return np.array([64 - (int(a) | int(b)).bit_count() for a, b in zip(self.own, self.opp, strict=True)],
                        dtype=np.int64)


Row = tuple[int, int, np.ndarray, float, float]


def _save(path: str, settings: Settings, rows: list[Row]) -> None:
    tmp = path + ".part"
    with open(tmp, "wb") as f:
        np.savez(f, format=np.array(SAMPLES_FORMAT), settings=np.array(repr(asdict(settings))),
                 own=np.array([r[0] for r in rows], dtype=np.uint64),
                 opp=np.array([r[1] for r in rows], dtype=np.uint64),
                 values=np.array([r[2] for r in rows], dtype=np.float64).reshape(len(rows), settings.depth + 1),
                 exact=np.array([r[3] for r in rows], dtype=np.float64),
                 solver=np.array([r[4] for r in rows], dtype=np.float64))
    os.replace(tmp, path)


def _load(path: str, settings: Settings) -> list[Row]:
    try:
        with np.load(path) as z:
            if str(z["format"]) != SAMPLES_FORMAT:
                raise KeyError("format")
            if str(z["settings"]) != repr(asdict(settings)):
                raise PliesError(f"{path} holds samples of other settings ({z['settings']}); use the same ones "
                                 "or another --samples file")
            return [(int(a), int(b), v, float(x), float(y))
                    for a, b, v, x, y in zip(z["own"], z["opp"], z["values"], z["exact"], z["solver"], strict=True)]
    except (OSError, ValueError, KeyError) as e:
        raise PliesError(f"{path} is not a plies probcut samples file ({e})") from None


def collect(settings: Settings, samples: str | None = None, workers: int = 1,
            on_start: Callable[[int, int], None] | None = None,
            on_sample: Callable[[], None] | None = None) -> Samples:
    """Measure the positions of ``settings`` (those already in ``samples`` are kept; new ones are added to it
    as they come, every few dozen)."""
    settings.check()
    positions = sample_positions(settings)
    rows: list[Row] = []
    if samples and os.path.exists(samples):
        rows = _load(samples, settings)
    done = len(rows)
    if on_start:
        on_start(done, len(positions) - done)
    todo = [(own, opp, settings) for own, opp in positions[done:]]
    if todo:
        if workers > 1:
            import multiprocessing as mp

            with mp.get_context("spawn").Pool(workers) as pool:
                results = pool.imap(_work, todo, chunksize=2)
                for (own, opp, _), (values, exact, solver) in zip(todo, results, strict=True):
                    rows.append((own, opp, values, exact, solver))
                    _tick(rows, samples, settings, on_sample)
        else:
            for own, opp, _ in todo:
                rows.append((own, opp, *measure(own, opp, settings)))
                _tick(rows, samples, settings, on_sample)
        if samples:
            _save(samples, settings, rows)
    return Samples(np.array([r[0] for r in rows], dtype=np.uint64), np.array([r[1] for r in rows], dtype=np.uint64),
                   np.array([r[2] for r in rows], dtype=np.float64).reshape(len(rows), settings.depth + 1),
                   np.array([r[3] for r in rows], dtype=np.float64), np.array([r[4] for r in rows], dtype=np.float64))


def _tick(rows: list, samples: str | None, settings: Settings, on_sample: Callable[[], None] | None) -> None:
    if samples and len(rows) % 50 == 0:
        _save(samples, settings, rows)
    if on_sample:
        on_sample()


# --- the fit -----------------------------------------------------------------------------------------------

SLOPE_DEGREE, OFFSET_DEGREE, SIGMA_DEGREE = 1, 2, 2
SIGMA_FROM_MAD = math.sqrt(math.pi / 2)
"""sigma of a normal distribution per unit of mean absolute deviation."""


def _powers(empties: np.ndarray, degree: int) -> np.ndarray:
    x = empties / 60.0
    return np.vstack([x**k for k in range(degree + 1)]).T


def fit_pair(x: np.ndarray, y: np.ndarray, empties: np.ndarray, depth: int, shallow: int) -> pc.Pair:
    """``y ~ a(e) x + b(e)`` by least squares (a linear, b quadratic in the empties), then sigma(e) quadratic
    through the absolute residuals (scaled to a normal's sigma); the models kept within the measured range."""
    ex = _powers(empties, max(SLOPE_DEGREE, OFFSET_DEGREE))
    a_cols = ex[:, : SLOPE_DEGREE + 1] * x[:, None]
    b_cols = ex[:, : OFFSET_DEGREE + 1]
    A = np.hstack([a_cols, b_cols])
    coef, *_ = np.linalg.lstsq(A, y, rcond=None)
    slope = tuple(float(c) for c in coef[: SLOPE_DEGREE + 1])
    offset = tuple(float(c) for c in coef[SLOPE_DEGREE + 1:])
    resid = np.abs(y - A @ coef) * SIGMA_FROM_MAD
    s_cols = _powers(empties, SIGMA_DEGREE)
    scoef, *_ = np.linalg.lstsq(s_cols, resid, rcond=None)
    lo, hi = int(empties.min()), int(empties.max())
    grid = np.arange(lo, hi + 1)
    slope_m = pc.Model(slope, 0.5, 2.0)
    sigma_vals = _powers(grid, SIGMA_DEGREE) @ scoef
    sigma_m = pc.Model(tuple(float(c) for c in scoef), max(pc.MIN_SIGMA, float(sigma_vals.min()) * 0.8),
                       float(sigma_vals.max()) * 1.2)
    return pc.Pair(depth, shallow, slope_m, pc.Model(offset), sigma_m, (lo, hi))


def solver_shallow_depth(empties: int) -> int:
    """The depth of the solver's probcut search at ``empties`` (``pc_depth`` in csrc/endgame.c)."""
    q = (empties - 10) // 4
    return 2 * q if q > 1 else 2


def fit(samples: Samples, meta: dict[str, object]) -> pc.Statistics:
    """The statistics of the measured samples."""
    e = samples.empties
    V = samples.values
    top = V.shape[1] - 1
    pairs: dict[int, pc.Pair] = {}
    static: dict[int, pc.Pair] = {}
    for d in range(1, top + 1):
        ok = np.isfinite(V[:, d]) & np.isfinite(V[:, 0])
        if ok.sum() >= 20:
            static[d] = fit_pair(V[ok, 0], V[ok, d], e[ok], d, 0)
        ds = pc.shallow_depth(d)
        if d >= 3 and ds >= 1:
            ok = np.isfinite(V[:, d]) & np.isfinite(V[:, ds])
            if ok.sum() >= 20:
                pairs[d] = fit_pair(V[ok, ds], V[ok, d], e[ok], d, ds)
    exact = samples.exact
    ok = np.isfinite(exact) & np.isfinite(samples.solver)
    if ok.sum() >= 20:
        # the exact score from the solver's own shallow search (its depth varies with the empties)
        pairs[pc.EXACT] = fit_pair(samples.solver[ok], exact[ok], e[ok], pc.EXACT, 2)
        sok = ok & np.isfinite(V[:, 0])
        static[pc.EXACT] = fit_pair(V[sok, 0], exact[sok], e[sok], pc.EXACT, 0)
    return pc.Statistics(pairs, static, meta)


def summary(stats: pc.Statistics, samples: Samples) -> list[tuple[int, int, int, float, float, float]]:
    """(depth, shallow depth, positions, mean slope, mean offset, mean sigma) of each fitted pair, for the
    command's table."""
    out = []
    all_e = samples.empties
    for d, p in sorted(stats.pairs.items()):
        e = all_e[(all_e >= p.empties[0]) & (all_e <= p.empties[1])]
        out.append((d, p.shallow, int(len(e)), float(np.mean(p.slope(e))), float(np.mean(p.offset(e))),
                    float(np.mean(p.sigma(e)))))
    return out


def write_statistics(stats: pc.Statistics, out: str | Path) -> None:
    """Write the statistics whole (through a temporary file)."""
    tmp = str(out) + ".part"
    stats.write(tmp)
    os.replace(tmp, out)


__all__ = ["Samples", "Settings", "collect", "fit", "fit_pair", "measure", "sample_positions", "summary",
           "write_statistics"]
