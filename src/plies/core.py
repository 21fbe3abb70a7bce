"""The compiled core: ``lib`` is the C extension built for this CPU (``plies._core_avx2`` where the CPU has
AVX2 and BMI2, else ``plies._core``).  Set ``PLIES_CORE=baseline`` to force the portable build."""

from __future__ import annotations

import os
from types import ModuleType

try:
    from plies import _core as _baseline
except ImportError as e:  # installed without a C compiler: the rules fall back to pure Python, the engine cannot
    raise ImportError(
        "plies' compiled core (plies._core) is not built: install a C compiler (Debian/Ubuntu: apt install gcc "
        "python3-dev) and reinstall plies (pip install -e .)"
    ) from e


def _choose() -> ModuleType:
    if os.environ.get("PLIES_CORE", "").lower() in ("baseline", "portable"):
        return _baseline
    if _baseline.cpu_has_avx2():
        try:
            from plies import _core_avx2
        except ImportError:  # built without it (not x86-64)
            return _baseline
        return _core_avx2
    return _baseline


lib: ModuleType = _choose()
"""The compiled core module in use (its functions are documented in ``src/plies/csrc``)."""

__all__ = ["lib"]
