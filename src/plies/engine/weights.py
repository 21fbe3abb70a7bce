"""The learned evaluation's weights files: the shipped one (``plies/engine/data/weights.npz``, made by
``plies train``) or another written by ``plies train fit`` (``plies.train.fit.save_weights``).

A file is a compressed .npz with ``weights``, float32 (phases, N_PARAMS) in the stored (folded) form, and a
JSON ``meta``; ``load_expanded`` gives the expanded form the compiled evaluation reads.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from plies.engine import patterns as pt
from plies.game import PliesError

DATA_DIR = Path(__file__).parent / "data"
DEFAULT_WEIGHTS = DATA_DIR / "weights.npz"
"""The shipped weights."""


def load_weights(path: str | Path | None = None) -> np.ndarray:
    """Pattern weights (phases, N_PARAMS) float32 for ``evaluate_patterns``: the shipped file by default."""
    p = Path(path) if path is not None else DEFAULT_WEIGHTS
    try:
        with np.load(p) as z:
            w = z["weights"]
            meta = json.loads(str(z["meta"])) if "meta" in z else {}
    except FileNotFoundError:
        raise PliesError(f"no weights file {p}") from None
    except (OSError, ValueError, KeyError) as e:
        raise PliesError(f"{p} is not a weights file: {e}") from None
    if w.ndim != 2 or w.shape[1] != pt.N_PARAMS or meta.get("version", pt.FORMAT_VERSION) != pt.FORMAT_VERSION:
        raise PliesError(f"{p} was made for other patterns (shape {w.shape}, expected (phases, {pt.N_PARAMS}))")
    return np.ascontiguousarray(w, dtype=np.float32)


def weights_meta(path: str | Path | None = None) -> dict:
    """The JSON metadata of a weights file (data, settings and figures of the fit that made it)."""
    p = Path(path) if path is not None else DEFAULT_WEIGHTS
    with np.load(p) as z:
        return json.loads(str(z["meta"])) if "meta" in z else {}


def load_expanded(path: str | Path | None = None) -> np.ndarray:
    """A weights file (``plies train fit``; None: the shipped one) in the expanded form the search reads:
    float32 (phases, RAW_SIZE + 6), C-contiguous."""
    return np.ascontiguousarray(pt.expand_weights(load_weights(path)), dtype=np.float32)


__all__ = ["DATA_DIR", "DEFAULT_WEIGHTS", "load_expanded", "load_weights", "weights_meta"]
