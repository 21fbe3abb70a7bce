"""What a new user waits for: install, the first commands and the first engine move, each in a fresh process.

With ``--fresh`` it first makes a new virtualenv in a temporary folder, installs plies into it the way the
README says (``pip install -e '.[all]'``, or ``--wheel`` for a built wheel), and runs every step there with an empty
HOME and no bytecode caches, so the first run of each command is what a person meets on a fresh machine; the
warm figure is the best of three later runs.  Without ``--fresh`` it uses the interpreter running it.

    python benchmarks/startup.py --fresh          # about a minute (most of it pip)
    python benchmarks/startup.py                  # warm figures of the current environment

Wall and CPU seconds are the child processes' own (CPU: user + system, from ``getrusage``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
TEN_EMPTIES = "OXXO--O-XXX--OXXXXXXOXXXXOXOXOXXXXXOOXXXOOOOOXXX-OOOOOXX---OOXX- X"
"""A position with 10 empty squares (a seeded random game), for ``analyse --exact``."""

WORKER = (
    "import concurrent.futures as f, multiprocessing as m, time\n"
    "from plies.web.workers import _prepare_worker\n"
    "t = time.perf_counter()\n"
    "with f.ProcessPoolExecutor(1, mp_context=m.get_context('spawn')) as p:\n"
    "    p.submit(_prepare_worker).result()\n"
    "print(time.perf_counter() - t - 0.2)\n"
)
"""A web worker process started as ``plies web --processes`` starts one, ready when its import is done."""

PLAY = "d3\nquit\n"
"""Input to ``plies play``: the engine (Black, level 8) moves first, then the person quits."""


def run(cmd: list[str], env: dict[str, str], stdin: str | None = None) -> tuple[float, float, str]:
    """(wall, CPU of the child, stdout) of one command; exits with its output if it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, input=stdin, capture_output=True, text=True, cwd=env.get("PLIES_BENCH_CWD"))
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
    return wall, cpu, p.stdout


def steps(bindir: Path) -> list[tuple[str, list[str], str | None, str]]:
    plies = str(bindir / "plies")
    py = str(bindir / "python")
    first_move = [plies, "play", "othello", "--black", "engine:level=8", "--white", "human"]
    return [
        ("plies --help", [plies, "--help"], None, "warm <= 0.3 s"),
        ("plies perft --depth 1", [plies, "perft", "--depth", "1"], None, "warm <= 0.5 s CPU with the next"),
        ("plies analyse (10 empties) --exact", [plies, "analyse", TEN_EMPTIES, "--exact"], None, ""),
        ("first engine move, level 8 (play)", first_move, PLAY, "cold <= 10 s"),
        ("plies analyse othello --level 8", [plies, "analyse", "othello", "--level", "8"], None, ""),
        ("new web worker ready", [py, "-c", WORKER], None, "warm <= 1 s"),
    ]


def web_first_hint(bindir: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """(wall from ``plies web`` starting to the first 8x8 hint answered, the server's CPU, "") : a person opens
    the page, starts a game and asks for a hint (the engine's analysis)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}/api"
    db = Path(env["HOME"]) / f"web-{port}.sqlite"
    t0 = time.perf_counter()
    server = subprocess.Popen([str(bindir / "plies"), "web", "--no-browser", "--port", str(port), "--db", str(db)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                urllib.request.urlopen(f"{base}/info", timeout=5).read()
                break
            except OSError:
                if server.poll() is not None or time.perf_counter() - t0 > 120:
                    sys.exit("plies web did not start")
                time.sleep(0.02)

        def post(path: str, body: dict[str, object], cookie: str = "") -> tuple[dict[str, object], str]:
            req = urllib.request.Request(f"{base}{path}", data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "Cookie": cookie})
            with urllib.request.urlopen(req, timeout=600) as r:
                return json.loads(r.read()), r.headers.get("set-cookie", "").split(";")[0]

        game, cookie = post("/games", {"game": "othello", "players": [{"kind": "human"}, {"kind": "human"}]})
        gid = game["game"]["id"]  # type: ignore[index]
        post(f"/games/{gid}/hint", {"count": 3}, cookie)
        wall = time.perf_counter() - t0
        with open(f"/proc/{server.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    finally:
        server.terminate()
        server.wait(timeout=30)
    return wall, cpu, ""


def fresh_env(tmp: Path, wheel: bool) -> tuple[Path, float, float]:
    """A new venv with plies installed; (its bin folder, install wall, install CPU)."""
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1")
    if wheel:
        dist = tmp / "dist"
        w0, c0, _ = run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(ROOT)], env)
        w1, c1, _ = run(pip + [f"{next(dist.glob('plies-*.whl'))}[all]"], env)
        return venv / "bin", w0 + w1, c0 + c1
    wall, cpu, _ = run(pip + ["-e", f"{ROOT}[all]"], env)
    return venv / "bin", wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fresh", action="store_true", help="install into a new venv first and time cold runs")
    ap.add_argument("--wheel", action="store_true", help="with --fresh: build and install a wheel, not -e")
    ap.add_argument("--bindir", type=Path, default=None,
                    help="time the plies installed in this venv's bin folder instead (e.g. another version)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    console = Console(width=130)
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="plies-startup-") as t:
        tmp = Path(t)
        home = tmp / "home"
        home.mkdir()
        if args.fresh:
            with console.status("installing plies into a fresh virtualenv ..."):
                bindir, iw, ic = fresh_env(tmp, args.wheel)
            rows.append({"step": "install (pip)", "cold_wall": iw, "cold_cpu": ic, "target": "no slower than before"})
            for cache in ROOT.joinpath("src").rglob("__pycache__"):
                shutil.rmtree(cache, ignore_errors=True)
        else:
            bindir = args.bindir or Path(sys.executable).parent
        env = {k: v for k, v in os.environ.items() if not k.startswith("PLIES_")}
        env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), PLIES_BENCH_CWD=str(tmp), COLUMNS="120")
        for name, cmd, stdin, target in steps(bindir):
            with console.status(f"{name} ..."):
                cold = run(cmd, env, stdin)
                warm = min((run(cmd, env, stdin) for _ in range(3)), key=lambda r: r[0])
            rows.append({"step": name, "cold_wall": cold[0], "cold_cpu": cold[1], "warm_wall": warm[0],
                         "warm_cpu": warm[1], "target": target})
        with console.status("plies web: first hint ..."):
            cold = web_first_hint(bindir, env)
            warm = min((web_first_hint(bindir, env) for _ in range(3)), key=lambda r: r[0])
        rows.append({"step": "plies web: start to first 8x8 hint", "cold_wall": cold[0], "cold_cpu": cold[1],
                     "warm_wall": warm[0], "warm_cpu": warm[1], "target": "cold <= 10 s"})
    if args.json:
        print(json.dumps({"python": sys.version.split()[0], "fresh": args.fresh, "rows": rows}))
        return
    table = Table(title="plies start-up (each step a new process)")
    for col in ("step", "cold wall s", "cold CPU s", "warm wall s", "warm CPU s", "target"):
        table.add_column(col, justify="left" if col in ("step", "target") else "right")

    def f(x: object) -> str:
        return f"{x:.2f}" if isinstance(x, float) else "-"

    for r in rows:
        table.add_row(str(r["step"]), f(r["cold_wall"]), f(r["cold_cpu"]), f(r.get("warm_wall")), f(r.get("warm_cpu")),
                      str(r["target"]))
    console.print(table)


if __name__ == "__main__":
    main()
