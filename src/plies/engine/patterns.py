"""Pattern features of 8x8 Othello positions, in the style of Logistello and Edax.

A position is ``(own, opp)``: the bitboards of the side to move and of its opponent (a1 = bit 0, h8 = bit 63).
Each *pattern* is an ordered list of squares; its 8 board symmetries give its *instances* (duplicates dropped),
and all instances of a pattern share one weight table.  An instance reads its squares as a ternary number
(0 empty, 1 own, 2 opponent, first square most significant); configurations that a symmetry of the pattern
itself maps onto each other share a weight too ("folding").  A few dense features (a bias, the parity of the
empty squares, both sides' mobility) complete the linear model.  Weights depend on the game phase (number of
empty squares) and are in discs: the value predicts the final disc difference for the side to move.

Three implementations compute the same thing: ``evaluate_patterns`` (the compiled core, ``patterns.c``, for
searches), ``features`` (numpy, many positions at once, for fitting) and ``evaluate_python`` (plain Python,
the reference in tests).  The compiled sum over the 46 instances is generated from these tables
(``kernel_source``, written to ``src/plies/csrc/patterns_gen.h`` by ``tools/gen_pattern_kernel.py``).
"""

from __future__ import annotations

import weakref
from types import ModuleType
from typing import NoReturn

import numpy as np
from numpy.typing import NDArray

from plies.games.othello import legal_mask


class _MissingCore(ModuleType):
    """Stands in for the compiled core where it is not built: any use raises the ImportError that said so."""

    def __init__(self, error: ImportError) -> None:
        super().__init__("plies._core")
        self.error = str(error)

    def __getattr__(self, name: str) -> NoReturn:
        raise ImportError(self.error)


try:
    from plies.core import lib
except ImportError as e:  # no compiled core: the plain-Python reference (evaluate_python) still works
    lib = _MissingCore(e)

PATTERNS: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = (
    ("edge+2x", tuple((0, c) for c in range(8)) + ((1, 1), (1, 6))),
    ("corner3x3", tuple((r, c) for r in range(3) for c in range(3))),
    ("corner2x5", tuple((r, c) for r in range(2) for c in range(5))),
    ("line2", tuple((1, c) for c in range(8))),
    ("line3", tuple((2, c) for c in range(8))),
    ("line4", tuple((3, c) for c in range(8))),
    ("diag8", tuple((i, i) for i in range(8))),
    ("diag7", tuple((i, i + 1) for i in range(7))),
    ("diag6", tuple((i, i + 2) for i in range(6))),
    ("diag5", tuple((i, i + 3) for i in range(5))),
    ("diag4", tuple((i, i + 4) for i in range(4))),
)
"""(name, squares as (row, col)) of every pattern; row 0 is rank 1, col 0 is file a."""

DENSE = ("bias", "parity", "mobility", "opponent mobility", "potential mobility", "opponent potential mobility")
"""Dense features after the pattern weights: 1, empties odd (0/1), own and opponent legal moves, own and
opponent potential mobility (empty squares next to an opponent disc / next to an own disc)."""

DEFAULT_PHASES = 12
"""Phases of a weights file unless ``plies train fit --phases`` says otherwise."""

FORMAT_VERSION = 2


def _sym(g: int, r: int, c: int) -> tuple[int, int]:
    """Image of square (r, c) under board symmetry g (0 = identity, 8 in all)."""
    if g & 4:
        r, c = c, r
    if g & 1:
        c = 7 - c
    if g & 2:
        r = 7 - r
    return r, c


SYMMETRIES = np.array([[_sym(g, sq // 8, sq % 8)[0] * 8 + _sym(g, sq // 8, sq % 8)[1] for sq in range(64)]
                       for g in range(8)], dtype=np.int64)
"""SYMMETRIES[g, sq]: the square that ``sq`` goes to under symmetry g."""

INVERSE = np.argsort(SYMMETRIES, axis=1)
"""INVERSE[g, sq]: the square that symmetry g sends onto ``sq``."""


def _build() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Instances, folding tables and parameter offsets of ``PATTERNS``."""
    inst_sq: list[list[int]] = []
    inst_type: list[int] = []
    fold_parts: list[np.ndarray] = []
    raw_base: list[int] = []   # per type: offset of its raw indices in the fold table
    param_base: list[int] = []  # per type: offset of its parameters in a phase's weight vector
    raw_off = param_off = 0
    for t, (_, cells) in enumerate(PATTERNS):
        base = [r * 8 + c for r, c in cells]
        n = len(base)
        seen: set[frozenset[int]] = set()
        inner: list[list[int]] = []  # permutations of the pattern's own symmetries
        for g in range(8):
            image = [int(SYMMETRIES[g, s]) for s in base]
            key = frozenset(image)
            if key == frozenset(base):
                inner.append([base.index(s) for s in image])
            if key not in seen:
                seen.add(key)
                inst_sq.append(image)
                inst_type.append(t)
        # fold: raw index -> smallest raw index of its symmetric images
        size = 3 ** n
        raw = np.arange(size, dtype=np.int64)
        powers = 3 ** np.arange(n - 1, -1, -1, dtype=np.int64)
        digits = (raw[:, None] // powers[None, :]) % 3
        canon = raw.copy()
        for perm in inner:
            moved = np.zeros(size, dtype=np.int64)
            for i in range(n):  # digit i moves to position perm[i]
                moved += digits[:, i] * powers[perm[i]]
            canon = np.minimum(canon, moved)
        uniq, compact = np.unique(canon, return_inverse=True)
        fold_parts.append(compact.astype(np.int32) + param_off)
        raw_base.append(raw_off)
        param_base.append(param_off)
        raw_off += size
        param_off += len(uniq)
    width = max(len(s) for s in inst_sq)
    sq = np.full((len(inst_sq), width), -1, dtype=np.int64)
    for k, s in enumerate(inst_sq):
        sq[k, : len(s)] = s
    lengths = np.array([len(s) for s in inst_sq], dtype=np.int64)
    types = np.array(inst_type, dtype=np.int64)
    bases = np.array([raw_base[t] for t in inst_type], dtype=np.int64)
    return sq, lengths, types, bases, np.concatenate(fold_parts), np.array(param_base + [param_off])


INST_SQ, INST_LEN, INST_TYPE, INST_BASE, FOLD, TYPE_PARAM_BASE = _build()
N_INSTANCES = len(INST_LEN)
N_PATTERN_PARAMS = int(TYPE_PARAM_BASE[-1])
N_PARAMS = N_PATTERN_PARAMS + len(DENSE)
"""Parameters per phase: folded pattern configurations, then the dense features."""
DENSE_BASE = N_PATTERN_PARAMS
RAW_SIZE = len(FOLD)


def _by_square() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each square: the instances it belongs to and its power of 3 in each (evaluation walks the discs)."""
    lists: list[list[tuple[int, int]]] = [[] for _ in range(64)]
    for k in range(N_INSTANCES):
        n = int(INST_LEN[k])
        for j in range(n):
            lists[int(INST_SQ[k, j])].append((k, 3 ** (n - 1 - j)))
    width = max(len(x) for x in lists)
    inst = np.zeros((64, width), dtype=np.int64)
    power = np.zeros((64, width), dtype=np.int64)
    for sq, x in enumerate(lists):
        for t, (k, pw) in enumerate(x):
            inst[sq, t], power[sq, t] = k, pw
    return inst, power, np.array([len(x) for x in lists], dtype=np.int64)


SQ_INST, SQ_POWER, SQ_COUNT = _by_square()
"""Raw configurations of all patterns (the width of an expanded weight row, before the dense features)."""


def phase_of(empties: int | np.ndarray, n_phases: int) -> int | np.ndarray:
    """Phase of a position with ``empties`` empty squares: 0 at the start (60 empties) up to n_phases - 1."""
    return np.minimum(n_phases - 1, (60 - np.minimum(empties, 60)) * n_phases // 60)


# --- bit arithmetic of the numpy code (scalars or arrays) ----------------------------------------------------

_U = np.uint64
_M1 = _U(0x5555555555555555)
_M2 = _U(0x3333333333333333)
_M4 = _U(0x0F0F0F0F0F0F0F0F)
_H01 = _U(0x0101010101010101)
_S = tuple(_U(k) for k in range(10))


def _popcount(x: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """SWAR bit count of each uint64."""
    x = x - ((x >> _S[1]) & _M1)
    x = (x & _M2) + ((x >> _S[2]) & _M2)
    x = (x + (x >> _S[4])) & _M4
    return (x * _H01) >> _U(56)


# --- compiled evaluation: every instance is its pattern's base squares on a symmetric image of the board -----
# (see src/plies/csrc/patterns.c; the sum over the instances is unrolled in the generated patterns_gen.h)


def _fast_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Instances grouped by the symmetry that makes them their base pattern: (start of each symmetry's
    group (9,), type (K,), raw offset (K,)) and the binary-to-ternary table A (types, 1024)."""
    order: list[tuple[int, int, int]] = []
    for k in range(N_INSTANCES):
        t = int(INST_TYPE[k])
        base = [r * 8 + c for r, c in PATTERNS[t][1]]
        inst = [int(x) for x in INST_SQ[k, : int(INST_LEN[k])]]
        g = next(g for g in range(8) if [int(SYMMETRIES[g, s]) for s in base] == inst)
        order.append((g, t, int(INST_BASE[k])))
    order.sort()
    g_start = np.searchsorted(np.array([o[0] for o in order]), np.arange(9)).astype(np.int64)
    ternary = np.zeros((len(PATTERNS), 1024), dtype=np.int64)
    for t, (_, cells) in enumerate(PATTERNS):
        n = len(cells)
        for bits in range(1 << n):
            ternary[t, bits] = sum(3 ** (n - 1 - j) for j in range(n) if bits >> j & 1)
    return (g_start, np.array([o[1] for o in order], dtype=np.int64), np.array([o[2] for o in order], dtype=np.int64),
            ternary)


G_START, K_TYPE, K_BASE, TERNARY = _fast_tables()


def kernel_source() -> str:
    """Source of ``src/plies/csrc/patterns_gen.h``: the expanded-weights pattern sum unrolled, one line per
    instance with its symmetry, type and offset as constants, and the binary-to-ternary tables.
    ``python tools/gen_pattern_kernel.py`` writes it; a test checks it is up to date."""
    names = [n for n, _ in PATTERNS]
    out = ["/* Generated by tools/gen_pattern_kernel.py from plies.engine.patterns (do not edit): the sum of the",
           f" * {N_INSTANCES} pattern weights of a position for expanded weights, unrolled (see patterns.c). */",
           "#ifndef PLIES_PATTERNS_GEN_H",
           "#define PLIES_PATTERNS_GEN_H",
           "",
           f"#define PATTERN_RAW_SIZE {RAW_SIZE}",
           f"#define PATTERN_ROW_LEN {RAW_SIZE + len(DENSE)}",
           ""]
    for t, (name, cells) in enumerate(PATTERNS):
        n = len(cells)
        out.append(f"/* {name}: bits of the {n} base squares -> ternary value (own digit 1) */")
        out += _c_table(f"PATTERN_TERNARY_{t}", [int(v) for v in TERNARY[t, : 1 << n]])
    out += ["",
            "/* Sum of the pattern weights (row w of an expanded weight array) of the position own/opp, in the",
            " * order of the instances below (double accumulator). */",
            "static inline double pattern_sum(u64 own, u64 opp, const float *w) {",
            "    double s = 0.0;",
            "    u64 bo, bp;"]
    for g in range(8):
        if G_START[g] == G_START[g + 1]:
            continue
        out.append(f"    bo = pattern_image(own, {g});")
        out.append(f"    bp = pattern_image(opp, {g});")
        for k in range(int(G_START[g]), int(G_START[g + 1])):
            t, base = int(K_TYPE[k]), int(K_BASE[k])
            T = f"PATTERN_TERNARY_{t}"
            ex = f"{T}[pattern_extract({t}, bo)] + 2 * {T}[pattern_extract({t}, bp)]"
            out.append(f"    s += (double)w[{base} + {ex}]; /* {names[t]} */")
    out += ["    return s;", "}", ""]
    out += _pext_kernel(names)
    out += ["#endif"]
    return "\n".join(out) + "\n"


def _c_table(name: str, values: list[int]) -> list[str]:
    """A C ``uint16_t`` array, 16 values a line."""
    out = [f"static const uint16_t {name}[{len(values)}] = {{"]
    for i in range(0, len(values), 16):
        out.append("    " + ", ".join(str(v) for v in values[i:i + 16]) + ",")
    return out + ["};"]


def _pext_kernel(names: list[str]) -> list[str]:
    """The same sum, each instance's squares gathered from the board itself by one BMI2 ``pext`` (in square
    order) and turned into its ternary value by a table of that instance's digit powers: no board images, the
    same terms in the same order, so the same number.  A table serves every instance whose powers begin its own
    (pext leaves the bits above an instance's squares 0): the pattern tables first, then the longest new ones."""
    instances = []
    for g in range(8):
        for k in range(int(G_START[g]), int(G_START[g + 1])):
            t = int(K_TYPE[k])
            inst = [int(SYMMETRIES[g, r * 8 + c]) for r, c in PATTERNS[t][1]]
            n = len(inst)
            powers = tuple(3 ** (n - 1 - inst.index(sq)) for sq in sorted(inst))  # pext bit i -> digit power
            instances.append((t, int(K_BASE[k]), sum(1 << sq for sq in inst), powers))
    tables = {f"PATTERN_TERNARY_{t}": tuple(3 ** (len(sq) - 1 - j) for j in range(len(sq)))
              for t, (_, sq) in enumerate(PATTERNS)}
    shared = len(tables)
    name_of: dict[tuple[int, ...], str] = {}
    for powers in sorted({i[3] for i in instances}, key=len, reverse=True):
        name = next((m for m, q in tables.items() if q[: len(powers)] == powers), None)
        if name is None:
            name = f"PATTERN_PEXT_{len(tables) - shared}"
            tables[name] = powers
        name_of[powers] = name
    lines = []
    for t, base, mask, powers in instances:
        T = name_of[powers]
        lines.append(f"    s += (double)w[{base} + {T}[_pext_u64(own, 0x{mask:016X}ULL)] + "
                     f"2 * {T}[_pext_u64(opp, 0x{mask:016X}ULL)]]; /* {names[t]} */")
    out = ["#if defined(__BMI2__)",
           "#include <immintrin.h>",
           "",
           "/* The pattern sum with BMI2: bits of an instance's squares in square order -> its ternary value */"]
    for name, powers in list(tables.items())[shared:]:
        out += _c_table(name, [sum(pw for i, pw in enumerate(powers) if bits >> i & 1)
                               for bits in range(1 << len(powers))])
    out += ["",
            "/* pattern_sum by pext (fast on Intel from Haswell and AMD from Zen 3; see patterns.c) */",
            "static inline double pattern_sum_pext(u64 own, u64 opp, const float *w) {",
            "    double s = 0.0;"]
    out += lines
    out += ["    return s;", "}", "#endif", ""]
    return out


_EXPANDED: dict[int, tuple[weakref.ref, np.ndarray]] = {}


def _expanded(weights: np.ndarray) -> np.ndarray:
    """``weights`` in the expanded form the compiled code reads: as it is when already expanded (float32,
    C-contiguous), else expanded once per array (cached by identity: do not change a folded array in place
    between evaluations)."""
    if (isinstance(weights, np.ndarray) and weights.dtype == np.float32 and weights.ndim == 2
            and weights.shape[1] == RAW_SIZE + len(DENSE) and weights.flags.c_contiguous):
        return weights
    hit = _EXPANDED.get(id(weights))
    if hit is not None and hit[0]() is weights:
        return hit[1]
    w = np.asarray(weights)
    if w.ndim != 2 or w.shape[1] not in (N_PARAMS, RAW_SIZE + len(DENSE)):
        raise ValueError(f"pattern weights have shape {w.shape}; expected (phases, {N_PARAMS}) or (phases, "
                         f"{RAW_SIZE + len(DENSE)})")
    ex = expand_weights(w) if w.shape[1] == N_PARAMS else np.ascontiguousarray(w, dtype=np.float32)
    key = id(weights)

    def forget(r: weakref.ref) -> None:
        if _EXPANDED.get(key, (None,))[0] is r:
            del _EXPANDED[key]

    try:
        ref = weakref.ref(weights, forget)
    except TypeError:  # not weak-referenceable (a list ...): no cache
        return ex
    if len(_EXPANDED) > 16:
        _EXPANDED.clear()
    _EXPANDED[key] = (ref, ex)
    return ex


def evaluate_patterns(own: int | np.uint64, opp: int | np.uint64, weights: np.ndarray) -> float:
    """Predicted final disc difference for the side to move (float): ``own``/``opp`` bitboards (ints or
    numpy uint64), ``weights`` either the float32 array (phases, N_PARAMS) of ``load_weights()`` or its
    ``expand_weights`` form (phases, RAW_SIZE + 6), which the compiled code reads directly."""
    return lib.patterns_evaluate(own, opp, _expanded(weights))


def evaluate_compiled(own: np.ndarray, opp: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``evaluate_patterns`` of many positions in one compiled call (float64 array, the same values)."""
    own = np.ascontiguousarray(own, dtype=np.uint64)
    opp = np.ascontiguousarray(opp, dtype=np.uint64)
    if own.shape != opp.shape:
        raise ValueError("own and opp must have the same shape")
    out = np.empty(own.shape, dtype=np.float64)
    lib.patterns_evaluate_many(own.ravel(), opp.ravel(), _expanded(weights), out.reshape(-1))
    return out


def expand_weights(weights: np.ndarray) -> np.ndarray:
    """Weights indexed by raw pattern configuration (no folding table at evaluation time): float32
    (phases, RAW_SIZE + len(DENSE)), C-contiguous, for ``evaluate_patterns``."""
    w = np.asarray(weights, dtype=np.float32)
    return np.ascontiguousarray(np.concatenate([w[:, FOLD], w[:, DENSE_BASE:]], axis=1))


# --- numpy: many positions at once -------------------------------------------------------------------------


def features(own: np.ndarray, opp: np.ndarray, n_phases: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(parameter indices (N, N_INSTANCES) int32, dense features (N, len(DENSE)) float64, phase (N,))."""
    own = np.asarray(own, dtype=np.uint64)
    opp = np.asarray(opp, dtype=np.uint64)
    shifts = np.arange(64, dtype=np.uint64)
    cells = ((own[:, None] >> shifts) & _U(1)).astype(np.int64) + 2 * ((opp[:, None] >> shifts) & _U(1)).astype(
        np.int64
    )
    idx = np.empty((len(own), N_INSTANCES), dtype=np.int32)
    for k in range(N_INSTANCES):
        n = int(INST_LEN[k])
        powers = 3 ** np.arange(n - 1, -1, -1, dtype=np.int64)
        raw = cells[:, INST_SQ[k, :n]] @ powers
        idx[:, k] = FOLD[INST_BASE[k] + raw]
    empties = 64 - _popcount(own | opp).astype(np.int64)
    dense = np.empty((len(own), len(DENSE)), dtype=np.float64)
    dense[:, 0] = 1.0
    dense[:, 1] = empties & 1
    mobility = np.empty((len(own), 4), dtype=np.int64)  # the compiled core's move generator, n positions at once
    lib.mobility_many(np.ascontiguousarray(own), np.ascontiguousarray(opp), mobility)
    dense[:, 2:6] = mobility
    return idx, dense, np.asarray(phase_of(empties, n_phases))


def evaluate_many(own: np.ndarray, opp: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``evaluate_patterns`` of many positions with numpy (float64 array)."""
    idx, dense, phase = features(own, opp, weights.shape[0])
    w = weights.astype(np.float64)
    return w[phase[:, None], idx].sum(axis=1) + (w[phase, DENSE_BASE:] * dense).sum(axis=1)


# --- plain Python reference --------------------------------------------------------------------------------


def instance_indices(own: int, opp: int) -> list[int]:
    """Parameter index of every pattern instance of a position, computed square by square (reference)."""
    out = []
    for k in range(N_INSTANCES):
        raw = 0
        for j in range(int(INST_LEN[k])):
            sq = int(INST_SQ[k, j])
            raw = raw * 3 + (1 if own >> sq & 1 else 2 if opp >> sq & 1 else 0)
        out.append(int(FOLD[int(INST_BASE[k]) + raw]))
    return out


def evaluate_python(own: int, opp: int, weights: np.ndarray) -> float:
    """``evaluate_patterns`` in plain Python on Python-int bitboards (the reference the tests compare to)."""
    empties = 64 - (own | opp).bit_count()
    w = weights[int(phase_of(empties, weights.shape[0]))]
    s = sum(float(w[i]) for i in instance_indices(own, opp))
    s += float(w[DENSE_BASE])
    s += float(w[DENSE_BASE + 1]) * (empties & 1)
    s += float(w[DENSE_BASE + 2]) * legal_mask(own, opp, 8).bit_count()
    s += float(w[DENSE_BASE + 3]) * legal_mask(opp, own, 8).bit_count()
    s += float(w[DENSE_BASE + 4]) * _potential_python(own, opp)
    s += float(w[DENSE_BASE + 5]) * _potential_python(opp, own)
    return s


def _potential_python(own: int, opp: int) -> int:
    """Empty squares with an ``opp`` disc among their 8 neighbours, square by square."""
    count = 0
    for sq in range(64):
        if (own | opp) >> sq & 1:
            continue
        r, c = divmod(sq, 8)
        if any(opp >> (rr * 8 + cc) & 1 for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
               if 0 <= rr < 8 and 0 <= cc < 8 and (rr, cc) != (r, c)):
            count += 1
    return count


def describe() -> list[tuple[str, int, int, int]]:
    """(pattern, squares, instances, weights per phase) for documentation and ``plies train fit``."""
    rows = []
    for t, (name, cells) in enumerate(PATTERNS):
        rows.append((name, len(cells), int((INST_TYPE == t).sum()),
                     int(TYPE_PARAM_BASE[t + 1] - TYPE_PARAM_BASE[t])))
    return rows
