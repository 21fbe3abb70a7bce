"""The HexThello engine's learned evaluation: a linear model per game phase, fitted to the final disc difference
of self-play games (``plies.train.hexthello``, ``plies train hexthello``).

Features, from the side to move's view (computed by the compiled kernels, ``kernels.features``):

- dense: a bias, both sides' mobility, both sides' potential mobility (empty cells beside the other side's
  discs, counted per direction), the parity of the empties, and for each side the wipe-out guard
  ``max(0, 10 - discs)**2``;
- discs per cell class (``kernels.CLASSES``: the cells one symmetry of the hexagon maps onto each other), mine
  and the opponent's;
- the six edge lines (``kernels.EDGES``: an edge's 8 cells and the inner cell beside each of its two corners),
  one shared table of 3^10 configurations; a line read backwards shares its weight (a reflection).

To the weights' sum the search adds a fixed wipe-out guard (``kernels.wipeout_guard``), ``kernels.GUARD``
units (2.5 discs) per unit of the opponent's guard, counted on the discs it keeps after the greediest move of
the side to move, minus one's own: the self-play games hardly hold a wipe-out, so the fitted guard weights
cannot learn how fast one comes (see docs/hexthello.md for what the guard changed against which agents).

A weights file is a compressed .npz with ``weights``, float32 (PHASES, N_PARAMS) in the stored form below (in
discs), and a JSON ``meta``.  ``expand`` turns it into the int32 (PHASES, ROW) rows the search reads, in
1/EVAL_SCALE discs.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

from plies.game import PliesError
from plies.hexsearch import kernels as k

DATA_DIR = Path(__file__).parent / "data"
DEFAULT_WEIGHTS = DATA_DIR / "hexthello_eval.npz"
"""The shipped weights."""
FORMAT = "hexthello-linear-1"


def _edge_canon() -> tuple[np.ndarray, int]:
    """For each edge configuration the index of its weight in the stored form (a configuration and its reverse
    share one), and how many there are."""
    idx = np.arange(k.EDGE_CONFIGS)
    digits = (idx[:, None] // 3 ** np.arange(k.EDGE_LEN)) % 3
    rev = (digits[:, ::-1] * 3 ** np.arange(k.EDGE_LEN)).sum(axis=1)
    canon = np.minimum(idx, rev)
    uniq, inverse = np.unique(canon, return_inverse=True)
    return inverse.astype(np.int64), len(uniq)


EDGE_INDEX, N_EDGE = _edge_canon()
N_DENSE = len(k.DENSE)
N_CLASSES = k.N_CLASSES
N_PARAMS = N_DENSE + 2 * N_CLASSES + N_EDGE
"""Stored weights per phase: dense, my discs per class, the opponent's per class, the folded edge table."""


def stored_columns(feat: np.ndarray, edge: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A position's features (rows of ``kernels.features``) in the stored form: the dense columns (n, N_DENSE +
    2 * N_CLASSES) and the stored edge weight each line reads (n, 6), offsets from N_DENSE + 2 * N_CLASSES."""
    cols = np.concatenate([feat[:, :N_DENSE], feat[:, N_DENSE:N_DENSE + N_CLASSES],
                           feat[:, N_DENSE + k.MAX_CLASSES:N_DENSE + k.MAX_CLASSES + N_CLASSES]], axis=1)
    return cols, EDGE_INDEX[edge]


def expand(weights: np.ndarray) -> np.ndarray:
    """Stored weights (PHASES, N_PARAMS) in discs -> the search's int32 rows (PHASES, ROW) in 1/EVAL_SCALE
    discs."""
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (k.PHASES, N_PARAMS):
        raise PliesError(f"HexThello weights are ({k.PHASES}, {N_PARAMS}), not {w.shape}")
    out = np.zeros((k.PHASES, k.ROW), dtype=np.float64)
    out[:, :N_DENSE] = w[:, :N_DENSE]
    out[:, N_DENSE:N_DENSE + N_CLASSES] = w[:, N_DENSE:N_DENSE + N_CLASSES]
    out[:, N_DENSE + k.MAX_CLASSES:N_DENSE + k.MAX_CLASSES + N_CLASSES] = w[:, N_DENSE + N_CLASSES:
                                                                            N_DENSE + 2 * N_CLASSES]
    out[:, k.N_FEAT:] = w[:, N_DENSE + 2 * N_CLASSES:][:, EDGE_INDEX]
    return np.ascontiguousarray(np.rint(out * k.EVAL_SCALE), dtype=np.int32)


def save_weights(path: str | Path, weights: np.ndarray, meta: dict) -> None:
    """Write stored weights (PHASES, N_PARAMS) and their metadata (JSON) as a compressed .npz."""
    w = np.asarray(weights, dtype=np.float32)
    expand(w)  # checks the shape
    np.savez_compressed(path, weights=w, meta=np.array(json.dumps({"format": FORMAT, **meta})))


def load_weights(path: str | Path | None = None) -> np.ndarray:
    """Stored weights (PHASES, N_PARAMS) float32 of a file (None: the shipped one)."""
    p = Path(path) if path is not None else DEFAULT_WEIGHTS
    try:
        with np.load(p) as z:
            w = z["weights"]
            meta = json.loads(str(z["meta"]))
    except FileNotFoundError:
        raise PliesError(f"no HexThello weights file {p}") from None
    except (OSError, ValueError, KeyError, EOFError) as e:
        raise PliesError(f"{p} is not a HexThello weights file: {e}") from None
    if meta.get("format") != FORMAT or w.shape != (k.PHASES, N_PARAMS):
        raise PliesError(f"{p} is not a {FORMAT} weights file (shape {w.shape})")
    return np.ascontiguousarray(w, dtype=np.float32)


def weights_meta(path: str | Path | None = None) -> dict:
    """The JSON metadata of a weights file (the data, settings and figures of the fit that made it)."""
    p = Path(path) if path is not None else DEFAULT_WEIGHTS
    with np.load(p) as z:
        return dict(json.loads(str(z["meta"])))


@cache
def shipped() -> np.ndarray:
    """The shipped weights, expanded (read on first use)."""
    return expand(load_weights())


def load_expanded(path: str | Path | None = None) -> np.ndarray:
    """A weights file (None: the shipped one) in the search's expanded form."""
    return shipped() if path is None else expand(load_weights(path))


__all__ = ["DEFAULT_WEIGHTS", "N_PARAMS", "expand", "load_expanded", "load_weights", "save_weights",
           "stored_columns", "weights_meta"]
