"""Pattern features: symmetric positions score alike; numba, numpy and plain Python agree."""

from __future__ import annotations

import numpy as np

from plies.games.othello import legal_mask
from plies.train import patterns as pt
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


def test_numba_equals_python_equals_numpy(positions) -> None:
    w = _weights(phases=7, seed=3)
    own = np.array([s.own_opp()[0] for s in positions], dtype=np.uint64)
    opp = np.array([s.own_opp()[1] for s in positions], dtype=np.uint64)
    many = pt.evaluate_many(own, opp, w)
    expanded = pt.expand_weights(w)
    assert expanded.shape == (7, pt.RAW_SIZE + len(pt.DENSE))
    for k, state in enumerate(positions):
        o, p = state.own_opp()
        ref = pt.evaluate_python(o, p, w)
        assert np.isclose(pt.evaluate_patterns(np.uint64(o), np.uint64(p), w), ref, rtol=1e-9, atol=1e-6)
        assert np.isclose(pt.evaluate_patterns(np.uint64(o), np.uint64(p), expanded), ref, rtol=1e-9, atol=1e-6)
        assert np.isclose(many[k], ref, rtol=1e-9, atol=1e-6)


def test_compiled_mobility_matches_the_rules(positions) -> None:
    for state in positions:
        own, opp = state.own_opp()
        assert int(pt.moves_nb(np.uint64(own), np.uint64(opp))) == legal_mask(own, opp, 8)
        assert int(pt.popcount_nb(np.uint64(own))) == own.bit_count()


def test_phases_run_from_opening_to_end() -> None:
    assert pt.phase_of(60, 12) == 0
    assert pt.phase_of(0, 12) == 11
    assert pt.phase_of(64, 12) == 0
    phases = [int(pt.phase_of(e, 12)) for e in range(60, -1, -1)]
    assert phases == sorted(phases)
    assert set(phases) == set(range(12))


def test_generated_kernel_is_up_to_date() -> None:
    """pattern_kernel.py is what tools/gen_pattern_kernel.py writes from the current pattern tables."""
    from pathlib import Path

    import plies.train.pattern_kernel as kernel

    assert Path(kernel.__file__).read_text(encoding="utf-8") == pt.kernel_source()
