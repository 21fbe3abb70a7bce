"""Weights averaged over several fits (``plies train average``).

The learned evaluation is linear in its weights, so the mean of several weight files evaluates every position
to the mean of their values: an ensemble of fits for the price of one evaluation.  Fits of the same model to
different games, or from different starts (fresh, tuned), err in different ways, and their mean errs less than
each (docs/training.md, round 5).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from plies.engine.probcut import weights_digest
from plies.engine.weights import load_weights, weights_meta
from plies.game import PliesError


def average_weights(paths: Sequence[str | Path]) -> tuple[np.ndarray, dict[str, Any]]:
    """The mean of two or more weights files of the same shape (phases, N_PARAMS), float32, and the metadata
    that names them (file, SHA-256 digest, positions and held-out error of each); PliesError otherwise."""
    if len(paths) < 2:
        raise PliesError("averaging needs two or more weights files")
    arrays = [load_weights(p) for p in paths]
    shapes = {a.shape for a in arrays}
    if len(shapes) > 1:
        listed = ", ".join(f"{p}: {a.shape[0]} phases" for p, a in zip(paths, arrays, strict=True))
        raise PliesError(f"these weights files have different numbers of phases ({listed}); average like with like")
    mean = np.asarray(np.mean(np.stack(arrays), axis=0, dtype=np.float32))  # float32 throughout: the same bits
    parts: list[dict[str, Any]] = []
    positions = 0
    for p in paths:
        m = weights_meta(p)
        data = m.get("data")  # file names only: where they lay on the machine that fitted them says nothing
        parts.append({"file": Path(p).name, "sha256": weights_digest(p), "positions": m.get("positions"),
                      "held_out_mae": m.get("held_out_mae"), "tune": m.get("tune"),
                      "data": [Path(str(d)).name for d in data] if isinstance(data, list) else None})
        positions += int(m.get("positions") or 0)
    return mean, {"average_of": parts, "positions": positions}


__all__ = ["average_weights"]
