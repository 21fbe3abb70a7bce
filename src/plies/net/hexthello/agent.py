"""A HexThello agent program of the course (a C ``client``, or any program that connects over TCP and speaks the
course's bytes) as a plies player: plies is its server for one game.

Spec: ``course:[timeout=S] [connect=S] [name=X] [cwd=DIR] PROGRAM [ARGS...]`` — the text after ``course:`` is a
command line (shlex-split; leading ``key=value`` words are options).  ``{host}`` and ``{port}`` in it are replaced
by the address plies listens on; without them ``-i HOST -p PORT`` (the course's client options) are appended.

For each game the player listens on 127.0.0.1, starts the program (in ``cwd``) and waits ``connect`` seconds
(default 10) for it to connect; then, as the course's server does, it sends the colour (102/103) and 106 (the
answer: a length byte, then the name), 101 + the position, 105 + each opponent move and 104 for each of the
agent's moves, which must come back within ``timeout`` seconds (default 60); 107 at the end.  A program that
does not connect, exits, closes the connection or sends bytes that are no move crashes (its last output lines are
kept in the reason); one that is silent past the time loses on time (``NoAnswer``); one that answers a move the
rules refuse loses by an illegal move (``IllegalAnswer``).  The program runs in a session of its own, killed with
everything it started when the game ends, and dies with plies (a ``kill -9`` of a match leaves it no orphan).
"""

from __future__ import annotations

import collections
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

from plies.game import PASS, ParseError, PliesError, State
from plies.games.hexthello import HexThelloState, move_text
from plies.match.record import CRASH, Forfeit, IllegalAnswer, NoAnswer, StartupError
from plies.net import split_spec
from plies.net.hexthello import protocol as P
from plies.players import Player, register

OPTIONS = ("timeout", "connect", "name", "cwd")
CONNECT_TIME = 10.0
"""Seconds a program has to connect and give its name."""
MOVE_TIME = 60.0
"""Seconds a program has for a move (plies' server's default)."""

_GUARD = ("import ctypes, os, sys\n"
          "ctypes.CDLL(None).prctl(1, 9)\n"  # PR_SET_PDEATHSIG, SIGKILL: die with the process that started us
          "os.getppid() == int(sys.argv[1]) or os._exit(1)\n"  # ... which may have died already
          "os.execvp(sys.argv[2], sys.argv[2:])\n")
"""Run on Linux before the agent's program (then replaced by it): the program is killed when plies dies."""


class AgentCrash(Forfeit):
    """The agent program exited, closed its connection or did not connect: it loses the game by a crash."""

    termination = CRASH


class CourseAgentPlayer(Player):
    """Starts a course agent program for each game and serves it that game over TCP, byte for byte as the course's
    server does (see the module's text)."""

    def __init__(self, command: list[str], move_time: float = MOVE_TIME, connect_time: float = CONNECT_TIME,
                 name: str | None = None, cwd: str | None = None) -> None:
        if not command:
            raise ParseError("a course agent needs a program to run, e.g. course:./client")
        if not move_time > 0 or not connect_time > 0:
            raise ParseError("timeout and connect must be positive numbers of seconds")
        if cwd is not None and not Path(cwd).is_dir():
            raise ParseError(f"cwd {cwd!r} is not a folder")
        self.command, self.move_time, self.connect_time, self.cwd = command, move_time, connect_time, cwd
        self.name = name or "course:" + shlex.join(command)
        self.agent_name = ""  # what the program answered to 106
        self.side = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.sock: socket.socket | None = None
        self._output: collections.deque[str] = collections.deque(maxlen=8)
        self._pump: threading.Thread | None = None
        self._known: HexThelloState | None = None
        self._told_side = False

    # --- the program --------------------------------------------------------------------------------------
    def take_side(self, side: int) -> None:
        self.side = side

    def _program(self) -> str:
        """The program's path, checked before it is started: StartupError when there is none to run."""
        exe = self.command[0]
        if os.sep in exe or (os.altsep and os.altsep in exe):
            path = Path(self.cwd or ".") / exe
            if path.is_file() and os.access(path, os.X_OK):
                return str(path)
        else:
            found = shutil.which(exe)
            if found is not None:
                return found
        raise StartupError(f"cannot start course agent {exe!r}: no such program"
                           + (f" in {self.cwd}" if self.cwd and os.sep in exe else "")
                           + " (or it is not executable)")

    def _start(self, listener: socket.socket) -> None:
        host, port = listener.getsockname()[:2]
        words = [w.replace("{host}", host).replace("{port}", str(port)) for w in self.command]
        if not any("{host}" in w or "{port}" in w for w in self.command):
            words += ["-i", host, "-p", str(port)]
        words[0] = self._program()
        if sys.platform.startswith("linux"):
            words = [sys.executable, "-c", _GUARD, str(os.getpid()), *words]
        self._output.clear()
        try:
            self.proc = subprocess.Popen(words, cwd=self.cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, start_new_session=True)
        except OSError as e:
            failure = f"cannot start course agent {self.command[0]!r}: {e.strerror or e}"
        else:
            self._pump = _pump(self.proc.stdout, self._output.append)
            return
        raise StartupError(failure)  # outside the handler: the event sees a StartupError, nothing chained

    def _why(self) -> str:
        """The exit code and the last lines the program printed, for a reason."""
        code = self.proc.poll() if self.proc is not None else None
        if code is None and self.proc is not None:
            try:
                code = self.proc.wait(0.5)
            except subprocess.TimeoutExpired:
                code = None
        if code is not None and self._pump is not None:
            self._pump.join(0.5)  # the last lines it printed
        tail = " | ".join(line.strip() for line in list(self._output)[-3:] if line.strip())
        return (f" (exit code {code})" if code is not None else "") + (f": {tail[-300:]}" if tail else "")

    # --- bytes --------------------------------------------------------------------------------------------
    def _send(self, data: bytes) -> None:
        if self.sock is None:
            raise AgentCrash("the agent is not connected")
        try:
            self.sock.sendall(data)
        except OSError:
            raise AgentCrash(f"the agent closed the connection{self._why()}") from None

    def _recv(self, n: int, deadline: float, waiting_for: str) -> bytes:
        sock = self.sock
        if sock is None:
            raise AgentCrash("the agent is not connected")
        data = b""
        while len(data) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise NoAnswer(f"no {waiting_for} within {self._limit(waiting_for):g} s")
            sock.settimeout(left)
            try:
                chunk = sock.recv(n - len(data))
            except TimeoutError:
                raise NoAnswer(f"no {waiting_for} within {self._limit(waiting_for):g} s") from None
            except OSError:
                chunk = b""
            if not chunk:
                raise AgentCrash(f"the agent closed the connection while plies waited for its {waiting_for}"
                                 f"{self._why()}")
            data += chunk
        return data

    def _limit(self, waiting_for: str) -> float:
        return self.move_time if waiting_for == "move" else self.connect_time

    # --- the game -----------------------------------------------------------------------------------------
    def new_game(self, state: State) -> None:
        if not isinstance(state, HexThelloState):
            raise PliesError("course agents play HexThello only")
        self._stop_program()
        listener = socket.create_server(("127.0.0.1", 0))
        try:
            self._start(listener)
            deadline = time.monotonic() + self.connect_time
            self.sock = self._accept(listener, deadline)
        finally:
            listener.close()
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._send(bytes([P.COLOR_W if self.side == 1 else P.COLOR_B, P.REQUEST_NAME]))
        try:
            length = P.name_length(self._recv(1, deadline, "name")[0])
        except P.ProtocolError as e:
            raise AgentCrash(str(e)) from None
        self.agent_name = P.decode_name(self._recv(length, deadline, "name")) if length else "anon"
        self._send(bytes([P.NEW_POSITION]) + P.encode_position(state))
        self._known = state

    def _accept(self, listener: socket.socket, deadline: float) -> socket.socket:
        """The program's connection, or AgentCrash when it exits first or does not connect in time."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AgentCrash(f"the agent did not connect within {self.connect_time:g} s{self._why()}")
            listener.settimeout(min(0.2, left))
            try:
                sock, _ = listener.accept()
                return sock
            except TimeoutError:
                if self.proc is not None and self.proc.poll() is not None:
                    raise AgentCrash(f"the agent exited before it connected{self._why()}") from None

    def _catch_up(self, state: HexThelloState) -> None:
        """105 + the opponent's move since the agent's own (found by replaying one ply of the known position)."""
        known = self._known
        if known is None or known == state:
            return
        for move in known.legal_moves():
            if known.play(move) == state:
                self._send(bytes([P.PREPARE_TO_RECEIVE_MOVE]) + P.encode_move(move))
                self._known = state
                return
        raise PliesError("the game went on by more than one move since the agent's last one")

    def choose(self, state: State) -> int:
        if not isinstance(state, HexThelloState):
            raise PliesError("course agents play HexThello only")
        self._catch_up(state)
        self._send(bytes([P.REQUEST_MOVE]))
        row, col = P.decode_move(self._recv(2, time.monotonic() + self.move_time, "move"))
        moves = state.legal_moves()
        if row == P.NULL_MOVE:
            if moves != [PASS]:
                raise IllegalAnswer("it passed while it has a move")
            move = PASS
        else:
            try:
                move = P.move_from_rowcol(row, col)
            except P.ProtocolError as e:
                raise IllegalAnswer(str(e)) from None
            if move not in moves:
                why = "it must pass" if moves == [PASS] else "occupied" if (state.black | state.white) >> move & 1 \
                    else "a hole" if state.holes >> move & 1 else "it flips nothing"
                raise IllegalAnswer(f"{move_text(move)} ({why})")
        self._known = state.play(move)
        return move

    # --- shutdown -----------------------------------------------------------------------------------------
    def close(self) -> None:
        self._stop_program()

    def _stop_program(self) -> None:
        sock, self.sock = self.sock, None
        if sock is not None:
            try:
                sock.settimeout(1.0)
                sock.sendall(bytes([P.QUIT]))
            except OSError:
                pass
            sock.close()
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            proc.wait(1.0)  # a course client leaves on 107
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the program, and whatever it started
        except (ProcessLookupError, PermissionError, OSError):
            pass
        try:
            proc.wait(5.0)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not refused
            pass
        # its output pipe is closed by the thread that reads it, at the end of the output

    def __del__(self) -> None:  # pragma: no cover - best effort
        proc = getattr(self, "proc", None)  # None too when the constructor refused its arguments
        if proc is not None and proc.returncode is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except Exception:  # gone already; or, at interpreter exit, modules half torn down
                pass


def _pump(stream: IO[bytes] | None, put: Callable[[str], object]) -> threading.Thread | None:
    """Read the program's output in a thread (so it never blocks on a full pipe), keeping lines for reasons."""
    if stream is None:
        return None

    def run() -> None:
        try:
            for line in iter(stream.readline, b""):
                put(line[:500].decode("utf-8", "replace").rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        finally:
            stream.close()

    thread = threading.Thread(target=run, name="course-agent-output", daemon=True)
    thread.start()
    return thread


def parse_spec(raw: str) -> CourseAgentPlayer:
    """``[timeout=S] [connect=S] [name=X] [cwd=DIR] PROGRAM [ARGS...]`` -> CourseAgentPlayer."""
    words, opts = split_spec(raw, OPTIONS, "course agent")
    try:
        move_time = float(opts.get("timeout", MOVE_TIME))
        connect_time = float(opts.get("connect", CONNECT_TIME))
    except ValueError:
        raise ParseError(f"bad course agent options {opts}: timeout and connect are seconds") from None
    return CourseAgentPlayer(words, move_time, connect_time, opts.get("name") or None, opts.get("cwd") or None)


def _factory(game: str, params: dict[str, str], raw: str) -> Player:
    if game != "hexthello":
        raise ParseError("course agents play HexThello only (--game hexthello)")
    return parse_spec(raw)


register("course", _factory)

__all__ = ["AgentCrash", "CourseAgentPlayer", "parse_spec"]
