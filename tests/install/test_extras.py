"""plies without its optional extras (``pip install plies`` alone): the terminal game, the engine, the textbook
searches, matches and the SVG pictures work; a command that needs an extra says which one in one line (exit 2,
no traceback).  Each run hides the extras' packages with ``sys.modules[name] = None`` in a fresh interpreter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

HIDDEN = ("fastapi", "starlette", "uvicorn", "pydantic", "matplotlib", "graphviz", "ipywidgets", "ray")
"""The packages of the extras web, plots, graphviz, notebook and ray (and what fastapi brings)."""

PRELUDE = textwrap.dedent("""
    import sys
    for name in sys.argv[1].split(","):
        sys.modules[name] = None  # makes ``import name`` fail as if it were not installed
""")


def _run(code: str, hidden: tuple[str, ...] = HIDDEN, stdin: str = "", timeout: float = 300,
         path: str | None = None) -> Any:
    env = {k: v for k, v in os.environ.items() if k != "PLIES_DEBUG"}
    if path is not None:
        env["PATH"] = path
    return subprocess.run([sys.executable, "-c", PRELUDE + textwrap.dedent(code), ",".join(hidden)],
                          input=stdin, capture_output=True, text=True, timeout=timeout, env=env)


def _cli(args: list[str], hidden: tuple[str, ...] = HIDDEN, stdin: str = "", path: str | None = None) -> Any:
    return _run(f"from plies.cli import main\nraise SystemExit(main({args!r}))", hidden, stdin, path=path)


def test_the_core_commands_need_no_extra(tmp_path: Path) -> None:
    code = f"""
        import json
        from plies.cli import main
        out = {str(tmp_path)!r}
        codes = {{
            "analyse": main(["analyse", "othello", "--depth", "3"]),
            "search": main(["search", "tictactoe", "--algo", "alphabeta"]),
            "solve-tree": main(["tree", "solve", "doc000", "--svg", out + "/t.svg"]),
            "show": main(["tree", "show", "othello", "--depth", "2", "--svg", out + "/o.svg"]),
            "match": main(["match", "random", "greedy", "--games", "2", "--no-progress"]),
        }}
        loaded = sorted(m for m in {HIDDEN!r} if sys.modules.get(m) is not None)
        print("RESULT" + json.dumps({{"codes": codes, "loaded": loaded}}))
    """
    r = _run(code)
    assert r.returncode == 0, r.stderr[-3000:]
    result = json.loads(r.stdout[r.stdout.index("RESULT") + 6:].splitlines()[0])
    assert result == {"codes": dict.fromkeys(("analyse", "search", "solve-tree", "show", "match"), 0), "loaded": []}
    assert "Traceback" not in r.stderr
    for name in ("t.svg", "o.svg"):
        assert "<svg" in (tmp_path / name).read_text(encoding="utf-8")


def test_playing_in_the_terminal_needs_no_extra() -> None:
    r = _cli(["play", "othello", "--black", "human", "--white", "engine:level=3"], stdin="f5\nhint\nquit\n")
    assert r.returncode == 0, r.stderr[-3000:]
    assert "Computer White (O)" in r.stdout and "Hint:" in r.stdout and "Game abandoned." in r.stdout


def _one_line(r: Any, extra: str) -> str:
    assert r.returncode == 2, (r.stdout[-2000:], r.stderr[-2000:])
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith("plies: error: ") and f"pip install 'plies[{extra}]'" in err, err
    return err


def test_web_names_its_extra() -> None:
    err = _one_line(_cli(["web", "--no-browser", "--port", "0"]), "web")
    assert "plies web needs fastapi" in err


def test_web_names_the_missing_server_package() -> None:
    err = _one_line(_cli(["web", "--no-browser", "--port", "0"], hidden=("uvicorn",)), "web")
    assert "needs uvicorn" in err


def test_the_hexthello_viewer_names_its_extra(tmp_path: Path) -> None:
    err = _one_line(_cli(["hexthello", "server", "--web", "8765", "--db", str(tmp_path / "h.sqlite")]), "web")
    assert "--web (the live viewer) needs fastapi" in err
    assert not (tmp_path / "h.sqlite").exists()  # refused before anything started


def test_png_names_its_extra_and_svg_still_works(tmp_path: Path) -> None:
    err = _one_line(_cli(["tree", "solve", "doc000", "--png", str(tmp_path / "t.png")]), "plots")
    assert "drawing PNG needs matplotlib" in err and "SVG" in err
    assert not (tmp_path / "t.png").exists()


@pytest.mark.skipif(sys.platform == "win32", reason="a shell script stands for graphviz's dot program")
def test_graphviz_engine_names_its_extra(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"  # a 'dot' on PATH, so that the missing Python package is what is reported
    bin_dir.mkdir()
    (bin_dir / "dot").write_text("#!/bin/sh\nexit 1\n")
    (bin_dir / "dot").chmod(0o755)
    r = _cli(["tree", "solve", "doc000", "--svg", str(tmp_path / "g.svg"), "--engine", "graphviz"],
             path=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    assert "needs graphviz" in _one_line(r, "graphviz")


def test_the_extras_table_matches_pyproject() -> None:
    """``plies.extras.EXTRAS`` (what the error messages name) and pyproject's extras say the same."""
    import re
    import tomllib

    from plies.extras import EXTRAS

    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]

    def names(reqs: list[str]) -> set[str]:
        return {re.split(r"[\s\[<>=!~;]", r, maxsplit=1)[0].lower() for r in reqs}

    core = names(project["dependencies"])
    for extra, modules in EXTRAS.items():
        assert set(modules) <= names(extras[extra]), extra
        assert not set(modules) & core, extra
    assert extras["all"] == ["plies[web,plots,graphviz,notebook]"]
    assert "plies[all]" in extras["test"]


def test_the_library_says_which_extra_is_missing() -> None:
    r = _run("""
        from plies.extras import MissingExtraError
        from plies.web import create_app
        try:
            create_app(":memory:")
        except MissingExtraError as e:
            print("ERROR", e.extra, e.module)
    """)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "ERROR web fastapi" in r.stdout
