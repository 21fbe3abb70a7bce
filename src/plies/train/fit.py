"""Fitting pattern weights: per-phase ridge regression by preconditioned conjugate gradients (numpy only).

Each phase is its own linear least-squares problem ``min |X w - y|^2 + l2 |w|^2`` where a row of X has a 1
for each pattern instance's configuration (46 of them) plus the dense features.  X is never built: ``X v`` is
a gather-and-sum and ``X^T r`` a ``bincount``, so a phase of a million positions fits in seconds.  Weights of
configurations never seen stay 0.  Games (not positions) are split into training and held-out sets, so the
held-out error measures positions the fit has not seen games of.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from plies.engine import patterns as pt
from plies.engine.weights import DEFAULT_WEIGHTS, weights_meta
from plies.engine.weights import load_weights as _load_weights
from plies.game import PliesError
from plies.outfiles import write_whole
from plies.train.data import Dataset
from plies.train.files import read_npz


@dataclass
class PhaseReport:
    """Figures of one phase: empties range, positions (train/held-out), mean absolute errors in discs."""

    phase: int
    empties: tuple[int, int]
    train: int
    held: int
    train_mae: float
    held_mae: float
    baseline_mae: float
    iterations: int


@dataclass
class FitResult:
    weights: np.ndarray
    phases: list[PhaseReport] = field(default_factory=list)

    def held_mae(self) -> float:
        """Held-out mean absolute error over all phases (weighted by positions); NaN without a held-out set."""
        n = sum(p.held for p in self.phases)
        return sum(p.held_mae * p.held for p in self.phases if p.held) / n if n else float("nan")


def empties_range(phase: int, n_phases: int) -> tuple[int, int]:
    """(fewest, most) empty squares of a phase."""
    es = [e for e in range(61) if pt.phase_of(e, n_phases) == phase]
    return (min(es), max(es)) if es else (0, 0)


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    """Dot product without BLAS (whose idle threads spin and crawl on a loaded machine)."""
    return float((a * b).sum())


def predict(w: np.ndarray, idx: np.ndarray, dense: np.ndarray) -> np.ndarray:
    """The values weights ``w`` (N_PARAMS,) give positions of active weights ``idx`` and dense features
    ``dense``: the row products ``X w`` of the fit."""
    return w[idx].sum(axis=1) + (dense * w[pt.DENSE_BASE:]).sum(axis=1)


def solve_phase(idx: np.ndarray, dense: np.ndarray, y: np.ndarray, l2: float = 1.0, iterations: int = 300,
                tol: float = 1e-6) -> tuple[np.ndarray, int]:
    """Ridge least squares of one phase by Jacobi-preconditioned CG; (weights (N_PARAMS,), iterations)."""
    n_par = pt.N_PARAMS
    db = pt.DENSE_BASE
    k = idx.shape[1]
    flat = idx.ravel()

    def xtr(r: np.ndarray) -> np.ndarray:
        g = np.bincount(flat, weights=np.repeat(r, k), minlength=n_par)
        g[db:] += (dense * r[:, None]).sum(axis=0)
        return g

    reg = np.full(n_par, float(l2))
    reg[db:] = 1e-3 * max(1.0, float(l2))  # the dense features (bias, parity, mobility) are barely shrunk
    diag = np.bincount(flat, minlength=n_par).astype(np.float64)
    diag[db:] = (dense**2).sum(axis=0)
    inv = 1.0 / (diag + reg)
    b = xtr(y)
    w = np.zeros(n_par)
    r = b.copy()
    z = inv * r
    p = z.copy()
    rz = _dot(r, z)
    b_norm = float(np.sqrt(_dot(b, b))) or 1.0
    it = 0
    if float(np.sqrt(_dot(r, r))) < tol * b_norm:
        return w, it  # nothing to fit (all labels 0): w = 0 solves it
    for it in range(1, iterations + 1):  # noqa: B007
        ap = xtr(predict(p, idx, dense)) + reg * p
        pap = _dot(p, ap)
        if not (rz > 0 and pap > 0 and np.isfinite(pap)):
            break  # converged to the last bit (nothing left to divide by)
        alpha = rz / pap
        w += alpha * p
        r -= alpha * ap
        if float(np.sqrt(_dot(r, r))) < tol * b_norm:
            break
        z = inv * r
        rz_new = _dot(r, z)
        p = z + (rz_new / rz) * p
        rz = rz_new
    return w, it


def blended_labels(ds: Dataset, search_share: float) -> np.ndarray:
    """The labels a fit reads: game results (kind 0) moved ``search_share`` of the way to the self-play
    search's value where the position has one; exact and relabelled positions as they are."""
    y = ds.label.astype(np.float64, copy=True)
    if search_share > 0 and ds.search is not None:
        m = (ds.kind == 0) & np.isfinite(ds.search)
        y[m] = (1 - search_share) * y[m] + search_share * ds.search[m]
    return y


def split_games(games: np.ndarray, holdout: float, seed: int = 0) -> np.ndarray:
    """Boolean mask of the held-out positions: a ``holdout`` fraction of the games, chosen by ``seed``."""
    if not 0 <= holdout < 1:
        raise PliesError("--holdout must be in [0, 1)")
    ids = np.unique(games)
    rng = np.random.default_rng(seed)
    held_ids = rng.permutation(ids)[: int(round(holdout * len(ids)))]
    return np.isin(games, held_ids)


def fit(ds: Dataset, n_phases: int = pt.DEFAULT_PHASES, l2: float = 1.0, holdout: float = 0.1, seed: int = 0,
        iterations: int = 300, on_phase: Callable[[PhaseReport], None] | None = None,
        only: list[str] | None = None, overlap: int = 0, refit: list[int] | None = None,
        base: np.ndarray | None = None, search_share: float = 0.0, workers: int = 1,
        tune: bool = False) -> FitResult:
    """Fit weights (n_phases, N_PARAMS) float32 to a dataset; figures per phase on the held-out games.

    ``only`` fits just the named patterns (the others keep weight 0), e.g. the small ones for little data;
    ``overlap`` also trains each phase on positions up to that many empties outside it (smoother, more data
    per phase).  Errors are always measured on the phase's own positions.  ``refit`` fits only those phases
    and keeps the others from ``base`` (a weights array of the same phases): one step of a phase-by-phase
    scheme where each phase's labels come from searches into the phases already fitted.  ``search_share``
    takes that share of a game-result label (kind 0) from the self-play search's value of the position, where
    the data has one (``plies train data --search-values``): the outcome is right on average but carries every
    later mistake of the game, the search value has less noise but the bias of the weights that searched.
    ``workers`` processes fit phases side by side (the same weights: each phase is its own problem).
    ``tune`` fits the change from ``base``: the ridge penalty pulls each weight towards its value in ``base``
    instead of towards 0, so labels too few to fit 113,883 weights afresh (deeper searches are dear) correct
    the weights fitted on many cheaper ones, and configurations the new data never sees keep their values.
    """
    if len(ds) == 0:
        raise PliesError("no positions to fit")
    if not 1 <= n_phases <= 60:
        raise PliesError("--phases must be between 1 and 60")
    if not (l2 > 0 and np.isfinite(l2)):
        raise PliesError("--l2 must be a finite number above 0")
    if not 0 <= search_share <= 1:
        raise PliesError("--search-share must be between 0 and 1")
    labels = blended_labels(ds, search_share)
    idx, dense, phase = pt.features(ds.own, ds.opp, n_phases)
    if only is not None:
        names = [n for n, _ in pt.PATTERNS]
        unknown = [n for n in only if n not in names]
        if unknown:
            raise PliesError(f"unknown pattern {unknown[0]!r}; choose from: {', '.join(names)}")
        keep = np.isin(pt.INST_TYPE, [names.index(n) for n in only])
        idx = np.ascontiguousarray(idx[:, keep])
    held = split_games(ds.game, holdout, seed)
    weights = np.zeros((n_phases, pt.N_PARAMS), dtype=np.float32)
    if refit is not None or tune:
        if base is None or base.shape != weights.shape:
            raise PliesError(f"--{'refit' if refit is not None else 'tune'} needs --base weights with "
                             f"{n_phases} phases")
        if refit is not None and any(not 0 <= p < n_phases for p in refit):
            raise PliesError(f"--refit phases must be between 0 and {n_phases - 1}")
        weights[:] = base
    result = FitResult(weights)
    empties = ds.empties
    todo = [p for p in range(n_phases) if (refit is None or p in refit) and ((phase == p) & ~held).any()]
    prior = base.astype(np.float64) if tune and base is not None else None
    problem = _Problem(idx, dense, labels, empties, held, n_phases, overlap, l2, iterations, prior)
    solved = _solve_phases(problem, todo, workers)
    for p in range(n_phases):
        tr = (phase == p) & ~held
        ho = (phase == p) & held
        rep = PhaseReport(p, empties_range(p, n_phases), int(tr.sum()), int(ho.sum()), float("nan"),
                          float("nan"), float("nan"), 0)
        if rep.train:
            if p in todo:
                w, rep.iterations = next(solved)
                weights[p] = w.astype(np.float32)
            wd = weights[p].astype(np.float64)
            rep.train_mae = float(np.abs(predict(wd, idx[tr], dense[tr]) - labels[tr]).mean())
            mean = float(labels[tr].mean())
            if rep.held:
                rep.held_mae = float(np.abs(predict(wd, idx[ho], dense[ho]) - labels[ho]).mean())
                rep.baseline_mae = float(np.abs(mean - labels[ho]).mean())
        result.phases.append(rep)
        if on_phase:
            on_phase(rep)
    return result


@dataclass
class _Problem:
    """Everything a phase's fit reads (inherited by forked worker processes, not sent to them)."""

    idx: np.ndarray
    dense: np.ndarray
    labels: np.ndarray
    empties: np.ndarray
    held: np.ndarray
    n_phases: int
    overlap: int
    l2: float
    iterations: int
    prior: np.ndarray | None = None

    def solve(self, p: int) -> tuple[np.ndarray, int]:
        """Phase p's weights (and CG iterations), fitted on its training positions and ``overlap`` empties
        around it; with a ``prior``, the ridge fit of the labels' residuals from it, added to it."""
        lo, hi = empties_range(p, self.n_phases)
        rows = (self.empties >= lo - self.overlap) & (self.empties <= hi + self.overlap) & ~self.held
        idx, dense, y = self.idx[rows], self.dense[rows], self.labels[rows]
        if self.prior is None:
            return solve_phase(idx, dense, y, self.l2, self.iterations)
        w0 = self.prior[p]
        d, its = solve_phase(idx, dense, y - predict(w0, idx, dense), self.l2, self.iterations)
        return w0 + d, its


_PROBLEM: _Problem | None = None


def _solve_shared(p: int) -> tuple[np.ndarray, int]:
    assert _PROBLEM is not None
    return _PROBLEM.solve(p)


def _solve_phases(problem: _Problem, phases: list[int], workers: int) -> Iterator[tuple[np.ndarray, int]]:
    """The solutions of ``phases`` in order, by ``workers`` forked processes (one: in this process)."""
    global _PROBLEM
    import multiprocessing as mp

    if workers <= 1 or len(phases) <= 1 or "fork" not in mp.get_all_start_methods():
        yield from (problem.solve(p) for p in phases)
        return
    _PROBLEM = problem
    try:
        with mp.get_context("fork").Pool(min(workers, len(phases))) as pool:
            yield from pool.imap(_solve_shared, phases)
    finally:
        _PROBLEM = None


# --- weights files (reading them is the engine's: plies.engine.weights) -------------------------------------

def load_weights(path: str | Path | None = None) -> np.ndarray:
    """``plies.engine.weights.load_weights``, with a file that is not a weights file refused in one line first."""
    if path is not None:
        read_npz(path, "a weights file", ("weights",))
    return _load_weights(path)


def save_weights(path: str | Path, weights: np.ndarray, meta: dict | None = None) -> None:
    """Write a weights file (compressed .npz: ``weights`` float32 (phases, N_PARAMS) and JSON ``meta``)."""
    info = {"format": "plies-patterns", "version": pt.FORMAT_VERSION, "patterns": [n for n, _ in pt.PATTERNS],
            "dense": list(pt.DENSE), "phases": int(weights.shape[0]), **(meta or {})}
    w = weights.astype(np.float32)
    write_whole(path, lambda tmp: np.savez_compressed(tmp, weights=w, meta=np.array(json.dumps(info))))


__all__ = ["DEFAULT_WEIGHTS", "FitResult", "PhaseReport", "blended_labels", "empties_range", "fit", "load_weights",
           "predict", "save_weights", "solve_phase", "split_games", "weights_meta"]
