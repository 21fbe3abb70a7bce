"""The compiled core's portable path: everything compiler-specific stays in ``csrc/portable.h`` or behind its
``PLIES_GNU``, the plain-C path is ISO C11 (``-std=c11 -pedantic``, as MSVC needs it), and the kernels' C test
driver (``tools/core_check.c``, which ``tools/cross_check.sh`` runs on ARM64 and Windows) gives Python's values
with both paths: perft counts, the learned evaluation, an exact FFO solve on one thread and on two."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CSRC = ROOT / "src" / "plies" / "csrc"
GUARD = re.compile(r"(PLIES_GNU|PLIES_VECTOR_LANES)\b")
NOT_GUARD = re.compile(r"!\s*(PLIES_GNU|PLIES_VECTOR_LANES)\b")
GNU_ONLY = re.compile(r"__builtin_|__atomic_|__ATOMIC_|__attribute__|vector_size|__sync_|\b__asm|\basm\s*\(|"
                      r"\btypeof\b|\bpthread|cpuid\.h")
"""What only GCC and Clang (or only POSIX) have: allowed in portable.h, elsewhere only under ``#if PLIES_GNU``."""
WARNINGS = ["-Wall", "-Wextra", "-Werror", "-Wno-unused-function"]
ISO = ["-std=c11", "-pedantic", *WARNINGS, "-DPLIES_PORTABLE"]


def gnu_only_outside_guards(text: str) -> list[str]:
    """The lines of a C file that use a GNU-only construct outside a ``#if PLIES_GNU`` branch (or one of
    ``PLIES_VECTOR_LANES``, which implies it; a branch after ``#if !PLIES_GNU`` ... ``#else`` counts as one)."""
    found = []
    stack: list[list[bool]] = []  # per #if: [this branch GNU-only, a former branch was !PLIES_GNU]
    for n, line in enumerate(text.splitlines(), 1):
        d = line.strip()
        if d.startswith("#"):
            word, _, cond = d[1:].strip().partition(" ")
            cond = cond.strip()
            if word in ("if", "ifdef", "ifndef"):
                stack.append([word == "if" and bool(GUARD.match(cond)), word == "if" and bool(NOT_GUARD.match(cond))])
                continue
            if word == "elif" and stack:
                stack[-1][0] = bool(GUARD.match(cond))
                stack[-1][1] = stack[-1][1] or bool(NOT_GUARD.match(cond))
                continue
            if word == "else" and stack:
                stack[-1][0] = stack[-1][1]
                continue
            if word == "endif" and stack:
                stack.pop()
                continue
        code = line.split("//")[0]
        if GNU_ONLY.search(code) and not any(gnu for gnu, _ in stack):
            found.append(f"{n}: {line.strip()}")
    return found


def test_gnu_only_constructs_stay_behind_the_portability_header() -> None:
    offenders = {p.name: gnu_only_outside_guards(p.read_text()) for p in sorted(CSRC.glob("*.[ch]"))
                 if p.name != "portable.h"}
    assert {name: lines for name, lines in offenders.items() if lines} == {}


def test_the_guard_check_sees_what_it_should() -> None:
    assert gnu_only_outside_guards("x = __builtin_popcountll(y);") == ["1: x = __builtin_popcountll(y);"]
    guarded = "#if PLIES_GNU && defined(__AVX2__)\nx = __builtin_ctzll(y);\n#else\nx = bit_first(y);\n#endif\n"
    assert gnu_only_outside_guards(guarded) == []
    chain = "#if PLIES_GNU && A\n__builtin_a();\n#elif !PLIES_GNU\nplain();\n#else\n__builtin_b();\n#endif\n"
    assert gnu_only_outside_guards(chain) == []
    assert gnu_only_outside_guards("#if defined(X)\n__atomic_load_n(p, 0);\n#endif\n") == ["2: __atomic_load_n(p, 0);"]


def _compiler() -> str:
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler")
    return cc


def test_the_portable_module_is_iso_c11() -> None:
    """The whole extension module, bindings included, in strict C11 with the plain-C path (Python's own headers
    read as system headers)."""
    include = sysconfig.get_paths()["include"]
    p = subprocess.run([_compiler(), "-fsyntax-only", *ISO, "-Wno-unused-parameter", "-Wno-missing-field-initializers",
                        "-isystem", include, "-DPLIES_MODULE=_core", str(CSRC / "build_core.c")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("core_check")
    subprocess.run([sys.executable, str(ROOT / "tools" / "core_check_data.py"), str(out), "40"], check=True,
                   capture_output=True)
    return out


@pytest.mark.parametrize("path", ["gnu", "iso"])
def test_the_c_driver_gives_pythons_values(cases: Path, path: str) -> None:
    cc = _compiler()
    exe = cases / f"core_check_{path}"
    flags = ["-O2", "-std=gnu11", *WARNINGS, "-Wno-psabi"] if path == "gnu" else ["-O2", *ISO]
    build = subprocess.run([cc, *flags, "-I", str(CSRC), "-o", str(exe), str(ROOT / "tools" / "core_check.c"), "-lm",
                            "-pthread"], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(exe), str(cases / "cases.txt"), str(cases / "weights.f32"), "2"], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    out = run.stdout
    assert ("plain C path" in out) == (path == "iso")
    assert "ok   perft 9: 3005288 leaves" in out and "ok   FFO #40: +38" in out and "ok   FFO #40 on 2 threads" in out
    assert re.search(r"ok   learned evaluation of \d{3} positions", out)
