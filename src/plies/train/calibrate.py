"""``plies train calibrate``: make a weights file's values agree across the parity of the search depth.

A search to an odd depth ends on the opponent's move, an even one on the side to move's.  An evaluation that
over- or under-rates the side to move (the tempo) makes the two kinds of depth disagree: the values a player
sees swing from one depth to the next, and the exact solver's first windows and the book's values inherit the
swing.  If the evaluation of a position with ``k`` empties is shifted by ``c(k)`` for the side to move, a
depth-d value of a position with ``e`` empties moves by ``(-1)^d c(e - d)`` (its leaves are ``d`` plies down),
so the swing between depths d and d + 1, ``(v_{d+1} - v_d)(-1)^d`` (odd depth minus even), falls by
``c(e - d - 1) + c(e - d)``.  The calibration measures the swings of seeded self-play positions
(``plies.train.probcut``'s sampling and full-width searches), solves for ``c`` by least squares with a
smoothness penalty, and adds it to each phase's bias weight; a second round measures again and corrects what is
left.  Exact scores of a few positions say how far from the truth the two parities end up.

The parity of the searches pins down each pair of neighbouring empties counts, ``c(k) + c(k + 1)``, but not
what alternates from one count to the next: with Black to move at even empties, that is a leaning to one colour,
which no search depth shows.  Weights fitted on search values can drift there (nothing anchors them but the
exact endgame), so ``anchor`` sets it from game results: in each phase it moves the parity weight (and half of
it off the bias, which keeps every ``c(k) + c(k + 1)``) until positions with an odd and an even number of
empties are predicted as well on average.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from plies.engine import patterns as pt
from plies.engine.weights import load_weights
from plies.train import probcut as pc

MIN_DEPTH = 4
"""Swings between depths below this are left out: there the largest of a few noisy values (the best move of a
one-ply search) is what swings, not the tempo."""
SMOOTH = 20.0
"""Weight of the penalty on the change of c from one empties count to the next."""


@dataclass
class Round:
    """One round: the mean swing by weight phase before it (discs), and the shift it added to each phase."""

    swing: np.ndarray
    shift: np.ndarray
    positions: int


def swings(samples: pc.Samples, min_depth: int = MIN_DEPTH) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(empties, depth, swing) of every measured pair of depths d, d + 1 (d >= ``min_depth``)."""
    e = samples.empties
    V = samples.values
    es, ds, ss = [], [], []
    for d in range(min_depth, V.shape[1] - 1):
        ok = np.isfinite(V[:, d]) & np.isfinite(V[:, d + 1]) & (e - d - 1 >= 0)
        es.append(e[ok])
        ds.append(np.full(int(ok.sum()), d))
        ss.append((V[ok, d + 1] - V[ok, d]) * (-1) ** d)
    return np.concatenate(es), np.concatenate(ds), np.concatenate(ss)


def solve_shift(empties: np.ndarray, depths: np.ndarray, swing: np.ndarray, smooth: float = SMOOTH) -> np.ndarray:
    """c(k) for k = 0..60 such that c(e - d - 1) + c(e - d) is the measured swing, smoothly in k, by least
    squares; c(0) = 0 (a finished game's value is exact)."""
    rows = len(swing)
    A = np.zeros((rows + 60 + 1, 61))
    b = np.zeros(rows + 60 + 1)
    r = np.arange(rows)
    np.add.at(A, (r, empties - depths - 1), 1.0)
    np.add.at(A, (r, empties - depths), 1.0)
    b[:rows] = swing
    w = np.sqrt(smooth * max(1.0, rows / 600))
    for k in range(60):  # smoothness
        A[rows + k, k] = -w
        A[rows + k, k + 1] = w
    A[rows + 60, 0] = 1e3  # c(0) = 0
    c, *_ = np.linalg.lstsq(A, b, rcond=None)
    return c


def phase_shift(c: np.ndarray, phases: int) -> np.ndarray:
    """The mean of c(k) over the empties of each weight phase."""
    k = np.arange(61)
    ph = np.asarray(pt.phase_of(k, phases))
    return np.array([c[ph == p].mean() for p in range(phases)])


def phase_swing(empties: np.ndarray, depths: np.ndarray, swing: np.ndarray, phases: int) -> np.ndarray:
    """The mean swing by the weight phase of the deeper search's leaves (NaN where none)."""
    ph = np.asarray(pt.phase_of(np.maximum(0, empties - depths - 1), phases))
    return np.array([swing[ph == p].mean() if np.any(ph == p) else np.nan for p in range(phases)])


def calibrate(weights: str | None, positions: int, depth: int, seed: int, rounds: int, workers: int,
              on_round: Callable[[int, Round], None] | None = None,
              on_sample: Callable[[], None] | None = None) -> tuple[np.ndarray, list[Round]]:
    """The calibrated weights (float32, stored form) of ``weights`` (None: the shipped file) and each round's
    figures; the last round only measures (its shift is not applied)."""
    W = load_weights(weights).copy()
    phases = W.shape[0]
    bias = pt.DENSE_BASE + pt.DENSE.index("bias")
    out: list[Round] = []
    with tempfile.TemporaryDirectory() as tmp:
        current = weights or ""
        for k in range(rounds + 1):
            settings = pc.Settings(positions=positions, depth=depth, seed=seed, exact_from=0, weights=current)
            samples = pc.collect(settings, None, workers, on_sample=on_sample)
            e, d, s = swings(samples)
            c = solve_shift(e, d, s)
            shift = phase_shift(c, phases) if k < rounds else np.zeros(phases)
            rnd = Round(phase_swing(e, d, s, phases), shift, len(samples.own))
            out.append(rnd)
            if on_round is not None:
                on_round(k, rnd)
            if k == rounds:
                break
            W[:, bias] += shift.astype(np.float32)
            current = os.path.join(tmp, f"round{k + 1}.npz")
            from plies.train.fit import save_weights

            save_weights(current, W, {"calibration_round": k + 1})
    return W, out


ANCHOR_POSITIONS = 400_000
"""At most this many positions (a seeded sample) of the data are read by ``anchor``."""


def anchor(W: np.ndarray, own: np.ndarray, opp: np.ndarray, result: np.ndarray,
           seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """(weights, the parity weight's change by phase): ``W`` with each phase's leaning between odd and even
    empties set from game results (``result``: the final disc difference for the side to move of each
    position), the sum of neighbouring empties counts unchanged."""
    if len(result) > ANCHOR_POSITIONS:
        pick = np.random.default_rng(seed).choice(len(result), ANCHOR_POSITIONS, replace=False)
        own, opp, result = own[pick], opp[pick], result[pick]
    W = W.copy()
    phases = W.shape[0]
    bias = pt.DENSE_BASE + pt.DENSE.index("bias")
    parity = pt.DENSE_BASE + pt.DENSE.index("parity")
    residual = result - pt.evaluate_many(own, opp, W)
    empties = 64 - pt._popcount(own | opp).astype(np.int64)
    phase = np.asarray(pt.phase_of(empties, phases))
    odd = (empties & 1) == 1
    change = np.zeros(phases)
    for p in range(phases):
        o, e = (phase == p) & odd, (phase == p) & ~odd
        if o.any() and e.any():
            change[p] = float(residual[o].mean() - residual[e].mean())
    W[:, parity] += change.astype(np.float32)
    W[:, bias] -= (change / 2).astype(np.float32)
    return W, change


__all__ = ["ANCHOR_POSITIONS", "Round", "anchor", "calibrate", "phase_shift", "phase_swing", "solve_shift", "swings"]
