"""The compiled core: ``lib`` is the C extension built for this CPU (``plies._core_avx512`` where the CPU has
AVX-512, ``plies._core_avx2`` where it has AVX2 and BMI2, else ``plies._core``).  ``PLIES_CORE=baseline`` (or
``avx2``) caps the choice; ``PLIES_CORE=none`` makes plies run as where the core was not built (importing this
module raises ImportError: the rules, the evaluations and the searches fall back to pure Python)."""

from __future__ import annotations

import os
from types import ModuleType

if os.environ.get("PLIES_CORE", "").strip().lower() == "none":
    raise ImportError("plies' compiled core is switched off (PLIES_CORE=none)", name="plies._core")
try:
    from plies import _core as _baseline
except ImportError as e:  # installed without a C compiler: the rules fall back to pure Python, the engine cannot
    raise ImportError(
        "plies' compiled core (plies._core) is not built: install a C compiler (Debian/Ubuntu: apt install gcc "
        "python3-dev) and reinstall plies (pip install -e .)"
    ) from e


def _build(name: str) -> ModuleType | None:
    import importlib

    try:
        return importlib.import_module(f"plies.{name}")
    except ImportError:  # not built on this platform (not x86-64)
        return None


def _choose() -> ModuleType:
    cap = os.environ.get("PLIES_CORE", "").lower()
    if cap in ("baseline", "portable"):
        return _baseline
    if cap != "avx2" and _baseline.cpu_has_avx512():
        module = _build("_core_avx512")
        if module is not None:
            return module
    if _baseline.cpu_has_avx2():
        module = _build("_core_avx2")
        if module is not None:
            return module
    return _baseline


lib: ModuleType = _choose()
"""The compiled core module in use (its functions are documented in ``src/plies/csrc``)."""

__all__ = ["lib"]
