"""Build the compiled core (``plies._core``) with the system C compiler.

One C translation unit (``src/plies/csrc/module.c``) is compiled three times on x86-64: ``plies._core`` for any
x86-64 CPU, ``plies._core_avx2`` with AVX2/BMI2 (x86-64-v3) and ``plies._core_avx512`` with AVX-512 (x86-64-v4:
the same vector code in fewer instructions, about 1.45x the perft rate of the AVX2 build on a Xeon); ``plies.core``
loads the best one the CPU runs.  Elsewhere (e.g. ARM) only ``plies._core`` is built, for the compiler's default
target.  The builds compile in parallel.
"""

from __future__ import annotations

import platform
from pathlib import Path

from setuptools import Extension, setup

CSRC = Path("src/plies/csrc")
DEPENDS = sorted(str(p) for p in CSRC.glob("*.[ch]"))
COMMON = ["-O2", "-g0", "-std=gnu11", "-pthread", "-fno-strict-aliasing", "-Wno-unused-function", "-Wno-psabi"]
X86 = platform.machine().lower() in ("x86_64", "amd64")


def core(name: str, flags: list[str]) -> Extension:
    return Extension(
        f"plies.{name}",
        sources=[str(CSRC / f"build{name}.c")],  # one source per build, so parallel builds never share an object
        depends=DEPENDS,
        define_macros=[("PLIES_MODULE", name)],
        extra_compile_args=COMMON + flags,
        extra_link_args=["-pthread"],
        optional=True,  # without a C compiler plies still installs: pure-Python rules, no engine (plies.core says why)
    )


extensions = [core("_core", [])]
if X86:
    extensions.append(core("_core_avx2", ["-mavx2", "-mbmi", "-mbmi2", "-mpopcnt", "-mlzcnt", "-mfma"]))
    extensions.append(core("_core_avx512", ["-mavx512f", "-mavx512vl", "-mavx512bw", "-mavx512dq", "-mavx512cd",
                                            "-mavx2", "-mbmi", "-mbmi2", "-mpopcnt", "-mlzcnt", "-mfma"]))

setup(ext_modules=extensions, options={"build_ext": {"parallel": 3}})
