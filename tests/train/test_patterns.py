"""Pattern features: symmetric positions score alike; the compiled code, numpy and plain Python agree."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from plies.engine import patterns as pt
from plies.games.othello import legal_mask
from plies.train.book import transform


def _weights(phases: int = 12, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(phases, pt.N_PARAMS)).astype(np.float32)


def test_instances_cover_the_board_and_sizes_add_up() -> None:
    covered = {int(s) for row, n in zip(pt.INST_SQ, pt.INST_LEN, strict=True) for s in row[:n]}
    assert covered == set(range(64))
    assert pt.N_INSTANCES == 46
    assert sum(r[3] for r in pt.describe()) == pt.N_PATTERN_PARAMS
    assert pt.N_PARAMS == pt.N_PATTERN_PARAMS + len(pt.DENSE)


def test_every_symmetry_gives_the_same_value(positions) -> None:
    w = _weights()
    for state in positions[:60]:
        own, opp = state.own_opp()
        v = pt.evaluate_python(own, opp, w)
        for g in range(1, 8):
            assert np.isclose(pt.evaluate_python(transform(own, g), transform(opp, g), w), v)


def test_symmetric_instances_share_index_multisets(positions) -> None:
    for state in positions[:60]:
        own, opp = state.own_opp()
        base = sorted(pt.instance_indices(own, opp))
        for g in (1, 4, 7):
            assert sorted(pt.instance_indices(transform(own, g), transform(opp, g))) == base


def _raw(digits: list[int]) -> int:
    r = 0
    for d in digits:
        r = r * 3 + d
    return r


def test_folding_merges_exactly_the_mirror_images_within_a_pattern() -> None:
    rng = np.random.default_rng(1)
    for t, (name, cells) in enumerate(pt.PATTERNS):
        k = int(np.flatnonzero(pt.INST_TYPE == t)[0])
        n = len(cells)
        base = int(pt.INST_BASE[k])
        sq = [int(s) for s in pt.INST_SQ[k, :n]]
        inner = [g for g in range(8) if {int(pt.SYMMETRIES[g, s]) for s in sq} == set(sq)]
        for _ in range(50):
            digits = [int(d) for d in rng.integers(0, 3, n)]
            cell = dict(zip(sq, digits, strict=True))
            for g in inner:  # the configuration seen through a symmetry that keeps the pattern's squares
                image = {int(pt.SYMMETRIES[g, s]): d for s, d in cell.items()}
                assert pt.FOLD[base + _raw([image[s] for s in sq])] == pt.FOLD[base + _raw(digits)], name
        # number of weights = number of orbits (Burnside's count of configurations up to those symmetries)
        fixed = 0
        for g in inner:
            perm = {s: int(pt.SYMMETRIES[g, s]) for s in sq}
            seen, cycles = set(), 0
            for s in sq:
                if s not in seen:
                    cycles += 1
                    while s not in seen:
                        seen.add(s)
                        s = perm[s]
            fixed += 3**cycles
        assert pt.TYPE_PARAM_BASE[t + 1] - pt.TYPE_PARAM_BASE[t] == fixed // len(inner), name


def test_compiled_equals_python_equals_numpy(positions) -> None:
    w = _weights(phases=7, seed=3)
    own = np.array([s.own_opp()[0] for s in positions], dtype=np.uint64)
    opp = np.array([s.own_opp()[1] for s in positions], dtype=np.uint64)
    many = pt.evaluate_many(own, opp, w)
    expanded = pt.expand_weights(w)
    assert expanded.shape == (7, pt.RAW_SIZE + len(pt.DENSE))
    batch = pt.evaluate_compiled(own, opp, w)
    for k, state in enumerate(positions):
        o, p = state.own_opp()
        ref = pt.evaluate_python(o, p, w)
        v = pt.evaluate_patterns(np.uint64(o), np.uint64(p), expanded)
        assert np.isclose(v, ref, rtol=1e-9, atol=1e-6)
        assert pt.evaluate_patterns(o, p, w) == v  # folded weights: expanded on the way, the same number
        assert batch[k] == v
        assert np.isclose(many[k], ref, rtol=1e-9, atol=1e-6)


def test_compiled_evaluation_checks_its_weights() -> None:
    with pytest.raises(ValueError):
        pt.evaluate_patterns(1, 2, np.zeros((2, 5), dtype=np.float32))
    with pytest.raises(ValueError):  # the compiled function takes only the expanded form
        pt.lib.patterns_evaluate(1, 2, np.zeros((2, pt.N_PARAMS), dtype=np.float32))
    with pytest.raises(TypeError):
        pt.lib.patterns_evaluate(1, 2, np.zeros((2, pt.RAW_SIZE + len(pt.DENSE)), dtype=np.float64))


def test_folded_weights_are_expanded_once_per_array() -> None:
    w = _weights(phases=2, seed=5)
    assert pt._expanded(w) is pt._expanded(w)
    ex = pt.expand_weights(w)
    assert pt._expanded(ex) is ex


def test_batch_mobility_matches_the_rules(positions) -> None:
    """The dense features of many positions at once (the compiled core's move generator) equal the rules'."""
    from plies.core import lib

    own = np.array([s.own_opp()[0] for s in positions], dtype=np.uint64)
    opp = np.array([s.own_opp()[1] for s in positions], dtype=np.uint64)
    out = np.empty((len(positions), 4), dtype=np.int64)
    lib.mobility_many(own, opp, out)
    for k, state in enumerate(positions):
        o, p = state.own_opp()
        assert out[k, 0] == legal_mask(o, p, 8).bit_count()
        assert out[k, 1] == legal_mask(p, o, 8).bit_count()
        assert out[k, 2] == pt._potential_python(o, p) and out[k, 3] == pt._potential_python(p, o)
        assert int(pt._popcount(own[k : k + 1])[0]) == o.bit_count()


def test_phases_run_from_opening_to_end() -> None:
    assert pt.phase_of(60, 12) == 0
    assert pt.phase_of(0, 12) == 11
    assert pt.phase_of(64, 12) == 0
    phases = [int(pt.phase_of(e, 12)) for e in range(60, -1, -1)]
    assert phases == sorted(phases)
    assert set(phases) == set(range(12))


def test_generated_kernel_is_up_to_date() -> None:
    """csrc/patterns_gen.h is what tools/gen_pattern_kernel.py writes from the current pattern tables."""
    import plies

    header = Path(plies.__file__).parent / "csrc" / "patterns_gen.h"
    if not header.exists():
        pytest.skip("no C sources next to the installed package")
    assert header.read_text(encoding="utf-8") == pt.kernel_source()
