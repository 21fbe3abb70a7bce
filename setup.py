"""Build the compiled core (``plies._core``) with the system C compiler.

One C translation unit (``src/plies/csrc/module.c``) is compiled twice on x86-64: ``plies._core`` for any
x86-64 CPU and ``plies._core_avx2`` with AVX2/BMI2 (x86-64-v3), which ``plies.core`` loads when the CPU has
them.  Elsewhere (e.g. ARM) only ``plies._core`` is built, for the compiler's default target.
"""

from __future__ import annotations

import platform
from pathlib import Path

from setuptools import Extension, setup

CSRC = Path("src/plies/csrc")
DEPENDS = sorted(str(p) for p in CSRC.glob("*.[ch]"))
COMMON = ["-O2", "-g0", "-std=gnu11", "-fno-strict-aliasing", "-Wno-unused-function", "-Wno-psabi"]
X86 = platform.machine().lower() in ("x86_64", "amd64")


def core(name: str, flags: list[str]) -> Extension:
    return Extension(
        f"plies.{name}",
        sources=[str(CSRC / "module.c")],
        depends=DEPENDS,
        define_macros=[("PLIES_MODULE", name)],
        extra_compile_args=COMMON + flags,
        optional=True,  # without a C compiler plies still installs: pure-Python rules, no engine (plies.core says why)
    )


extensions = [core("_core", [])]
if X86:
    extensions.append(core("_core_avx2", ["-mavx2", "-mbmi", "-mbmi2", "-mpopcnt", "-mlzcnt", "-mfma"]))

setup(ext_modules=extensions)
