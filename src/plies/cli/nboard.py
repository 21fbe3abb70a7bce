"""``plies nboard``: run plies as an engine for the NBoard GUI (or any program speaking the NBoard protocol)."""

from __future__ import annotations

import contextlib
import io
import sys
from typing import TextIO

import click

from plies.game import PliesError
from plies.net.nboard import DEFAULT_NAME, MAX_DEPTH, PlayerAnalyser, make_analyser, run

from ._common import FiniteRange, load_player, player_options


@click.command("nboard")
@click.option("--depth", "-d", type=click.IntRange(1, MAX_DEPTH), default=None,
              help="Search depth until the GUI sends 'set depth' (default 6 with the fast engine, 4 without).")
@click.option("--engine", "kind", type=click.Choice(["auto", "fast", "textbook"]), default="auto", show_default=True,
              help="fast = plies.engine; textbook = iterative-deepening alpha-beta; auto = fast when available.")
@click.option("--eval", "evaluation", default=None,
              help="Evaluation: the fast engine's (learned, the default, or handmade, ...) or the textbook "
                   "search's (see 'plies heuristics').")
@click.option("--time", "move_time", type=FiniteRange(0.01), default=None,
              help="Stop deepening after this many seconds per search.")
@click.option("--exact", "exact_empties", type=click.IntRange(0, 60), default=None,
              help="Solve exactly from this many empties (default 14 with the fast engine, never with textbook).")
@click.option("--name", default=DEFAULT_NAME, show_default=True, help="Name announced with 'set myname'.")
@click.option("--threads", type=click.IntRange(1, 256), default=None,
              help="Search threads of the fast engine (default: the machine's cores).")
@player_options("Answer with this player's moves instead of the engine's searches: any Othello player spec, e.g. "
                "'alphabeta:depth=3,eval=my-eval' or a kind a --load module registers.  A player that raises ends "
                "the engine with one line (exit status 2).")
def nboard(depth: int | None, kind: str, evaluation: str | None, move_time: float | None, exact_empties: int | None,
           name: str, threads: int | None, modules: tuple[str, ...], spec: str | None) -> None:
    """Speak the NBoard engine protocol on stdin/stdout (point NBoard's 'engine' at 'plies nboard').

    Commands: nboard, set depth/game/contempt, move, hint, go, ping, learn, analyze, quit.
    """
    if spec is not None and (kind, evaluation, exact_empties, threads) != ("auto", None, None, None):
        raise PliesError("--player replaces the engine's search: give it without --engine, --eval, --exact or "
                         "--threads")
    out = sys.stdout
    with contextlib.redirect_stdout(sys.stderr if modules or spec is not None else out):
        # a student's print(), at import or while choosing, goes to stderr: never into the protocol
        player = load_player(modules, spec, "othello", depth, move_time)
        if player is not None:
            run(tolerant(sys.stdin), out, analyser=PlayerAnalyser(player), depth=depth or 1,
                move_time=move_time, name=name if name != DEFAULT_NAME else player.name, exact_empties=0)
            return
        _engine(kind, evaluation, depth, move_time, exact_empties, name, threads, out)


def _engine(kind: str, evaluation: str | None, depth: int | None, move_time: float | None,
            exact_empties: int | None, name: str, threads: int | None, out: TextIO) -> None:
    """The engine's (or a textbook search's) analyses behind the protocol, answering on ``out``."""
    if threads is None:
        from plies.engine.api import default_threads  # the engine's module is loaded by the analyser anyway

        threads = default_threads()
    analyser = make_analyser(kind, evaluation, threads=threads)
    if depth is None:
        depth = 4 if type(analyser).__name__ == "TextbookAnalyser" else 6
    run(tolerant(sys.stdin), out, analyser=analyser, depth=depth, move_time=move_time, name=name,
        exact_empties=exact_empties)


def tolerant(stream: TextIO) -> TextIO:
    """``stream`` decoding bytes that are not UTF-8 as U+FFFD instead of failing: a GUI (or anything piped
    in) may send any byte, and under a strict decoding (``PYTHONIOENCODING=utf-8:strict``, the default of some
    systems) one bad byte would end the session."""
    reconfigure = getattr(stream, "reconfigure", None)
    if callable(reconfigure):
        try:
            reconfigure(errors="replace")
            return stream
        except (OSError, ValueError, TypeError):  # io.UnsupportedOperation: already read from; or another API
            pass
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        return io.TextIOWrapper(buffer, encoding=getattr(stream, "encoding", None) or "utf-8", errors="replace")
    return stream


def register(main_group: click.Group) -> None:
    main_group.add_command(nboard)
