"""The fixture class of ``plies grade``: the modules in ``class/`` and four course TCP agents, written as
``.course`` command lines of a copy of ``tests/hexthello/course_client.py`` (a Python script that speaks the
course's bytes as the C client does), plus one that names a program that does not exist."""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLIENT = HERE.parent / "hexthello" / "course_client.py"

TCP_AGENTS = {
    "judy": "--mode random --seed 3",        # good
    "mallory": "--mode crash --after 4",     # exits with status 139 at its fourth move
    "niaj": "--mode never --sleep 60",       # never connects
    "olivia": "--mode garbage --after 2",    # answers a cell outside the board
}


def make_class(folder: Path, modules: list[str] | None = None, tcp: list[str] | None = None,
               missing: bool = True) -> Path:
    """A class folder: the fixture modules (all, or those named), the TCP agents (all, or those named), and
    ``peggy.course``, whose program is missing; the script the TCP agents run sits in a subfolder (not an agent),
    so every process of a run has the folder's path on its command line."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in sorted((HERE / "class").iterdir()):
        if path.suffix != ".py" or modules is None or path.stem in modules:
            shutil.copy(path, folder / path.name)
    (folder / "tcp").mkdir(exist_ok=True)
    script = folder / "tcp" / "course_client.py"
    shutil.copy(CLIENT, script)
    for name, args in TCP_AGENTS.items():
        if tcp is None or name in tcp:
            line = f"{shlex.quote(sys.executable)} tcp/course_client.py {args} -n {name}"
            (folder / f"{name}.course").write_text(f"# {name}'s agent\n{line}\n", encoding="utf-8")
    if missing:
        (folder / "peggy.course").write_text("./peggy-client -n peggy\n", encoding="utf-8")
    return folder
