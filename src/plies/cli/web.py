"""``plies web``: start the browser app on a local server and open (or print) its address."""

from __future__ import annotations

import os
import signal
import threading
import webbrowser
from pathlib import Path

import click

from plies.extras import require
from plies.game import PliesError

from ._common import listen_port


@click.command("web")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0 lets other machines in, to play a friend on a LAN, with "
                   "--allow-host naming this machine's address: games are then reachable by anyone who has their "
                   "id).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="TCP port (0 picks a free one).")
@click.option("--no-browser", is_flag=True, help="Only print the address; do not open a browser.")
@click.option("--db", "db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="SQLite file for the game history [default: ~/.local/share/plies/web.sqlite].")
@click.option("--workers", default=4, show_default=True, type=click.IntRange(1, 64),
              help="Threads that run computer searches (the engine, and searches that cannot go to a process).")
@click.option("--processes", default=None, type=click.IntRange(0, 64),
              help="Worker processes for the textbook searches, hints and graph (0 = threads only) "
                   "[default: number of CPUs, at most 4].")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Also answer requests addressed to NAME (this machine's name or LAN address, when other "
                   "machines connect); repeatable; '*' switches the Host check off.  localhost, 127.0.0.1, ::1 "
                   "and the --host address are always answered.")
@click.option("--threads", type=click.IntRange(1, 256), default=None,
              help="Search threads of each computer player on the fast engine (default: the machine's cores).")
@click.option("--games", "games", type=click.Path(path_type=Path), default=None, metavar="PATH",
              help="A game library: a WTHOR (.wtb) or GGF file, or a folder of them, listed, searched (player, "
                   "opening, position reached) and opened on the Library screen.")
def web_command(host: str, port: int, no_browser: bool, db: Path | None, workers: int,
                processes: int | None, allow_hosts: tuple[str, ...], threads: int | None,
                games: Path | None) -> None:
    """Play in the browser: Othello, tic-tac-toe (and HexThello), against the computer or a friend.

    The page talks to a JSON API documented at /docs; finished games are kept in SQLite and can be replayed.
    Stop the server with Ctrl-C.
    """
    require("web", "plies web")
    import uvicorn

    if threads is not None:  # read by every engine player built without threads= (plies.players.engine)
        os.environ["PLIES_ENGINE_THREADS"] = str(threads)

    from sqlalchemy.exc import SQLAlchemyError

    from plies.web import create_app
    from plies.web.history import default_db_path
    from plies.web.library import library_files
    from plies.web.serving import server_settings

    if games is not None:
        library_files(games)  # a missing or unreadable path: one line, before anything starts
    port = listen_port(host, port)
    try:
        if processes is None:
            processes = min(4, os.cpu_count() or 1)
        app = create_app(db, workers=workers, processes=processes, warm=True, allow_hosts=allow_hosts, listen=host,
                         library_path=games)
    except (OSError, SQLAlchemyError) as e:  # an unwritable path, or a file that is not a database
        reason = str(getattr(e, "orig", None) or e).splitlines()[0]  # the driver's words, not SQLAlchemy's dump
        raise PliesError(f"cannot open the game history {db or default_db_path()}: {reason}") from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{shown}:{port}/"
    click.echo(f"plies web: {url}  (API docs at {url}docs; history in {app.state.history.path}; Ctrl-C stops)")
    if games is not None:
        click.echo(f"library: {games} (indexing in the background; the Library screen shows the progress)")
    if host in ("0.0.0.0", "::") and not allow_hosts:
        click.echo("note: other machines reach the app only under names given with --allow-host "
                   "(e.g. --allow-host 192.168.1.20; a friend's invite link then uses that name)", err=True)
    if not no_browser:
        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _exit_on_sigterm)
    uvicorn.run(app, host=host, port=port, log_level="warning", **server_settings())  # h11 and the limits


def _exit_on_sigterm(signum: int, frame: object) -> None:
    """SIGTERM, which uvicorn raises again once it has shut the app down gracefully: a normal exit then (status 0,
    as Ctrl-C), so that the worker processes are joined and nothing is reported leaked."""
    raise SystemExit(0)


def register(main_group: click.Group) -> None:
    main_group.add_command(web_command)
