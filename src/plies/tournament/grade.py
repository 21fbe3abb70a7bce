"""A lecturer's grading run (``plies grade``): every agent in a class's folder checked for legality, crashes and
time against reference players and in a round robin among themselves, as one stored event of the match machinery
(``run_event``: each game committed as it ends, ``--resume`` after a crash), and a result sheet (CSV and HTML).

What a folder holds, one agent per entry, named by the file's stem:

- ``NAME.py``: a Python module that registers a player kind (the first it registers plays) or, failing that, a
  heuristic for the game (played by ``alphabeta`` at ``depth``); it plays in a process of its own, through
  ``plies hexthello client --load`` (HexThello) or ``plies nboard --load`` (Othello), so a module that hangs,
  exits or crashes the interpreter loses its games and nothing else;
- ``NAME.course``: the command line of a course agent that connects over TCP (``{host}`` and ``{port}`` in it, or
  ``-i HOST -p PORT`` appended), run in the folder (HexThello);
- ``NAME.nboard``: the command line of an NBoard engine, run in the folder (Othello);
- an executable file of any other name: a course agent (HexThello) or an NBoard engine (Othello), started with
  the course client's ``-i HOST -p PORT`` or with no arguments.

An agent that cannot play at all (a module that does not import or registers nothing, a missing program) is
listed on the sheet with its reason and plays no game; every other failure loses the game it happens in.
"""

from __future__ import annotations

import csv
import html
import io
import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console

from plies.game import PliesError
from plies.games import game_type
from plies.games.record import NORMAL, Game
from plies.match.event import EventResult, run_event
from plies.match.plan import GRADING, Entrant, EventConfig
from plies.match.runner import Finished
from plies.tournament.schema import Ply, Replay
from plies.tournament.standings import Standings, tabulate

GAMES = ("hexthello", "othello")
REFERENCES: dict[str, list[str]] = {
    "hexthello": ["random", "doc004:depth=2", "doc004:depth=3", "doc004:depth=4", "hexengine:depth=4"],
    "othello": ["random", "alphabeta:depth=2,eval=doc004", "alphabeta:depth=3,eval=doc004",
                "alphabeta:depth=4,eval=doc004", "engine:level=2", "engine:level=5"],
}
"""The default reference players: random moves, the course report's evaluation at depths 2-4, the engine."""
PYTHON, COURSE, NBOARD = "python", "course", "nboard"
INSPECT_TIME = 10.0
"""Seconds a module has to import (in a process of its own) when the folder is read, at least: twice
``connect_time`` if that is more (a module slower to import could not connect in time in a game)."""
_MARK = "plies-grade-inspect:"
_INSPECT = f"""
import json, sys
from importlib.metadata import entry_points
from plies import heuristics, players
from plies.match.runner import load_modules
game, path = sys.argv[1], sys.argv[2]
kinds = set(players.FACTORIES) | set(players.BUILT_IN) | {{ep.name for ep in entry_points(group="plies.players")}}
known = {{g: set(t) for g, t in heuristics.HEURISTICS.items()}}
lazy = {{name for g, name in heuristics.lazy()}}
try:
    load_modules([path])
except Exception as e:
    print({_MARK!r} + json.dumps({{"error": str(e)}}))
    sys.exit(0)
new = [k for k in players.FACTORIES if k not in kinds]
mine = [h.name for k, h in heuristics.HEURISTICS.get(game, {{}}).items()
        if k == h.name and k not in known.get(game, set()) and k not in lazy]
other = sorted({{g for g, t in heuristics.HEURISTICS.items() if g != game and set(t) - known.get(g, set())}})
print({_MARK!r} + json.dumps({{"kinds": new, "heuristics": mine, "other_games": other}}))
"""
"""Run in a fresh interpreter for each module: what it registers (player kinds in order, heuristics of the game)."""


@dataclass(frozen=True)
class Agent:
    """A student's agent: its name (the file's stem), kind (python, course, nboard), file, the player spec that
    plays it, and the ``problem`` that keeps it out of every game (empty when it plays)."""

    name: str
    kind: str
    source: str
    spec: str = ""
    problem: str = ""
    note: str = ""


@dataclass
class GradeSettings:
    """How a class is graded: the game, the references, games per pairing, openings, clocks, the depth of a
    heuristic module's alpha-beta."""

    game: str = "hexthello"
    references: list[str] = field(default_factory=list)
    games_per_pair: int = 2
    random_plies: int = 0
    seed: int = 0
    move_time: float = 10.0
    connect_time: float = 10.0
    depth: int = 3

    def reference_specs(self) -> list[str]:
        return list(self.references) or list(REFERENCES[self.game])


@dataclass
class GradeResult:
    """A grading run: the folder's agents and ignored files, the event's configuration and what the run played."""

    folder: Path
    settings: GradeSettings
    agents: list[Agent]
    ignored: list[str]
    config: EventConfig
    event: EventResult

    @property
    def playing(self) -> list[Agent]:
        return [a for a in self.agents if not a.problem]


# --- the folder ---------------------------------------------------------------------------------------------

def discover(folder: Path, settings: GradeSettings) -> tuple[list[Agent], list[str]]:
    """The agents of ``folder`` (in name order) and the entries that are none (hidden files, folders, other
    files); PliesError when the folder cannot be read or two agents would share a name."""
    if settings.game not in GAMES:
        raise PliesError(f"plies grade grades {' or '.join(GAMES)}, not {settings.game!r}")
    if not folder.is_dir():
        raise PliesError(f"{folder} is not a folder" if folder.exists() else f"no such folder: {folder}")
    agents: list[Agent] = []
    ignored: list[str] = []
    try:
        entries = sorted(folder.iterdir(), key=lambda p: p.name)
    except OSError as e:
        raise PliesError(f"cannot read {folder}: {e.strerror}") from None
    files = []
    for path in entries:
        if path.name.startswith((".", "_")) or path.is_dir():
            ignored.append(path.name + ("/" if path.is_dir() else ""))
        else:
            files.append(path)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:  # each module imports in a process
        for path, agent in zip(files, pool.map(lambda p: _agent(p, settings), files), strict=True):
            if agent is None:
                ignored.append(path.name)
            else:
                agents.append(agent)
    ignored.sort()
    if not agents:
        raise PliesError(f"no agents in {folder}: an agent is NAME.py, NAME.course, NAME.nboard or an executable "
                         "program" + (f" (found only {', '.join(ignored)})" if ignored else ""))
    names = [a.name for a in agents]
    refs = set(settings.reference_specs())
    for a in agents:
        if names.count(a.name) > 1:
            raise PliesError(f"two agents are called {a.name!r}: rename one of "
                             + ", ".join(b.source for b in agents if b.name == a.name))
        if a.name in refs:
            raise PliesError(f"agent {a.source} has the name of a reference player ({a.name}): rename the file")
    return agents, ignored


def _agent(path: Path, s: GradeSettings) -> Agent | None:
    name, suffix = path.stem, path.suffix.lower()
    if suffix == ".py":
        return _python_agent(path, s)
    if suffix in (".course", ".nboard"):
        kind = COURSE if suffix == ".course" else NBOARD
        try:
            lines = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines()]
        except (OSError, UnicodeDecodeError) as e:
            return Agent(name, kind, path.name, problem=f"cannot read {path.name}: {e}")
        command = next((ln for ln in lines if ln and not ln.startswith("#")), "")
        return _program_agent(name, kind, path, command, s)
    if path.is_file() and os.access(path, os.X_OK):
        kind = COURSE if s.game == "hexthello" else NBOARD
        return _program_agent(name, kind, path, shlex.quote("./" + path.name), s)
    return None


def _program_agent(name: str, kind: str, path: Path, command: str, s: GradeSettings) -> Agent:
    folder = path.parent.resolve()
    wanted = COURSE if s.game == "hexthello" else NBOARD
    if kind != wanted:
        what = "a HexThello course agent" if kind == COURSE else "an NBoard (Othello) engine"
        return Agent(name, kind, path.name, problem=f"{what}; this grading plays {s.game}")
    try:
        words = shlex.split(command)
    except ValueError as e:
        return Agent(name, kind, path.name, problem=f"cannot read its command line: {e}")
    if not words:
        return Agent(name, kind, path.name, problem="no command line in the file")
    program = words[0]
    found = (folder / program) if "/" in program else shutil.which(program)
    if found is None or not Path(found).is_file() or not os.access(found, os.X_OK):
        return Agent(name, kind, path.name, problem=f"cannot start {program!r}: no such program in {folder} "
                                                     "(or it is not executable)")
    if kind == COURSE:
        spec = (f"course:name={shlex.quote(name)} timeout={s.move_time:g} connect={s.connect_time:g} "
                f"cwd={shlex.quote(str(folder))} {command}")
    else:
        spec = (f"nboard:name={shlex.quote(name)} timeout={s.move_time:g} startup={s.connect_time:g} "
                f"cwd={shlex.quote(str(folder))} {command}")
    return Agent(name, kind, path.name, spec, note=f"runs {command}")


def _python_agent(path: Path, s: GradeSettings) -> Agent:
    """Import the module in a fresh interpreter (a module may hang, exit or crash it) and build its spec."""
    name, source = path.stem, path.name
    limit = max(INSPECT_TIME, 2 * s.connect_time)
    try:
        p = subprocess.run([sys.executable, "-c", _INSPECT, s.game, str(path.resolve())], cwd=path.parent,
                           capture_output=True, text=True, timeout=limit, stdin=subprocess.DEVNULL,
                           errors="replace")
    except subprocess.TimeoutExpired:
        return Agent(name, PYTHON, source, problem=f"its import did not finish within {limit:g} s")
    found = [ln[len(_MARK):] for ln in p.stdout.splitlines() if ln.startswith(_MARK)]
    if not found:
        tail = " | ".join(ln.strip() for ln in p.stderr.strip().splitlines()[-2:])
        return Agent(name, PYTHON, source, problem=f"its import ended the interpreter (exit code {p.returncode})"
                                                   + (f": {tail[-300:]}" if tail else ""))
    info = json.loads(found[-1])
    if "error" in info:
        why = info["error"].removeprefix(f"cannot import module {str(path.resolve())!r}: ")
        return Agent(name, PYTHON, source, problem=f"does not import: {why}")
    kinds, heuristics = info["kinds"], info["heuristics"]
    note = ""
    if kinds:
        player = kinds[0]
        if len(kinds) > 1:
            note = f"registers {', '.join(kinds)}: {player} plays"
    elif heuristics:
        player = f"alphabeta:depth={s.depth},eval={heuristics[0]}"
        note = f"heuristic {heuristics[0]}, searched by alpha-beta at depth {s.depth}"
    else:
        other = f" (its heuristics are for {', '.join(info['other_games'])})" if info["other_games"] else ""
        return Agent(name, PYTHON, source, problem=f"registers no player kind and no heuristic for {s.game}{other}")
    module, folder = shlex.quote(str(path.resolve())), shlex.quote(str(path.parent.resolve()))
    python = shlex.quote(sys.executable)
    if s.game == "hexthello":
        spec = (f"course:name={shlex.quote(name)} timeout={s.move_time:g} connect={s.connect_time:g} cwd={folder} "
                f"{python} -m plies hexthello client --load {module} --player {shlex.quote(player)} "
                f"-n {shlex.quote(name)} -q -i {{host}} -p {{port}}")
    else:
        spec = (f"nboard:name={shlex.quote(name)} timeout={s.move_time:g} startup={s.connect_time:g} cwd={folder} "
                f"{python} -m plies nboard --load {module} --player {shlex.quote(player)}")
    return Agent(name, PYTHON, source, spec, note=note or f"plays {player}")


# --- the run ------------------------------------------------------------------------------------------------

def grade_config(folder: Path, agents: list[Agent], settings: GradeSettings) -> EventConfig:
    """The event that grades ``agents``: each playing agent and each reference; every pair meets but two
    references; the move time is also the match's time limit."""
    players = [Entrant(a.name, a.spec) for a in agents if not a.problem]
    refs = settings.reference_specs()
    if not players:
        raise PliesError(f"no agent in {folder} can play: nothing to grade")
    return EventConfig(players=players + [Entrant(r, r) for r in refs], kind="grading",
                       name=f"grading of {folder.resolve().name}", game=settings.game, format=GRADING,
                       games_per_pair=settings.games_per_pair, random_plies=settings.random_plies,
                       seed=settings.seed, time_limit=settings.move_time, references=refs)


def grade(folder: str | Path, settings: GradeSettings, db: str | Path | None, resume: bool = False,
          workers: int = 1, console: Console | None = None, progress: bool = True,
          on_agents: Callable[[list[Agent], list[str]], None] | None = None) -> GradeResult:
    """Read the folder, then play (or resume) the grading event into ``db``; ``on_agents`` hears what was found
    before the first game."""
    path = Path(folder)
    agents, ignored = discover(path, settings)
    if on_agents is not None:
        on_agents(agents, ignored)
    config = grade_config(path, agents, settings)
    result = run_event(config, db, resume, workers, None, console, progress)
    return GradeResult(path, settings, agents, ignored, config, result)


# --- the sheet ----------------------------------------------------------------------------------------------

@dataclass
class SheetRow:
    """One line of the result sheet: an agent (or a reference player) and how it did."""

    name: str
    kind: str
    source: str
    reference: bool
    rank: int | None = None
    games: int = 0
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    vs_references: tuple[float, int] = (0.0, 0)
    vs_class: tuple[float, int] = (0.0, 0)
    failures: dict[str, int] = field(default_factory=dict)
    reasons: list[tuple[int, str, str]] = field(default_factory=list)  # (game number, termination, detail)
    seconds_per_move: float | None = None
    max_move: float | None = None
    problem: str = ""
    note: str = ""

    @property
    def status(self) -> str:
        """``not played: ...``, ``ok`` or the failures (``crash 2, time 1``)."""
        if self.problem:
            return f"not played: {self.problem}"
        if not self.failures:
            return "ok" if self.games else "no games yet"
        return ", ".join(f"{t} {n}" for t, n in sorted(self.failures.items()))


FAILURE_KINDS = ("illegal move", "time", "crash")
CSV_COLUMNS = ["rank", "name", "kind", "source", "reference", "status", "games", "points", "score", "wins", "draws",
               "losses", "points_vs_references", "games_vs_references", "points_vs_class", "games_vs_class",
               "illegal_moves", "time_losses", "crashes", "first_failure", "seconds_per_move", "max_seconds_move",
               "note"]


def sheet_rows(result: GradeResult, standings: Standings | None = None) -> list[SheetRow]:
    """The agents ranked by points (then the references), then the agents that could not play."""
    games = result.event.games
    s = standings or tabulate(games, [p.name for p in result.config.players])
    refs = set(result.config.references)
    by_name = {a.name: a for a in result.agents}
    slowest: dict[str, float] = {}
    for f in games:
        for name, seconds in _move_times(f):
            slowest[name] = max(slowest.get(name, 0.0), seconds)
    rows: list[SheetRow] = []
    for line in s.ranking():
        agent = by_name.get(line.name)
        row = SheetRow(line.name, agent.kind if agent else "reference", agent.source if agent else line.name,
                       line.name in refs, None, line.games, line.points, line.wins, line.draws, line.losses,
                       failures=dict(line.failures), seconds_per_move=line.seconds_per_move,
                       max_move=slowest.get(line.name), note=agent.note if agent else "")
        vs_ref, vs_class = [0.0, 0], [0.0, 0]
        for other in s.players:
            if other == line.name:
                continue
            p = s.pair(line.name, other)
            box = vs_ref if other in refs else vs_class
            box[0] += p.points
            box[1] += p.games
        row.vs_references, row.vs_class = (vs_ref[0], int(vs_ref[1])), (vs_class[0], int(vs_class[1]))
        row.reasons = [(f.index + 1, f.reason, f.detail) for f in s.failures if f.player == line.name]
        rows.append(row)
    rank = 0
    for row in rows:
        if not row.reference:
            rank += 1
            row.rank = rank
    rows.sort(key=lambda r: r.reference)  # the agents first, in their order; the references after them
    rows += [SheetRow(a.name, a.kind, a.source, False, problem=a.problem) for a in result.agents if a.problem]
    return rows


def _move_times(f: Finished) -> list[tuple[str, float]]:
    """(player, seconds) of every move of the game that was a decision (passes left out)."""
    try:
        side = f.planned.opening.state(f.planned.game).to_move
    except PliesError:
        return []
    out = []
    for move, seconds in zip(f.record.moves, f.record.times, strict=False):
        if move != "pass":
            out.append(((f.black, f.white)[side], seconds))
        side = 1 - side
    return out


def sheet_csv(rows: list[SheetRow]) -> str:
    """The sheet as CSV: one row per agent and reference (``CSV_COLUMNS``)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for r in rows:
        first = f"game {r.reasons[0][0]}: {r.reasons[0][1]}: {r.reasons[0][2]}" if r.reasons else ""
        w.writerow([
            r.rank or "", r.name, r.kind, r.source, "yes" if r.reference else "", r.status, r.games, f"{r.points:g}",
            f"{r.points / r.games:.3f}" if r.games else "", r.wins, r.draws, r.losses, f"{r.vs_references[0]:g}",
            r.vs_references[1], f"{r.vs_class[0]:g}", r.vs_class[1], r.failures.get("illegal move", 0),
            r.failures.get("time", 0), r.failures.get("crash", 0), first,
            "" if r.seconds_per_move is None else f"{r.seconds_per_move:.4f}",
            "" if r.max_move is None else f"{r.max_move:.3f}", r.note,
        ])
    return out.getvalue()


def replay_data(f: Finished) -> Replay:
    """A game for the sheet's replayer: the start's cells (0, 1, None, -1 a hole) and each ply's move name and
    changed cells, so the page draws every position without knowing the rules."""
    try:
        game = Game.from_record(f.record)
    except PliesError:
        return {"cells": [], "plies": [], "shape": "square", "rows": 0, "cols": 0, "on": None}
    gt = game_type(game.start)
    first = gt.view(game.start)
    plies: list[Ply] = []
    before = first.cells
    for k, state in enumerate(game.states[1:]):
        cells = gt.view(state).cells
        changed = [[i, v] for i, (u, v) in enumerate(zip(before, cells, strict=True)) if u != v]
        plies.append([game.names()[k], changed])
        before = cells
    return {"shape": first.shape, "rows": first.rows, "cols": first.cols,
            "on": None if first.on_board is None else list(first.on_board), "cells": list(first.cells),
            "plies": plies}


def _grouped_reasons(reasons: list[tuple[int, str, str]]) -> list[tuple[tuple[str, str], list[int]]]:
    """An agent's failures with the same reason and detail together: ((termination, detail), game numbers), in
    the order each first happened."""
    groups: dict[tuple[str, str], list[int]] = {}
    for n, t, d in reasons:
        groups.setdefault((t, d), []).append(n)
    return list(groups.items())


def _pts(x: float) -> str:
    return f"{x:g}"


def _share(points_games: tuple[float, int]) -> str:
    """``points/games``, empty without games."""
    return f"{points_games[0]:g}/{points_games[1]}" if points_games[1] else ""


def sheet_html(result: GradeResult, rows: list[SheetRow], standings: Standings | None = None) -> str:
    """The sheet as one HTML page: standings with each agent's reasons, the agents that could not play, every
    failure, the cross table and every game with its moves and a replay."""
    e = html.escape
    ev = result.event
    games = ev.games
    s = standings or tabulate(games, [p.name for p in result.config.players])
    st = result.settings
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    out = [_HEAD.replace("{title}", e(result.config.name))]
    n_agents, n_refs = len(result.playing), len(st.reference_specs())
    out.append(f"<h1>{e(result.config.name)}</h1><p class=meta>{e(st.game)}, {n_agents} agent"
               f"{'s' if n_agents != 1 else ''} playing and {n_refs} reference{'s' if n_refs != 1 else ''} "
               f"({e(', '.join(st.reference_specs()))}); {st.games_per_pair} games per pairing"
               + (f" from {st.random_plies}-ply random openings" if st.random_plies else " from the start position")
               + f"; {st.move_time:g} s a move, {st.connect_time:g} s to connect; {len(games)} of {len(ev.plan)} "
               f"games played; written {e(when)}.</p>")
    if len(games) < len(ev.plan):
        out.append("<p class=warn>The run is not complete: run the same command with --resume to play the rest.</p>")
    out.append("<h2>Standings</h2><table><tr><th>#</th><th>agent</th><th>kind</th><th>points</th><th>games</th>"
               "<th>score</th><th>W-D-L</th><th>vs references</th><th>vs class</th><th>status</th>"
               "<th>s a move (max)</th></tr>")
    for r in rows:
        if r.problem:
            continue
        grouped = _grouped_reasons(r.reasons)
        reasons = "".join(
            f"<li>{'game' if len(ns) == 1 else 'games'} {', '.join(f'<a href=#g{n}>{n}</a>' for n in ns[:8])}"
            f"{' ...' if len(ns) > 8 else ''}: {e(t)}: {e(d)}</li>" for (t, d), ns in grouped[:5])
        more = f"<li>... and {len(grouped) - 5} other reasons</li>" if len(grouped) > 5 else ""
        cls = " class=ref" if r.reference else ""
        status = f"<span class={'ok' if r.status == 'ok' else 'bad'}>{e(r.status)}</span>"
        spm = "" if r.seconds_per_move is None else f"{r.seconds_per_move:.3f} ({r.max_move or 0:.2f})"
        out.append(f"<tr{cls}><td>{r.rank or 'ref'}</td><td title='{e(r.note)}'>{e(r.name)}</td><td>{e(r.kind)}</td>"
                   f"<td>{_pts(r.points)}</td><td>{r.games}</td>"
                   f"<td>{(100 * r.points / r.games if r.games else 0):.0f}%</td>"
                   f"<td class=nw>{r.wins}-{r.draws}-{r.losses}</td>"
                   f"<td>{_share(r.vs_references)}</td><td>{_share(r.vs_class)}</td><td>{status}"
                   + (f"<ul>{reasons}{more}</ul>" if reasons else "") + f"</td><td>{spm}</td></tr>")
    out.append("</table>")
    missing = [r for r in rows if r.problem]
    if missing:
        out.append("<h2>Agents that could not play</h2><table><tr><th>agent</th><th>file</th><th>reason</th></tr>")
        out += [f"<tr><td>{e(r.name)}</td><td>{e(r.source)}</td><td class=bad>{e(r.problem)}</td></tr>"
                for r in missing]
        out.append("</table>")
    if result.ignored:
        out.append(f"<p class=meta>Not agents (ignored): {e(', '.join(result.ignored))}.</p>")
    out.append("<h2>Illegal moves, time losses and crashes</h2>")
    if s.failures:
        count = len(s.failures)
        out.append(f"<details{' open' if count <= 20 else ''}><summary>{count} game{'s' if count != 1 else ''} "
                   "lost so, one line each</summary>"
                   "<table><tr><th>game</th><th>agent</th><th>reason</th><th>detail</th></tr>")
        out += [f"<tr><td><a href='#g{f.index + 1}'>{f.index + 1}</a></td><td>{e(f.player)}</td>"
                f"<td class=nw>{e(f.reason)}</td><td>{e(f.detail)}</td></tr>" for f in s.failures]
        out.append("</table></details>")
    else:
        out.append("<p>None.</p>")
    names = [r.name for r in rows if not r.problem]
    out.append("<h2>Cross table</h2><p class=meta>The row's points against the column, points/games.</p><table><tr>"
               "<th></th>" + "".join(f"<th>{k + 1}</th>" for k in range(len(names))) + "</tr>")
    for k, a in enumerate(names):
        cells = []
        for b in names:
            p = s.pair(a, b)
            cells.append("<td></td>" if a == b or not p.games else f"<td>{_pts(p.points)}/{p.games}</td>")
        out.append(f"<tr><th>{k + 1} {e(a)}</th>{''.join(cells)}</tr>")
    out.append("</table>")
    out.append("<h2>Games</h2><p class=meta>Replay: click a game's number; then ← and → step through it.</p>"
               "<div id=viewer hidden><div id=board></div><p id=caption></p><p><button id=first>|&lt;</button>"
               "<button id=prev>&lt;</button><button id=next>&gt;</button><button id=last>&gt;|</button></p></div>"
               "<table><tr><th>game</th><th>Black</th><th>White</th><th>result</th><th>how</th><th>plies</th>"
               "<th>moves</th></tr>")
    data: dict[int, Replay] = {}
    for f in games:
        rec = f.record
        n = f.planned.index + 1
        result_text = "draw" if rec.winner is None else f"{(f.black, f.white)[rec.winner]} wins"
        how = f"by the rules, {rec.score:+g}" if rec.termination == NORMAL else f"{rec.termination}: {rec.detail}"
        moves = game_type(f.planned.game).join_moves(rec.moves)
        out.append(f"<tr id=g{n}><td><button class=replay data-game={n}>{n}</button></td><td>{e(f.black)}</td>"
                   f"<td>{e(f.white)}</td><td>{e(result_text)}</td><td>{e(how)}</td><td>{len(rec.moves)}</td>"
                   f"<td><details><summary>moves</summary><code>{e(moves)}</code></details></td></tr>")
        data[n] = replay_data(f)
    out.append("</table>")
    out.append("<script id=games type=application/json>" + json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
               + "</script>" + _SCRIPT + "</body></html>\n")
    return "\n".join(out)


def write_sheet(result: GradeResult, out: Path) -> list[Path]:
    """Write ``sheet.csv``, ``sheet.html`` and ``games.csv`` (every game, one row each) into ``out``; each
    file is replaced whole."""
    from plies.outfiles import write_whole
    from plies.tournament.export import csv_text

    s = tabulate(result.event.games, [p.name for p in result.config.players])
    rows = sheet_rows(result, s)
    texts = {"sheet.csv": sheet_csv(rows), "sheet.html": sheet_html(result, rows, s),
             "games.csv": csv_text(result.event.games)}
    paths = []
    for name, text in texts.items():
        path = out / name

        def write(target: str, text: str = text) -> None:
            Path(target).write_text(text, encoding="utf-8")

        try:
            write_whole(path, write)
        except OSError as e:
            raise PliesError(f"cannot write {path}: {e.strerror or e}") from None
        paths.append(path)
    return paths


_HEAD = """<!doctype html><html lang=en><head><meta charset=utf-8><title>{title}</title>
<meta name=viewport content="width=device-width, initial-scale=1">
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: .5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: .25em .5em; text-align: left; vertical-align: top; }
tr.ref { color: #666; background: #f6f6f6; }
.ok { color: #070; } .bad { color: #b00; } .warn { color: #b00; font-weight: bold; } .meta { color: #555; }
td ul { margin: .2em 0 0; padding-left: 1.2em; font-size: 12px; }
code { font-size: 12px; word-break: break-word; } .nw { white-space: nowrap; }
#viewer { position: sticky; top: 0; background: #fff; border: 1px solid #ccc; padding: .5em; width: max-content; }
</style></head><body>"""

_SCRIPT = """<script>
(() => {
  const games = JSON.parse(document.getElementById("games").textContent);
  const viewer = document.getElementById("viewer"), board = document.getElementById("board");
  const caption = document.getElementById("caption");
  let game = null, ply = 0, name = "";
  const colours = {"0": "#111", "1": "#fafafa", "-1": "#777"};
  function cellsAt(k) {
    const cells = game.cells.slice();
    for (let i = 0; i < k; i++) for (const [c, v] of game.plies[i][1]) cells[c] = v;
    return cells;
  }
  function draw() {
    const cells = cellsAt(ply), hex = game.shape === "hex", r = 11;
    const on = game.on || cells.map((_, i) => i);
    const last = ply > 0 ? new Set(game.plies[ply - 1][1].map(x => x[0])) : new Set();
    const at = on.map(c => {
      const row = Math.floor(c / game.cols), col = c % game.cols;
      return [c, hex ? (col + row / 2) * 2 * r : col * 2 * r, hex ? row * 1.75 * r : row * 2 * r];
    });
    const x0 = Math.min(...at.map(a => a[1])) - r, y0 = Math.min(...at.map(a => a[2])) - r;
    let svg = "", w = 0, h = 0;
    for (const [c, cx, cy] of at) {
      const x = cx - x0, y = cy - y0;
      w = Math.max(w, x + r); h = Math.max(h, y + r);
      const v = cells[c], fill = v === null ? "#2e7d32" : colours[String(v)];
      svg += `<circle cx="${x}" cy="${y}" r="${r - 1}" fill="${fill}" stroke="${last.has(c) ? "#f33" : "#1b5e20"}"/>`;
    }
    board.innerHTML = `<svg width="${w + 2}" height="${h + 2}" style="background:#1b5e20">${svg}</svg>`;
    const move = ply > 0 ? ` after ${game.plies[ply - 1][0]}` : " (start)";
    caption.textContent = `game ${name}: ply ${ply} of ${game.plies.length}${move}`;
  }
  function show(n) { game = games[n]; name = n; ply = 0; viewer.hidden = false; draw(); }
  function step(to) { if (game) { ply = Math.max(0, Math.min(game.plies.length, to)); draw(); } }
  document.querySelectorAll("button.replay").forEach(b => b.onclick = () => show(b.dataset.game));
  document.getElementById("first").onclick = () => step(0);
  document.getElementById("prev").onclick = () => step(ply - 1);
  document.getElementById("next").onclick = () => step(ply + 1);
  document.getElementById("last").onclick = () => step(1e9);
  document.addEventListener("keydown", ev => {
    if (ev.key === "ArrowLeft") step(ply - 1);
    if (ev.key === "ArrowRight") step(ply + 1);
  });
})();
</script>"""

__all__ = ["Agent", "GradeResult", "GradeSettings", "REFERENCES", "SheetRow", "discover", "grade", "grade_config",
           "replay_data", "sheet_csv", "sheet_html", "sheet_rows", "write_sheet"]
