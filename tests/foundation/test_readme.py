"""Every command and code example in the README runs as written (from a scratch folder, nothing outside the
repository): the shell lines with the input a person would type, the Python blocks with their printed results."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(\w*)\n(.*?)```", README, flags=re.S)

SKIP = ("python3 -m venv", "bash tools/test.sh", "plies web")
"""Set-up commands (they are what CI runs) and the server (tested by tests/web)."""
INPUT = {"plies play": "quit\n", "plies tree quiz": "-6\nB\nE F\nnone\n"}
"""What a person types to the interactive commands (the quiz checks any answer)."""


def _shell_lines() -> list[str]:
    lines = []
    for lang, body in BLOCKS:
        if lang not in ("", "bash", "sh", "console"):
            continue
        for line in body.splitlines():
            line = line.split("  #")[0].strip()
            if line and not line.startswith("#") and "plies" in line and not line.startswith(SKIP):
                lines.append(line)
    return lines


def _env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ, HOME=str(tmp), PYTHONPATH=str(tmp), COLUMNS="120")
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def _prepare(tmp: Path) -> None:
    """The README's files: ``my_players.py`` from its block, the examples folder beside it."""
    for lang, body in BLOCKS:
        if lang == "python" and body.startswith("# my_players.py"):
            (tmp / "my_players.py").write_text(body, encoding="utf-8")
    shutil.copytree(ROOT / "examples", tmp / "examples")  # a tournament writes its database beside its file


def test_the_readme_has_commands_and_examples() -> None:
    assert len(_shell_lines()) >= 8
    assert any(lang == "python" for lang, _ in BLOCKS)


@pytest.mark.parametrize("line", _shell_lines())
def test_every_readme_command_runs(line: str, tmp_path: Path) -> None:
    _prepare(tmp_path)
    words = shlex.split(line)
    env = _env(tmp_path)
    while words and "=" in words[0] and not words[0].startswith("plies"):  # VAR=value prefixes
        name, _, value = words.pop(0).partition("=")
        env[name] = str(tmp_path) if value == "." else value
    stdin = next((text for prefix, text in INPUT.items() if line.startswith(prefix)), "")
    p = subprocess.run(words, cwd=tmp_path, env=env, input=stdin, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, f"{line}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}"
    assert "Traceback" not in p.stderr


def test_the_first_python_example_prints_what_the_readme_says(tmp_path: Path) -> None:
    code = next(body for lang, body in BLOCKS if lang == "python" and not body.startswith("# my_players.py"))
    expected = [line[2:].strip() for line in code.splitlines() if re.match(r"# \w+ -?\d", line)]
    p = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=_env(tmp_path), capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = [line.strip() for line in p.stdout.splitlines()]
    assert out[0] == "['d3', 'c4', 'f5', 'e6']"
    for line in expected:
        assert line in out
