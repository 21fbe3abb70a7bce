"""Shared pieces of the CLI: the position argument, ``--json`` output, console."""

from __future__ import annotations

import errno
import json
import math
import os
import socket
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import click
from rich.console import Console

from plies.game import PliesError, State
from plies.games import parse_position

if TYPE_CHECKING:
    from plies.players import Player

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)
Decorated = TypeVar("Decorated", bound=Callable[..., object])
"""A command's function, which an option decorator gives back with the option added."""


def read_position(text: str, game: str | None = None, layout: str = "standard") -> State:
    """A position argument; ``@FILE`` reads the argument from a file (first non-empty line)."""
    if text.startswith("@"):
        try:
            with open(text[1:], encoding="utf-8-sig") as f:
                text = next((line for line in f if line.strip()), "")
        except OSError as e:
            raise PliesError(f"cannot read {text[1:]}: {e.strerror}") from None
        except UnicodeDecodeError:
            raise PliesError(f"cannot read {text[1:]}: not a UTF-8 text file") from None
    return parse_position(text, game=game, layout=layout)


class FiniteRange(click.FloatRange):
    """``click.FloatRange`` that also refuses nan and infinity, which its bounds let through (a clock cannot wait
    an infinite time, and nan compares false with every bound)."""

    def convert(self, value: float, param: click.Parameter | None, ctx: click.Context | None) -> float:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")


def listen_port(host: str, port: int, option: str | None = "--port") -> int:
    """The port a server can listen on at ``host`` (``port``, or a free one for 0); PliesError saying why not: the
    port is taken (``option`` 0 picks a free one, when the command has such an option), or the address is not one
    of this machine's (or no address at all).  The probe binds as the servers do (``SO_REUSEADDR``, as uvicorn and
    asyncio set it): a port whose last server has gone while a client still holds one of its connections (its
    socket in FIN_WAIT or TIME_WAIT) is free to them, and only a socket listening there makes it taken."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            if os.name != "nt":  # on Windows SO_REUSEADDR would let two servers share a port
                s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
            return int(s.getsockname()[1])
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            hint = f" (try {option} 0 for a free one)" if option else ""
            raise PliesError(f"port {port} on {host} is in use{hint}") from None
        raise PliesError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None


def emit_json(obj: object) -> None:
    """Print one JSON object on stdout (for scripts and the other front-ends)."""
    json.dump(obj, sys.stdout, default=_default)
    sys.stdout.write("\n")


def _default(o: object) -> object:
    if hasattr(o, "to_dict"):
        return o.to_dict()
    if isinstance(o, float) and o != o:
        return None
    return str(o)


def player_options(player_help: str) -> Callable[[Decorated], Decorated]:
    """``--load MODULE`` (repeatable) and ``--player SPEC``: a player of the user's instead of plies' own."""
    load = click.option("--load", "modules", multiple=True, metavar="MODULE",
                        help="Import MODULE first (a module name, or a .py file such as my_agent.py) for the player "
                             "kinds and heuristics it registers; repeatable.")
    return lambda f: load(click.option("--player", "spec", default=None, metavar="SPEC", help=player_help)(f))


def load_player(modules: tuple[str, ...], spec: str | None, game: str, depth: int | None,
                seconds: float | None) -> Player | None:
    """Import the ``--load`` modules, then build the ``--player`` (None without one) with ``--depth``/``--time``."""
    if modules:
        from plies.match.runner import load_modules

        load_modules(modules)
    if spec is None:
        return None
    from plies.match.plan import resolve_spec

    return build_player(resolve_spec(spec, game, depth, seconds), game)


def build_player(spec: str, game: str) -> Player:
    """``parse_player``, with a student's factory that raises reported in one line (what, and where)."""
    from plies.match.record import where
    from plies.players import parse_player

    try:
        return parse_player(spec, game)
    except PliesError:
        raise
    except Exception as e:
        raise PliesError(f"cannot build the player {spec!r}: {type(e).__name__}: {e}{where(e)}") from None
