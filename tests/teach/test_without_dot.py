"""Every teaching feature with Graphviz's ``dot`` absent from PATH: pictures, PNG, exercises, the Learn page's
API, plots and the notebook displays all work with plies and pip-installed packages alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

SCRIPT = textwrap.dedent("""
    import json, shutil, sys
    assert shutil.which("dot") is None, "dot is on PATH"
    from plies.cli import main
    out = sys.argv[1]
    checks = {}
    checks["solve"] = main(["tree", "solve", "doc002", "--svg", out + "/t.svg", "--png", out + "/t.png"])
    checks["show"] = main(["tree", "show", "othello", "--depth", "2", "--svg", out + "/o.svg"])
    checks["quiz"] = main(["tree", "quiz", "--seed", "1", "--json", "--svg", out + "/q.svg", "--key", out + "/k.png"])
    checks["study"] = main(["study", "nodes", "--depth", "2", "--positions", "1", "--json", "--plot", out + "/n.svg"])
    checks["graphviz"] = main(["tree", "solve", "doc000", "--svg", out + "/g.svg", "--engine", "graphviz"])
    from fastapi import FastAPI
    from fastapi.testclient import TestClient
    from plies.teach.web import router
    app = FastAPI(); app.include_router(router)
    c = TestClient(app)
    r = c.post("/api/learn/trace", json={"tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]})
    checks["learn"] = r.status_code
    checks["learn_svg"] = r.json()["svg"].count('class="cross"')
    checks["learn_quiz"] = c.post("/api/learn/quiz", json={"seed": 3}).status_code
    from plies.games import OthelloState
    from plies.teach import solve_tree
    checks["repr"] = bool(OthelloState.start()._repr_svg_()) and bool(solve_tree([[1, 2], [3]])._repr_svg_())
    print("CHECKS" + json.dumps(checks))
""")


def test_every_teaching_feature_without_dot(tmp_path) -> None:
    venv_bin = str(Path(sys.executable).parent)
    env = {k: v for k, v in os.environ.items() if k not in ("PATH",)}
    env["PATH"] = venv_bin                                   # the venv's programs only: no dot
    env["MPLBACKEND"] = "Agg"
    r = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    checks = json.loads(r.stdout[r.stdout.index("CHECKS") + 6:].splitlines()[0])
    assert checks == {"solve": 0, "show": 0, "quiz": 0, "study": 0, "graphviz": 2, "learn": 200, "learn_svg": 2,
                      "learn_quiz": 200, "repr": True}
    assert "graphviz's 'dot' program is not installed" in r.stderr           # asked for graphviz: one clear line
    assert (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "k.png").read_bytes()[:4] == b"\x89PNG"
    for name in ("t.svg", "o.svg", "q.svg", "n.svg"):
        assert "<svg" in (tmp_path / name).read_text(encoding="utf-8")
    assert not (tmp_path / "g.svg").exists()
