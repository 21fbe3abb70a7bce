"""Any NBoard engine program (Edax, NTest, plies itself) as a plies Player.

Spec: ``nboard:[depth=N] [timeout=S] [startup=S] [name=X] [cwd=DIR] PROGRAM [ARGS...]`` — the text after
``nboard:`` is a command line (shlex-split); leading ``key=value`` words are options, not part of the command.
The player starts the program, says ``nboard 2`` and ``set depth N``, keeps it on the game with ``set game``/``move``
(``ping``/``pong`` to synchronise), asks ``go`` and reads ``=== MOVE[/EVAL/TIME]`` (also Edax's older
``=== MOVE EVAL TIME``).  A program that is silent past the time-out (to ``ping`` or ``go``) loses on time
(``NoAnswer``), one that answers a move the rules refuse loses by an illegal move (``IllegalAnswer``), one that
dies or answers nonsense crashes: ``choose`` raises, so the match scores the loss with its reason; ``close``
says ``quit``, then terminates, then kills.
"""

from __future__ import annotations

import collections
import contextlib
import queue
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

from plies.formats.ggf import write_ggf
from plies.formats.model import OthelloGame
from plies.game import PASS, ParseError, PliesError, State
from plies.games.othello import OthelloState, square_name
from plies.match.record import IllegalAnswer, NoAnswer
from plies.net import split_spec
from plies.players import Player, register
from plies.search.result import SearchResult, Stats

OPTIONS = ("depth", "timeout", "startup", "name", "cwd")
WHY_WAIT = 5.0
"""Seconds an engine that closed its output is given to exit and finish its last words on stderr."""


class NBoardPlayer(Player):
    """Drives one NBoard engine process; one process serves many games (restarted if it dies)."""

    def __init__(self, command: list[str], depth: int | None = 6, timeout: float = 60.0, startup: float = 30.0,
                 name: str | None = None, cwd: str | None = None) -> None:
        if not command:
            raise ParseError("nboard player needs a program to run, e.g. nboard:/usr/bin/edax -q")
        self.command = command
        self.cwd = cwd  # the folder the program runs in (None: this process's)
        self.depth = depth
        self.timeout = timeout
        self.startup = startup
        self.name = name or "nboard:" + " ".join(command)
        self.engine_name = ""
        self.proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        self._stderr_reader: threading.Thread | None = None
        self._ping = 0
        self._game: OthelloGame | None = None
        self._known: OthelloState | None = None

    # --- process ------------------------------------------------------------------------------------------
    def _start(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            return
        try:
            self.proc = subprocess.Popen(self.command, cwd=self.cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, bufsize=1, encoding="utf-8",
                                         errors="replace")  # a stray byte is one odd character, not the end
        except OSError as e:
            raise PliesError(f"cannot start NBoard engine {self.command[0]!r}: {e.strerror or e}") from None
        self._lines = queue.Queue()
        assert self.proc.stdout is not None and self.proc.stderr is not None  # both were asked for as pipes
        _pump(self.proc.stdout, self._lines.put, end=lambda: self._lines.put(None))
        self._stderr_reader = _pump(self.proc.stderr, self._stderr.append)
        self._game, self._known = None, None
        self._send("nboard 2")
        if self.depth is not None:
            self._send(f"set depth {self.depth}")
        self._sync(self.startup)

    def _send(self, line: str) -> None:
        proc = self.proc
        if proc is None or proc.stdin is None:
            raise PliesError("NBoard engine is not running")
        try:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise PliesError(f"NBoard engine {self.command[0]!r} exited{self._why()}") from None

    def _why(self) -> str:
        """The exit code and the last lines on stderr of an engine that has stopped answering: once its output is
        closed, what it said on the way out (a traceback's last line) is read to the end first, however busy
        the machine."""
        if self.proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=WHY_WAIT)
        if self._stderr_reader is not None:
            self._stderr_reader.join(timeout=WHY_WAIT)
        tail = " | ".join(x.strip() for x in list(self._stderr)[-3:] if x.strip())
        code = self.proc.poll() if self.proc is not None else None
        return (f" (exit code {code})" if code is not None else "") + (f": {tail}" if tail else "")

    def _read(self, deadline: float, waiting_for: str, seconds: float) -> str:
        left = deadline - time.monotonic()
        try:
            line = self._lines.get(timeout=max(0.0, left))
        except queue.Empty:
            self._abandon()
            raise NoAnswer(f"NBoard engine gave no {waiting_for} within the time-out of {seconds:g} s") from None
        if line is None:
            self._lines.put(None)  # stay at end of file
            raise PliesError(f"NBoard engine {self.command[0]!r} closed its output{self._why()}")
        line = line.strip()
        if line.startswith("set myname "):
            self.engine_name = line[len("set myname "):].strip()
        return line

    def _sync(self, timeout: float) -> None:
        """``ping n`` and drop everything up to ``pong n`` (stale search lines, names)."""
        self._ping += 1
        n = self._ping
        self._send(f"ping {n}")
        deadline = time.monotonic() + timeout
        while True:
            line = self._read(deadline, f"'pong {n}'", timeout)
            if line.split()[:2] == ["pong", str(n)]:
                return

    def _abandon(self) -> None:
        """After a time-out the engine's state is unknown: stop it (a new game restarts it)."""
        self._stop_process(grace=0.5)

    # --- the game -----------------------------------------------------------------------------------------
    def new_game(self, state: State) -> None:
        if not isinstance(state, OthelloState) or state.n != 8:
            raise PliesError("NBoard engines play 8x8 Othello only")
        self._start()
        self._set_game(OthelloGame(start=state))

    def _set_game(self, game: OthelloGame) -> None:
        self._game = game
        self._known = game.final
        self._send(f"set game {write_ggf(game, place='plies')}")

    def _catch_up(self, state: OthelloState) -> None:
        """Tell the engine about the opponent's move (or re-send the whole game when it cannot be followed)."""
        if self._known == state and self._game is not None:
            return
        known = self._known
        if known is not None and self._game is not None and not known.is_over():
            for m in known.legal_moves():
                if known.play(m) == state:
                    self._send(f"move {_move_text(known, m)}")
                    self._game.moves.append(m)
                    self._game.evals.append(None)
                    self._game.times.append(None)
                    self._known = state
                    return
        self._set_game(OthelloGame(start=state))

    def choose(self, state: State) -> int:
        if not isinstance(state, OthelloState):
            raise PliesError("NBoard engines play Othello only")
        self._start()
        self._catch_up(state)
        self._sync(self.timeout)
        t0 = time.monotonic()
        self._send("go")
        deadline = t0 + self.timeout
        while True:
            line = self._read(deadline, "move ('=== MOVE')", self.timeout)
            if line.startswith("==="):
                break
        move, value, seconds = parse_answer(line, state)
        self.last_result = SearchResult(
            value=value if value is not None else float("nan"), move=move, pv=[move],
            stats=Stats(seconds=seconds if seconds is not None else time.monotonic() - t0),
            algorithm=f"nboard:{self.engine_name or self.command[0]}",
        )
        extra = ""
        if value is not None:
            extra = f"/{value:.2f}/{(seconds or 0.0):.2f}"
        self._send(f"move {_move_text(state, move)}{extra}")  # the GUI confirms the engine's move
        assert self._game is not None
        self._game.moves.append(move)
        self._game.evals.append(value)
        self._game.times.append(seconds)
        self._known = state.play(move)
        return move

    # --- shutdown -----------------------------------------------------------------------------------------
    def close(self) -> None:
        self._stop_process(grace=2.0)

    def _stop_process(self, grace: float) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.poll() is None:
            try:
                if proc.stdin is not None:
                    proc.stdin.write("quit\n")
                    proc.stdin.flush()
            except (BrokenPipeError, OSError, ValueError):
                pass
            for act in (lambda: None, proc.terminate, proc.kill):  # the quit asked for, then terminate, then kill
                act()
                try:
                    proc.wait(timeout=grace)
                    break
                except subprocess.TimeoutExpired:
                    continue
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def __del__(self) -> None:  # pragma: no cover - best effort
        try:
            self._stop_process(grace=0.2)
        except Exception:  # __del__ may run at interpreter exit, with modules half torn down: nobody to tell
            pass


def _pump(stream: IO[str], put: Callable[[str], object], end: Callable[[], object] | None = None) -> threading.Thread:
    def run() -> None:
        try:
            for line in iter(stream.readline, ""):
                put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        if end is not None:
            end()

    thread = threading.Thread(target=run, name="nboard-client-reader", daemon=True)
    thread.start()
    return thread


def _move_text(state: OthelloState, move: int) -> str:
    return "PA" if move == PASS else square_name(move, state.n).upper()


def parse_answer(line: str, state: OthelloState) -> tuple[int, float | None, float | None]:
    """(move, eval, seconds) of ``=== F5/0.50/1.2``, ``=== F5 -1.00 0.0`` or ``=== F5``; PliesError if the move
    is not a legal move of ``state``."""
    body = line[3:].strip()
    parts = body.split("/") if "/" in body else body.split()
    if not parts or not parts[0]:
        raise PliesError(f"NBoard engine answered {line!r} without a move")
    mtext = parts[0].strip()
    try:
        move = PASS if mtext.lower() in ("pa", "pass", "ps") else state.parse_move(mtext)
    except (ParseError, ValueError) as e:
        raise IllegalAnswer(f"NBoard engine played {mtext!r}: {e}") from None
    if move == PASS and state.legal_moves() != [PASS]:
        raise IllegalAnswer(f"NBoard engine played {mtext!r}: it passed while it has a move")
    return move, _number(parts, 1), _number(parts, 2)


def _number(parts: list[str], i: int) -> float | None:
    if len(parts) <= i:
        return None
    try:
        return float(parts[i])
    except ValueError:
        return None


def parse_spec(raw: str) -> NBoardPlayer:
    """``[depth=N] [timeout=S] [startup=S] [name=X] [cwd=DIR] PROGRAM [ARGS...]`` -> NBoardPlayer."""
    words, opts = split_spec(raw, OPTIONS, "nboard")
    try:
        depth = int(opts["depth"]) if "depth" in opts else 6
        timeout = float(opts.get("timeout", 60))
        startup = float(opts.get("startup", 30))
    except ValueError:
        raise ParseError(f"bad nboard player options {opts}") from None
    name = opts.get("name") or "nboard:" + raw.strip()
    cwd = opts.get("cwd") or None
    if cwd is not None and not Path(cwd).is_dir():
        raise ParseError(f"cwd {cwd!r} is not a folder")
    return NBoardPlayer(words, depth=depth, timeout=timeout, startup=startup, name=name, cwd=cwd)


def _factory(game: str, params: dict[str, str], raw: str) -> Player:
    if game != "othello":
        raise ParseError("NBoard engines play Othello only")
    return parse_spec(raw)


register("nboard", _factory)

__all__ = ["NBoardPlayer", "parse_answer", "parse_spec"]
