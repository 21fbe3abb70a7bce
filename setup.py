"""Build the compiled core (``plies._core``) with the system C compiler.

One C translation unit (``src/plies/csrc/module.c``) is compiled three times on x86-64: ``plies._core`` for any
x86-64 CPU, ``plies._core_avx2`` with AVX2/BMI2 (x86-64-v3) and ``plies._core_avx512`` with AVX-512 (x86-64-v4:
the same vector code in fewer instructions, about 1.45x the perft rate of the AVX2 build on a Xeon); ``plies.core``
loads the best one the CPU runs.  Elsewhere (ARM64: NEON through the same vector code) only ``plies._core`` is
built, for the compiler's default target.  GCC and Clang build the GNU C path (vector extensions, ``__builtin_*``);
MSVC builds ``plies._core`` alone, from the plain-C path of ``src/plies/csrc/portable.h`` (C11, its atomics).  The
builds compile in parallel.  Without a working C compiler plies still installs: the extensions are optional, and
plies then plays the engine's levels with its pure-Python stand-in (``plies.players.engine_fallback``).
"""

from __future__ import annotations

import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

CSRC = Path("src/plies/csrc")
DEPENDS = sorted(str(p) for p in CSRC.glob("*.[ch]"))
GNU_FLAGS = ["-O2", "-g0", "-std=gnu11", "-pthread", "-fno-strict-aliasing", "-Wno-unused-function", "-Wno-psabi"]
MSVC_FLAGS = ["/O2", "/std:c11", "/experimental:c11atomics"]
AVX2 = ["-mavx2", "-mbmi", "-mbmi2", "-mpopcnt", "-mlzcnt", "-mfma"]
AVX512 = ["-mavx512f", "-mavx512vl", "-mavx512bw", "-mavx512dq", "-mavx512cd", *AVX2]
TARGET = sysconfig.get_platform().lower()  # the wheel's platform (a cross build's target, not the build machine)
X86 = TARGET.endswith(("x86_64", "amd64"))  # (not universal2: cibuildwheel builds each macOS arch alone)


def core(name: str, flags: list[str]) -> Extension:
    ext = Extension(
        f"plies.{name}",
        sources=[str(CSRC / f"build{name}.c")],  # one source per build, so parallel builds never share an object
        depends=DEPENDS,
        define_macros=[("PLIES_MODULE", name)],
        optional=True,  # without a C compiler plies still installs: the engine's pure-Python stand-in plays
    )
    ext.target_flags = flags  # type: ignore[attr-defined]
    return ext


class BuildCore(build_ext):
    """Flags by compiler: GCC/Clang get the GNU C path and its x86-64 builds, MSVC the portable core alone."""

    def build_extensions(self) -> None:
        msvc = self.compiler.compiler_type == "msvc"
        if msvc:
            self.extensions = [e for e in self.extensions if not e.target_flags]
        for e in self.extensions:
            e.extra_compile_args = MSVC_FLAGS if msvc else GNU_FLAGS + e.target_flags
            e.extra_link_args = [] if msvc else ["-pthread"]
        super().build_extensions()


extensions = [core("_core", [])]
if X86:
    extensions.append(core("_core_avx2", AVX2))
    extensions.append(core("_core_avx512", AVX512))

setup(ext_modules=extensions, cmdclass={"build_ext": BuildCore}, options={"build_ext": {"parallel": 3}})
