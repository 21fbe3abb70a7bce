"""Multi-ProbCut statistics: how well a shallow search predicts a deep one (Buro 1997), as the engine reads them.

A selective search cuts a node of depth d when a search of depth d' < d predicts, with confidence t standard
deviations, that the depth-d value falls outside the window.  The prediction is linear,
``v_d ~ a * v_d' + b`` with spread ``sigma``, and it depends on the phase (empties) and the depths; the exact
solver's selective passes predict the final score the same way (depth "to the end", row ``EXACT``).  The
numbers come from plies' own searches (``plies train probcut``, ``plies.train.probcut``) and ship as
``src/plies/engine/data/probcut.json`` beside the weights they were measured with.

The file holds, for each (depth, shallow depth), a model of the three numbers as functions of the empties
(polynomials, fitted to the measured cells); ``Statistics.table`` expands them into the dense array the
compiled search reads (``MPC_CELLS`` doubles, ``csrc/search.h``): for empties 0-60 and depth 0-63, the shallow
depth, slope, offset and sigma, then the slope, offset and sigma of the static evaluation's prediction.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

import numpy as np

from plies.game import PliesError

DATA_DIR = Path(__file__).parent / "data"
DEFAULT_STATISTICS = DATA_DIR / "probcut.json"
"""The shipped statistics (for the shipped weights)."""

FORMAT = "plies-probcut"
VERSION = 1
DEPTHS = 64  # MPC_DEPTHS in csrc/search.h
COLUMNS = 8  # MPC_COLUMNS
EMPTIES = 61
CELLS = EMPTIES * DEPTHS * COLUMNS
EXACT = DEPTHS - 1
"""The depth row that predicts the exact final score (the solver's selective searches)."""
MIN_SIGMA = 0.5
"""No spread below this (discs): a cell fitted from too few positions must not make the cuts reckless."""


class ModelData(TypedDict):
    """A Model's JSON (``lo``, ``hi``: None where unbounded)."""

    coefficients: list[float]
    lo: float | None
    hi: float | None


class PairData(TypedDict):
    """A Pair's JSON."""

    depth: int
    shallow: int
    empties: list[int]
    slope: ModelData
    offset: ModelData
    sigma: ModelData


class StatisticsData(TypedDict):
    """A statistics file's JSON (``Statistics.to_dict``)."""

    format: str
    version: int
    meta: dict[str, Any]
    pairs: list[PairData]
    static: list[PairData]


def shallow_depth(depth: int) -> int:
    """The shallow search's depth for a depth-``depth`` node: about half of it, of the same parity (a value
    searched to an odd depth ends on the other side's move, and must be compared with one that does too)."""
    d = 2 * (depth // 4) + (depth & 1)
    if d == 0:
        d = depth - 2
    return d


@dataclass(frozen=True)
class Model:
    """A quantity as a function of the empties: a polynomial in ``x = empties / 60``, clipped to [lo, hi]."""

    coefficients: tuple[float, ...]
    lo: float = -math.inf
    hi: float = math.inf

    def __call__(self, empties: np.ndarray | float) -> np.ndarray:
        x = np.asarray(empties, dtype=np.float64) / 60.0
        y = np.zeros_like(x)
        for c in reversed(self.coefficients):
            y = y * x + c
        return np.clip(y, self.lo, self.hi)

    def to_dict(self) -> ModelData:
        return {"coefficients": [round(c, 6) for c in self.coefficients], "lo": _finite(self.lo),
                "hi": _finite(self.hi)}

    @classmethod
    def from_dict(cls, d: object, where: str) -> Model:
        if not isinstance(d, dict) or not isinstance(d.get("coefficients"), list) or not d["coefficients"]:
            raise PliesError(f"{where}: a model needs a list of coefficients")
        cs = d["coefficients"]
        if not all(isinstance(c, int | float) and math.isfinite(c) for c in cs):
            raise PliesError(f"{where}: coefficients must be finite numbers")
        lo = _number(d.get("lo", None), -math.inf, where)
        hi = _number(d.get("hi", None), math.inf, where)
        if lo > hi:
            raise PliesError(f"{where}: lo above hi")
        return cls(tuple(float(c) for c in cs), lo, hi)


@dataclass(frozen=True)
class Pair:
    """The statistics of one (depth, shallow depth) pair over a range of empties."""

    depth: int
    shallow: int
    slope: Model
    offset: Model
    sigma: Model
    empties: tuple[int, int]  # the range it was measured on (outside it the models are extended flat)

    def to_dict(self) -> PairData:
        return {"depth": self.depth, "shallow": self.shallow, "empties": list(self.empties),
                "slope": self.slope.to_dict(), "offset": self.offset.to_dict(), "sigma": self.sigma.to_dict()}

    @classmethod
    def from_dict(cls, d: object, where: str) -> Pair:
        if not isinstance(d, dict):
            raise PliesError(f"{where}: not an object")
        depth, shallow = d.get("depth"), d.get("shallow")
        if type(depth) is not int or not 1 <= depth <= EXACT:
            raise PliesError(f"{where}: depth must be a whole number from 1 to {EXACT}")
        if type(shallow) is not int or not 0 <= shallow < depth:
            raise PliesError(f"{where}: shallow depth must be a whole number below the depth")
        e = d.get("empties")
        if not (isinstance(e, list) and len(e) == 2 and all(type(x) is int for x in e) and 0 <= e[0] <= e[1] <= 60):
            raise PliesError(f"{where}: empties must be [low, high] within 0-60")
        return cls(depth, shallow, Model.from_dict(d.get("slope"), f"{where} slope"),
                   Model.from_dict(d.get("offset"), f"{where} offset"),
                   Model.from_dict(d.get("sigma"), f"{where} sigma"), (e[0], e[1]))


@dataclass
class Statistics:
    """The statistics of one evaluation's weights: midgame pairs (depth -> shallow depth and models), the
    static evaluation's prediction of each depth, and the exact score's prediction for the solver."""

    pairs: dict[int, Pair]           # by depth (EXACT: the final score)
    static: dict[int, Pair]          # by depth: the depth-d value from the static evaluation (shallow 0)
    meta: dict[str, Any] = field(default_factory=dict)
    path: str = ""
    _table: np.ndarray | None = None

    @property
    def table(self) -> np.ndarray:
        """The dense float64 array of ``CELLS`` the compiled search reads (made once)."""
        if self._table is None:
            self._table = self._expand()
        return self._table

    def _expand(self) -> np.ndarray:
        t = np.zeros((EMPTIES, DEPTHS, COLUMNS), dtype=np.float64)
        e = np.arange(EMPTIES, dtype=np.float64)
        for depth in range(1, DEPTHS):
            if depth == EXACT:
                pair, stat = self.pairs.get(EXACT), self.static.get(EXACT)
            else:
                pair = _nearest(self.pairs, depth, pc_parity=True)
                stat = _nearest(self.static, depth, pc_parity=False)
                if pair is not None and pair.depth != depth:
                    pair = _deeper(pair, depth)
                if stat is not None and stat.depth != depth:
                    stat = _deeper(stat, depth, shallow=0)
            if pair is None:
                continue
            lo, hi = pair.empties
            ec = np.clip(e, lo, hi)
            t[:, depth, 0] = pair.shallow
            t[:, depth, 1] = pair.slope(ec)
            t[:, depth, 2] = pair.offset(ec)
            t[:, depth, 3] = np.maximum(MIN_SIGMA, pair.sigma(ec))
            if stat is not None:
                slo, shi = stat.empties
                es = np.clip(e, slo, shi)
                t[:, depth, 4] = stat.slope(es)
                t[:, depth, 5] = stat.offset(es)
                t[:, depth, 6] = np.maximum(MIN_SIGMA, stat.sigma(es))
            else:  # no static statistics: never skip a shallow search
                t[:, depth, 4] = 1.0
                t[:, depth, 6] = 1e9
        # a depth beyond what is left of the game is not cut (its search reaches the end anyway)
        for empties in range(EMPTIES):
            t[empties, empties + 1:EXACT, 0] = 0
        return np.ascontiguousarray(t.reshape(-1))

    def to_dict(self) -> StatisticsData:
        return {"format": FORMAT, "version": VERSION, "meta": self.meta,
                "pairs": [p.to_dict() for _, p in sorted(self.pairs.items())],
                "static": [p.to_dict() for _, p in sorted(self.static.items())]}

    def write(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")


def _nearest(pairs: dict[int, Pair], depth: int, pc_parity: bool) -> Pair | None:
    """The measured pair for a midgame ``depth``: its own, else the deepest one below it whose values end on
    the same side's move (the parity of the shallow depth, or of the depth itself for the static statistics:
    offsets differ by parity); None if nothing is measured below."""
    if depth in pairs:
        return pairs[depth]
    want = shallow_depth(depth) % 2 if pc_parity else depth % 2
    below = [d for d in pairs if d < depth and d != EXACT
             and (pairs[d].shallow % 2 if pc_parity else d % 2) == want]
    return pairs[max(below)] if below else None


def _deeper(pair: Pair, depth: int, shallow: int | None = None) -> Pair:
    """A measured ``pair`` extended to a deeper ``depth``: the same slope and offset; the spread of a shallow
    search of about half the depth stays as measured (it hardly changes from depth 4 to 12: the deeper search
    and the deeper shallow one err alike), the static evaluation's grows with the square root of the depth."""
    scale = 1.0 if shallow is None else math.sqrt(depth / pair.depth)
    s = pair.sigma
    sigma = Model(tuple(c * scale for c in s.coefficients), s.lo * scale if math.isfinite(s.lo) else s.lo,
                  s.hi * scale if math.isfinite(s.hi) else s.hi)
    return Pair(depth, shallow_depth(depth) if shallow is None else shallow, pair.slope, pair.offset, sigma,
                pair.empties)


def _finite(x: float) -> float | None:
    return None if not math.isfinite(x) else round(x, 6)


def _number(x: object, default: float, where: str) -> float:
    if x is None:
        return default
    if not isinstance(x, int | float) or not math.isfinite(x):
        raise PliesError(f"{where}: lo and hi must be numbers or null")
    return float(x)


def weights_digest(path: str | Path) -> str:
    """The first 16 hex digits of a weights file's SHA-256: which weights statistics were measured with."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def parse_statistics(data: object, where: str) -> Statistics:
    """Statistics from the parsed JSON of a statistics file; PliesError naming ``where`` if malformed."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PliesError(f"{where} is not a plies probcut statistics file")
    if data.get("version") != VERSION:
        raise PliesError(f"{where}: statistics format version {data.get('version')!r}, this plies reads {VERSION}")
    pairs: dict[int, Pair] = {}
    static: dict[int, Pair] = {}
    for key, into in (("pairs", pairs), ("static", static)):
        items = data.get(key)
        if not isinstance(items, list):
            raise PliesError(f"{where}: no list of {key}")
        for k, item in enumerate(items):
            p = Pair.from_dict(item, f"{where}: {key}[{k}]")
            if p.depth in into:
                raise PliesError(f"{where}: {key} has depth {p.depth} twice")
            if key == "static" and p.shallow != 0:
                raise PliesError(f"{where}: static statistics must have shallow depth 0")
            into[p.depth] = p
    raw_meta = data.get("meta")
    meta: dict[str, Any] = raw_meta if isinstance(raw_meta, dict) else {}
    stats = Statistics(pairs, static, meta, where)
    table = stats.table
    if not np.all(np.isfinite(table)):
        raise PliesError(f"{where}: the statistics give values that are not finite")
    return stats


def load_statistics(path: str | Path | None = None) -> Statistics:
    """A statistics file (None: the shipped one); PliesError with one line for a missing or malformed file."""
    p = Path(path) if path is not None else DEFAULT_STATISTICS
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PliesError(f"no probcut statistics file {p}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise PliesError(f"cannot read probcut statistics {p}: {e}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise PliesError(f"{p} is not a plies probcut statistics file (not JSON: {e.msg})") from None
    return parse_statistics(data, str(p))


def check_measured_with(stats: Statistics, weights: str | Path | None) -> None:
    """PliesError when ``stats`` says it was measured with other weights than ``weights`` (None: the shipped
    ones): its cuts would prune with another evaluation's error model.  A file that names no weights passes."""
    from plies.engine.weights import DEFAULT_WEIGHTS

    measured = stats.meta.get("weights_sha256")
    if measured is None:
        return
    using = weights_digest(weights if weights is not None else DEFAULT_WEIGHTS)
    if measured != using:
        raise PliesError(f"{stats.path} was measured with other weights ({measured}; these are {using}): give "
                         "the statistics plies train probcut measured for them")


_SHIPPED: list[Statistics] = []


def shipped() -> Statistics:
    """The shipped statistics, read once a process."""
    if not _SHIPPED:
        _SHIPPED.append(load_statistics(None))
    return _SHIPPED[0]


__all__ = ["CELLS", "DEFAULT_STATISTICS", "EXACT", "Model", "Pair", "Statistics", "check_measured_with",
           "load_statistics", "parse_statistics", "shallow_depth", "shipped", "weights_digest"]
