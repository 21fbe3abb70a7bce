"""``plies hexthello``: the TUC course's HexThello framework (docs/course.md) — client, server, stored games.

``plies hexthello client [-i ip] [-p port] [-n name] [-r] [-t] [--depth N | --time S] [--load MODULE --player
SPEC]`` joins a course server;
``plies hexthello server [-p port] [-g games] [-s] [--course | --move-time S] [--holes CELLS] [--db FILE]
[--web PORT]`` is one;
``plies hexthello games [--db FILE] [--export FILE]`` lists or exports what a server stored;
``plies hexthello show [POSITION]`` draws a position with the course's coordinates.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys
from pathlib import Path

import click

from plies import players
from plies.extras import require
from plies.game import PliesError
from plies.games.hexthello import HexThelloState  # registers the game "hexthello"
from plies.heuristics import hexthello as _hex_heuristics  # noqa: F401  (registers its heuristics)
from plies.net.hexthello.schema import StoredGame

from ._common import FiniteRange, console, listen_port, load_player, player_options


@click.group("hexthello")
def hexthello_group() -> None:
    """HexThello and the TUC course's client/server framework: client, server, stored games."""


@hexthello_group.command("client")
@click.option("-i", "--ip", "host", default="127.0.0.1", show_default=True, help="Server address.")
@click.option("-p", "--port", default=6002, show_default=True, type=click.IntRange(1, 65535), help="Server port.")
@click.option("-n", "--name", default="plies", show_default=True,
              help="Name the server shows (sent as at most 8 bytes, the framework's limit).")
@click.option("-r", "--random", "use_random", is_flag=True, help="Play random moves instead of searching.")
@click.option("-t", "--no-pruning", is_flag=True,
              help="Play minimax with alpha-beta pruning off, as the course report's agent does with -t "
                   "(at --depth, default 4).")
@click.option("--depth", type=click.IntRange(1, 64), default=None, help="Search to a fixed depth.")
@click.option("--time", "seconds", type=click.FloatRange(0.01, 3600), default=None,
              help="Think about this many seconds a move (default 1).")
@click.option("--doc004", is_flag=True, help="Play the course report's own alpha-beta agent (at --depth, "
              "default 4).")
@click.option("--seed", type=int, default=None, help="Seed of the random player (-r).")
@player_options("Play this player: any player spec for HexThello, e.g. 'alphabeta:depth=3,eval=my-eval' or a kind "
                "a --load module registers.  Its moves are sent as it chooses them (an illegal one loses the game "
                "on the server); --depth/--time go to a spec that names no depth or time.")
@click.option("-q", "--quiet", is_flag=True, help="Print only the end of the session.")
@click.option("--wait", "wait", type=FiniteRange(0), default=None,
              help="Give up connecting after this many seconds (default: retry every second until the server "
                   "is up, as the course's client).")
def client_cmd(host: str, port: int, name: str, use_random: bool, no_pruning: bool, depth: int | None,
               seconds: float | None, doc004: bool, seed: int | None, modules: tuple[str, ...], spec: str | None,
               quiet: bool, wait: float | None) -> None:
    """Join a HexThello server (the course's C server or plies') as an agent: plies' engine by default, or any
    player (--load my_agent.py --player my-kind)."""
    from plies.net.hexthello.client import HexClient

    if depth is not None and seconds is not None:
        raise PliesError("give --depth or --time, not both")
    if spec is not None and (use_random or no_pruning or doc004):
        raise PliesError("--player names the whole agent: give it without -r, -t or --doc004")
    player = load_player(modules, spec, "hexthello", depth, seconds)
    if player is None:
        player = _agent(use_random, no_pruning, doc004, depth, seconds, seed)
    say = (lambda text: None) if quiet else (lambda text: log_line(f"{name}: {text}"))
    record = HexClient(player, name, host, port, log=say, connect_wait=wait, strict=spec is not None).run()
    log_line(f"{name}: {record.positions} game(s), {len(record.sent)} moves sent"
             + ("" if record.quit else " (the server closed the connection)"))


def log_line(text: str) -> None:
    """One log line as it is: no markup (names come from the network), no wrapping when stdout is not a
    terminal (a log file keeps one event per line)."""
    if console.is_terminal:
        console.print(text, markup=False, highlight=False, soft_wrap=True)
    else:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


def _agent(use_random: bool, no_pruning: bool, doc004: bool, depth: int | None, seconds: float | None,
           seed: int | None) -> players.Player:
    if use_random:
        return players.RandomPlayer(seed)
    # the searchers are compiled C, ready at import: nothing to warm up, so the client connects at once (a
    # long warm-up let a client started later take the first seat and the colour)
    from plies.players.hexthello import Doc004Player, HexEnginePlayer

    if no_pruning or doc004:
        return Doc004Player(depth or 4, pruning=not no_pruning)
    if depth is not None:
        return HexEnginePlayer(depth=depth)
    return HexEnginePlayer(seconds=seconds or 1.0)


@hexthello_group.command("server")
@click.option("-p", "--port", default=6002, show_default=True, type=click.IntRange(0, 65535),
              help="Port the agents connect to.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: all).")
@click.option("-g", "--games", default=1, show_default=True, type=click.IntRange(1, 100000),
              help="Games per match.  Every game starts from the same position: two deterministic agents "
                   "replay the same game each time they meet with the same colours, and the server says so.")
@click.option("-s", "--swap", is_flag=True, help="Swap colours after each game.")
@click.option("--course", is_flag=True,
              help="Time moves as the course's C server does: not at all (--move-time 0).  Use it for course "
                   "agents that may think longer than the default 60 s for a move.")
@click.option("--move-time", type=FiniteRange(0, 86400), default=None,
              help="Seconds an agent has for a move (default 60); a late agent loses that game (and leaves the "
                   "match), so a course agent that deepens on clock() past a minute loses on time: 0 or --course "
                   "= no limit (the course's server has none).")
@click.option("--name-time", type=FiniteRange(0, 3600), default=10.0, show_default=True,
              help="Seconds an agent has to give its name after connecting; a silent one is dropped (0 = no limit).")
@click.option("--person-time", type=FiniteRange(0, 86400), default=300.0, show_default=True,
              help="Seconds a person playing from the viewer has for a move (0 = no limit).")
@click.option("--holes", default="", metavar="CELLS",
              help="Cells taken off the board (the course's ILLEGAL tiles), e.g. '7 3, 5 9' or '73 59'.")
@click.option("--parallel", type=click.IntRange(1, 256), default=8, show_default=True,
              help="Matches played at the same time.")
@click.option("--max-agents", type=click.IntRange(2, 10000), default=256, show_default=True,
              help="Connections served at once; more are told 107 and closed.")
@click.option("--db", "db_path", default="hexthello.sqlite", show_default=True,
              help="SQLite file that keeps every game and move (':memory:' keeps nothing).")
@click.option("--web", type=click.IntRange(1, 65535), default=None,
              help="Serve the live viewer on this port (http://HOST:PORT/).")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Also answer viewer requests addressed to NAME (this machine's LAN name or address); "
                   "repeatable.  localhost, 127.0.0.1, ::1 and --host are always answered.")
@click.option("--matches", type=click.IntRange(0, 100000), default=None,
              help="Matches to serve before exiting, 0 = for ever (default 1, or 0 with --web).")
@click.option("--summary-every", type=FiniteRange(0), default=10.0, show_default=True,
              help="Print the summary table at most every this many seconds (and at the end).")
@click.option("-q", "--quiet", is_flag=True, help="No per-game lines; the summary table at the end only.")
def server_cmd(port: int, host: str, games: int, swap: bool, course: bool, move_time: float | None,
               name_time: float, person_time: float, holes: str, parallel: int, max_agents: int, db_path: str,
               web: int | None, allow_hosts: tuple[str, ...], matches: int | None, summary_every: float,
               quiet: bool) -> None:
    """Run a HexThello server that the course's clients (and plies') can play on.

    Agents have 60 s a move unless --move-time says otherwise; --course takes the limit away, as the course's C
    server has none (a course agent that thinks longer than a minute would lose on time here)."""
    from sqlalchemy.exc import SQLAlchemyError

    from plies.games.hexthello import read_holes
    from plies.net.hexthello.server import DEFAULT_MOVE_TIME, HexServer, summary_table
    from plies.net.hexthello.store import Store

    if course and move_time:
        raise PliesError("--course means no move time limit: give --course or --move-time, not both")
    if move_time is None:
        move_time = 0.0 if course else DEFAULT_MOVE_TIME

    hole_mask = read_holes(holes)
    if web:
        require("web", "--web (the live viewer)")
        listen_port(host, web, None)  # taken, or no address of this machine: one line now, not uvicorn's traceback
    try:  # refuses (one line, nothing written) a folder, a file that is not SQLite, another program's tables
        store = Store(db_path)
    except (OSError, SQLAlchemyError) as e:  # pragma: no cover - Store reports these as PliesError
        raise PliesError(f"cannot open {db_path}: {_first_line(e)}") from None
    say = (lambda text: None) if quiet else log_line

    def after_game(server: HexServer) -> None:
        if not quiet:
            console.print(summary_table(server))

    server = HexServer(host, port, games, swap, move_time, store, matches if matches is not None else
                       (0 if web else 1), name_time=name_time, log=say, on_game=after_game, holes=hole_mask,
                       parallel=parallel, max_agents=max_agents, person_time=person_time,
                       summary_every=summary_every)

    listening = False  # the summary is shown only for a server that ran (not after "cannot listen")

    async def main() -> None:
        nonlocal listening
        try:
            await server.start()
        except OSError as e:
            raise PliesError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
        listening = True
        say(f"agents have {move_time:g} s a move (--course: no limit, as on the course's server)" if move_time
            else "agents have no time limit for a move, as on the course's server")
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # a polite kill stops cleanly
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, server.stop)
        viewer = None
        if web:
            from plies.net.hexthello.viewer import serve_viewer

            viewer = await serve_viewer(server, host, web, allow_hosts)
            web_task = asyncio.create_task(viewer.serve())
            log_line(f"live viewer on http://{host}:{web}/")
        try:
            await server.serve()
        finally:
            if viewer is not None:
                viewer.should_exit = True
                await web_task

    try:
        asyncio.run(main())
    finally:  # Ctrl-C too: what was played is in the database; show the summary
        try:
            store.close_interrupted("interrupted: the server was stopped")
        except (OSError, SQLAlchemyError, PliesError):  # the database went away or is full: nothing more to mark
            pass
        store.close()
        if listening:
            console.print(summary_table(server))
            log_line(f"games stored in {db_path}")
    if server.failure is not None:  # the database could not be written: the server stopped, one line says why
        raise PliesError(server.failure)


@hexthello_group.command("games")
@click.option("--db", "db_path", default="hexthello.sqlite", show_default=True, help="The server's SQLite file.")
@click.option("--export", "export", type=click.Path(dir_okay=False), default=None,
              help="Write every game with its moves to this file (.json, or .txt for one line per game).")
def games_cmd(db_path: str, export: str | None) -> None:
    """List (or export) the games a HexThello server stored."""
    from rich.table import Table
    from sqlalchemy.exc import SQLAlchemyError

    from plies.net.hexthello.store import Store

    if not Path(db_path).exists():
        raise PliesError(f"no database {db_path}")
    store = Store(db_path, readonly=True)  # mode=ro: the file is left as it was; not this server's: one line
    try:
        rows = store.games()
    except (OSError, SQLAlchemyError) as e:  # e.g. a file that changed under us
        raise PliesError(f"cannot read {db_path}: {_first_line(e)}") from None
    finally:
        store.close()
    if export:
        _export(rows, export)
        console.print(f"{len(rows)} game(s) written to {export}")
        return
    from rich.text import Text

    table = Table(title=Text(f"{len(rows)} game(s) in {db_path}"))
    for col in ("#", "m/g", "black", "white", "plies", "winner", "B-W", "reason"):
        table.add_column(col, no_wrap=col != "reason", overflow="fold")
    for r in rows:  # names and reasons are plain text (agents choose their names)
        table.add_row(str(r["id"]), f"{r['match']}/{r['game']}", Text(r["black"]), Text(r["white"]),
                      str(len(r["moves"])), r["winner"] if r["status"] == "finished" else r["status"],
                      f"{r['black_discs']}-{r['white_discs']}", Text(r["reason"]))
    console.print(table)


def _first_line(e: Exception) -> str:
    """The first line of a database error (SQLAlchemy's own, with its SQL and link, left out)."""
    return (str(getattr(e, "orig", None) or e).splitlines() or [type(e).__name__])[0]


def _export(rows: list[StoredGame], path: str) -> None:
    from plies.games.hexthello import compact

    if path.endswith(".txt"):
        lines = []
        for r in rows:
            moves = " ".join("--" if m["row"] == -50 else compact(m["row"] * 15 + m["col"]) for m in r["moves"])
            lines.append(f"{r['id']}\t{r['black']}\t{r['white']}\t{r['winner']}\t{r['black_discs']}-"
                         f"{r['white_discs']}\t{r['reason']}\t{moves}")
        Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    else:
        Path(path).write_text(json.dumps(rows, indent=1), encoding="utf-8")


@hexthello_group.command("show")
@click.argument("position", default="hexthello")
def show_cmd(position: str) -> None:
    """Draw a position (169 cells + side, or a transcript like '66 56') with the course's coordinates."""
    state = HexThelloState.from_text(position)
    console.print(state.board_str(), markup=False)
    moves = state.legal_moves()
    console.print("legal moves: " + (", ".join(state.move_str(m) for m in moves) or "none (game over)"), markup=False)


def register(main_group: click.Group) -> None:
    main_group.add_command(hexthello_group)
