"""Training the HexThello engine's learned evaluation (``plies.hexsearch.learned``) from self-play.

1. ``generate``: self-play games of the compiled engine at a fixed depth, each from a random opening, with a
   chance of a random move; every position where the side to move has a move is kept, labelled with the final
   disc difference of its game from the side to move's view.  Game ``i`` depends only on the settings and
   ``i`` (its own seeded generator, a fresh engine), so any number of worker processes give the same file.
2. ``fit``: one ridge regression per phase (positions within ``overlap`` empties of a phase train it too),
   solved by preconditioned conjugate gradients on the sparse features (numpy only); whole games are held out
   and the mean absolute errors printed.

``plies train hexthello-data`` and ``plies train hexthello-fit`` run them (docs/hexthello.md has the commands
that made the shipped weights).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from plies.game import PliesError
from plies.games.hexthello import HexThelloState
from plies.hexsearch import kernels as k
from plies.hexsearch import learned
from plies.hexsearch.engine import HexEngine
from plies.outfiles import write_whole
from plies.train.files import read_npz

DATA_FORMAT = "hexthello-selfplay-1"


@dataclass(frozen=True)
class SelfPlay:
    """Settings of a self-play run."""

    games: int
    seed: int = 1
    depth: int = 4
    epsilon: float = 0.03
    opening: tuple[int, int] = (2, 12)
    evaluation: str = "classic"
    weights: str | None = None


def play_game(cfg: SelfPlay, i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Game ``i`` of the run: (boards int8 (m, 289), sides int8 (m,), labels int16 (m,))."""
    rng = random.Random(cfg.seed * 1_000_003 + i)
    engine = HexEngine(16, evaluation=cfg.evaluation, weights=cfg.weights)
    s = HexThelloState.start()
    boards: list[np.ndarray] = []
    sides: list[int] = []
    plies = rng.randint(*cfg.opening)
    ply = 0
    while not s.is_over():
        moves = s.legal_moves()
        if moves[0] >= 0:  # not a forced pass
            board, me = k.to_padded(s.black, s.white, s.holes), (k.BLACK if s.to_move == 0 else k.WHITE)
            boards.append(board)
            sides.append(me)
            if ply < plies or rng.random() < cfg.epsilon:
                move = rng.choice(moves)
            else:
                move = engine.search(s, depth=cfg.depth).move
        else:
            move = moves[0]
        s = s.play(move)
        ply += 1
    score = s.score()
    sides_a = np.array(sides, dtype=np.int8)
    labels = np.where(sides_a == k.BLACK, score, -score).astype(np.int16)
    return np.array(boards, dtype=np.int8).reshape(-1, k.N), sides_a, labels


def _play_many(cfg: SelfPlay, indices: list[int]) -> list[tuple[int, np.ndarray, np.ndarray, np.ndarray]]:
    return [(i, *play_game(cfg, i)) for i in indices]


def generate(cfg: SelfPlay, workers: int = 1, on_game: Callable[[int], None] | None = None) -> dict[str, np.ndarray]:
    """Play the run's games (on ``workers`` processes): ``boards``, ``sides``, ``labels``, ``game`` (the game
    index of each position) and ``meta`` (the settings)."""
    if cfg.games < 1 or cfg.depth < 1 or not 0 <= cfg.epsilon <= 1:
        raise PliesError(f"bad self-play settings: {cfg}")
    if not 0 <= cfg.opening[0] <= cfg.opening[1]:
        raise PliesError(f"--random-plies wants MIN-MAX with 0 <= MIN <= MAX, not {cfg.opening[0]}-{cfg.opening[1]}")
    if cfg.weights is not None:
        read_npz(cfg.weights, "a HexThello weights file", ("weights", "meta"))
    HexEngine(16, evaluation=cfg.evaluation, weights=cfg.weights)  # a bad --eval or weights file fails now
    chunks = [list(range(a, min(a + 20, cfg.games))) for a in range(0, cfg.games, 20)]
    results: list[tuple[int, np.ndarray, np.ndarray, np.ndarray]] = []
    if workers <= 1:
        for c in chunks:
            results += _play_many(cfg, c)
            if on_game:
                on_game(len(c))
    else:
        with ProcessPoolExecutor(workers) as pool:
            for out in pool.map(_play_many, [cfg] * len(chunks), chunks):
                results += out
                if on_game:
                    on_game(len(out))
    results.sort(key=lambda r: r[0])
    return {
        "boards": np.concatenate([r[1] for r in results]),
        "sides": np.concatenate([r[2] for r in results]),
        "labels": np.concatenate([r[3] for r in results]),
        "game": np.concatenate([np.full(len(r[2]), r[0], dtype=np.int32) for r in results]),
        "meta": np.array(json.dumps({"format": DATA_FORMAT, **asdict(cfg)})),
    }


def save_data(path: str | Path, data: dict[str, np.ndarray]) -> None:
    """Write ``generate``'s arrays as a compressed .npz (whole or not at all, at exactly ``path``)."""
    write_whole(path, lambda tmp: np.savez_compressed(tmp, boards=data["boards"], sides=data["sides"],
                                                      labels=data["labels"], game=data["game"], meta=data["meta"]))


def load_data(paths: list[str]) -> dict[str, np.ndarray]:
    """One or more data files of ``generate``, as one (game indices made distinct across files)."""
    parts = []
    offset = 0
    keys = ("boards", "sides", "labels", "game")
    for p in paths:
        d = read_npz(p, "a HexThello self-play file", (*keys, "meta"))
        try:
            meta = json.loads(str(d.pop("meta")))
        except ValueError:
            meta = None
        if not isinstance(meta, dict) or meta.get("format") != DATA_FORMAT:
            raise PliesError(f"{p} is not a HexThello self-play file")
        m = len(d["labels"])
        if (d["boards"].shape != (m, k.N) or any(d[key].shape != (m,) for key in ("sides", "labels", "game"))
                or any(d[key].dtype.kind not in "iu" for key in keys)):
            raise PliesError(f"{p} is not a HexThello self-play file (its arrays do not fit together)")
        d["game"] = d["game"] + offset
        offset = int(d["game"].max()) + 1 if len(d["game"]) else offset
        parts.append(d)
    return {key: np.concatenate([d[key] for d in parts]) for key in ("boards", "sides", "labels", "game")}


@dataclass
class PhaseReport:
    phase: int
    train: int
    held: int
    mae_train: float
    mae_held: float
    mae_mean: float


def _solve(dense: np.ndarray, edges: np.ndarray, y: np.ndarray, l2_dense: float, l2_edge: float,
           iterations: int) -> np.ndarray:
    """Ridge weights (dense columns, then the folded edge table) by Jacobi-preconditioned conjugate gradients
    on the normal equations; X is never built (the edge part is a gather and a bincount)."""
    n_d = dense.shape[1]
    flat = edges.ravel()

    def xv(w: np.ndarray) -> np.ndarray:
        return dense @ w[:n_d] + w[n_d:][edges].sum(axis=1)

    def xtr(r: np.ndarray) -> np.ndarray:
        return np.concatenate([dense.T @ r, np.bincount(flat, weights=np.repeat(r, edges.shape[1]),
                                                        minlength=learned.N_EDGE)])

    reg = np.concatenate([np.full(n_d, l2_dense), np.full(learned.N_EDGE, l2_edge)])
    diag = np.concatenate([(dense**2).sum(axis=0), np.bincount(flat, minlength=learned.N_EDGE).astype(float)]) + reg
    w = np.zeros(n_d + learned.N_EDGE)
    r = xtr(y) - (xtr(xv(w)) + reg * w)
    z = r / diag
    p = z.copy()
    rz = r @ z
    tol = 1e-6 * max(1.0, np.sqrt(y @ y))
    for _ in range(iterations):
        if np.sqrt(r @ r) < tol:
            break
        ap = xtr(xv(p)) + reg * p
        pap = p @ ap
        if not (rz > 0 and pap > 0 and np.isfinite(pap)):
            break  # converged to the last bit (nothing left to divide by)
        alpha = rz / pap
        w += alpha * p
        r -= alpha * ap
        if np.sqrt(r @ r) < 1e-6 * max(1.0, np.sqrt(y @ y)):
            break
        z = r / diag
        rz_new = r @ z
        p = z + (rz_new / rz) * p
        rz = rz_new
    return w


def fit(data: dict[str, np.ndarray], l2: float = 20.0, overlap: int = 4, holdout: float = 0.1, seed: int = 1,
        iterations: int = 300, on_phase: Callable[[PhaseReport], None] | None = None
        ) -> tuple[np.ndarray, list[PhaseReport]]:
    """Stored weights (PHASES, N_PARAMS) of a ridge regression per phase of the labels on the features, and
    what each phase measured.  ``l2`` penalises the edge table, ``l2 / 100`` the dense and class weights."""
    if not len(data["labels"]):
        raise PliesError("no positions to fit")
    if not 0 <= holdout < 1:
        raise PliesError("--holdout must be in [0, 1)")
    if not (l2 > 0 and np.isfinite(l2)):
        raise PliesError("--l2 must be a finite number above 0")
    phase, feat, edge, over = k.features(data["boards"], data["sides"])
    keep = over == 0
    empties = (data["boards"] == k.EMPTY).sum(axis=1)
    cols, ecols = learned.stored_columns(feat, edge)
    cols = cols.astype(np.float64)
    y = data["labels"].astype(np.float64)
    games = np.unique(data["game"])
    rng = np.random.default_rng(seed)
    n_held = int(round(holdout * len(games)))
    held_games: np.ndarray = rng.choice(games, size=n_held, replace=False) if n_held else games[:0]
    held = np.isin(data["game"], held_games)
    weights = np.zeros((k.PHASES, learned.N_PARAMS), dtype=np.float64)
    reports = []
    for p in range(k.PHASES):
        lo = p * k.PHASE_WIDTH
        hi = (p + 1) * k.PHASE_WIDTH - 1 if p < k.PHASES - 1 else k.N
        inside = keep & (phase == p)
        near = keep & (empties >= lo - overlap) & (empties <= hi + overlap)
        train = near & ~held
        test = inside & held
        if train.sum() == 0:
            reports.append(PhaseReport(p, 0, int(test.sum()), 0.0, 0.0, 0.0))
            continue
        w = _solve(cols[train], ecols[train], y[train], l2 / 100, l2, iterations)
        weights[p] = w

        def mae(mask: np.ndarray, w: np.ndarray = w) -> float:
            if not mask.any():
                return 0.0
            pred = cols[mask] @ w[:cols.shape[1]] + w[cols.shape[1]:][ecols[mask]].sum(axis=1)
            return float(np.abs(pred - y[mask]).mean())

        tr_in = inside & ~held
        mean = float(y[tr_in].mean()) if tr_in.any() else 0.0
        rep = PhaseReport(p, int(tr_in.sum()), int(test.sum()), mae(tr_in), mae(test),
                          float(np.abs(y[test] - mean).mean()) if test.any() else 0.0)
        reports.append(rep)
        if on_phase:
            on_phase(rep)
    return weights.astype(np.float32), reports


__all__ = ["PhaseReport", "SelfPlay", "fit", "generate", "load_data", "play_game", "save_data"]
