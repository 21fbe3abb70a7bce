"""The built wheel works where nothing can be written: read-only site-packages, no HOME, no caches."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
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
