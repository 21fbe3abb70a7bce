"""plies as an NBoard engine: the NBoard protocol (version 2) on stdin/stdout.

The GUI sends one command per line (``nboard 2``, ``set depth N``, ``set game GGF``, ``set contempt N``,
``move F5/eval/time``, ``hint N``, ``go``, ``ping N``, ``learn``, ``analyze``, ``quit``); plies answers with
``set myname``, ``search PV EVAL 0 DEPTH TEXT`` lines while it deepens, ``=== MOVE/EVAL/TIME``, ``pong N``,
``learned``, ``analysis N EVAL``, ``status TEXT`` and ``nodestats NODES SECONDS``.  Every line is flushed;
unknown lines are ignored.  Searches run in a worker thread so ``ping`` (and ``quit``) stop them at once.

Searches use the fast engine (``plies.engine.Engine``) when it is available, otherwise an iterative-deepening
adapter over the textbook alpha-beta with the same ``analyse``/``stop`` API.
"""

from __future__ import annotations

import math
import select
import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from plies import heuristics
from plies.formats.ggf import read_ggf
from plies.formats.model import OthelloGame
from plies.game import PASS, WIN, IllegalMoveError, Move, PliesError, State
from plies.games.othello import OthelloState, square_name
from plies.search import alphabeta
from plies.search.result import SearchResult, Stats

if TYPE_CHECKING:
    from typing_extensions import TypeIs

    from plies.engine import Engine
    from plies.players import Player


DEFAULT_NAME = "plies"
MAX_DEPTH = 60  # 'set depth' and --depth: the whole game
MAX_LINE = 1 << 20
"""Longest command line read (characters); longer lines are skipped with a status error."""
PROGRESS = Callable[[list[SearchResult]], None]
_Key = tuple[int, bool, Move, float, int]
"""What a search last reported (depth, exact, move, value, count): its final answer is sent again only when new."""


class Analyser(Protocol):
    """What the NBoard engine needs from a search: ``plies.engine.Engine`` has this shape."""

    def analyse(self, state: OthelloState, *, depth: int | None = None, time: float | None = None,
                exact: bool = False, multipv: int = 1, on_progress: PROGRESS | None = None) -> list[SearchResult]: ...

    def stop(self) -> None: ...


def _is_analyser(x: object) -> TypeIs[Analyser]:
    """An analyser itself (an object with ``analyse``), not a class or factory that makes one."""
    return hasattr(x, "analyse") and not isinstance(x, type)


class _Stopped(Exception):
    pass


class TextbookAnalyser:
    """Iterative deepening over ``plies.search.alphabeta`` with the engine's analyse/stop API (the fallback
    while the fast engine is missing, and a slow but simple reference).  Values are from the side to move's
    view; a proven result is given in discs and marked ``exact`` when no heuristic leaf was needed."""

    def __init__(self, evaluation: str | None = None) -> None:
        self.heuristic = heuristics.get("othello", evaluation)
        self._stop = threading.Event()

    def stop(self) -> None:
        self._stop.set()

    def analyse(self, state: OthelloState, depth: int | None = None, time: float | None = None, exact: bool = False,
                multipv: int = 1, on_progress: PROGRESS | None = None) -> list[SearchResult]:
        self._stop.clear()
        if state.is_over():
            return [SearchResult(float(_side_score(state)), None, [], Stats(), "alphabeta", "", True)]
        empties = state.empties() if hasattr(state, "empties") else 60
        limit = 2 * empties + 1 if exact or depth is None else max(1, depth)
        deadline = None if time is None else _now() + time
        t0 = _now()
        best: list[SearchResult] = []
        total_nodes = 0
        for d in range(1, limit + 1):
            try:
                results, nodes, proven = self._depth(state, d, multipv, deadline if d > 1 else None)
            except _Stopped:
                break
            total_nodes += nodes
            secs = _now() - t0
            for r in results:
                r.stats = Stats(nodes=total_nodes, seconds=secs, depth=d)
                r.exact = proven
            best = results
            if on_progress is not None:
                on_progress(list(best))
            if proven or (deadline is not None and _now() >= deadline):
                break
        return best

    def _depth(self, state: OthelloState, d: int, multipv: int,
               deadline: float | None) -> tuple[list[SearchResult], int, bool]:
        heuristic_leaves = [0]
        h = self.heuristic

        def evaluate(s: State, p: int) -> float:
            heuristic_leaves[0] += 1
            return h(s, p)

        def order(node: State, moves: list[Move]) -> list[Move]:
            if self._stop.is_set() or (deadline is not None and _now() >= deadline):
                raise _Stopped
            return moves

        me = state.to_move
        if multipv <= 1:
            r = alphabeta(state, d, evaluate, order=order)
            out = [SearchResult(disc_value(r.value), r.move, r.pv, r.stats, "alphabeta", h.name)]
            return out, r.stats.nodes, heuristic_leaves[0] == 0
        results = []
        nodes = 0
        for m in state.legal_moves():
            child = state.play(m)
            r = alphabeta(child, d - 1, evaluate, order=order)
            v = r.value if child.to_move == me else -r.value
            nodes += r.stats.nodes
            results.append(SearchResult(disc_value(v), m, [m, *r.pv], r.stats, "alphabeta", h.name))
        results.sort(key=lambda r: -r.value)
        return results[:multipv], nodes, heuristic_leaves[0] == 0


class PlayerAnalyser:
    """Any plies player (a student's module) as the NBoard engine's search: ``go`` answers the move the player
    chooses, as it chose it (a move the rules refuse goes out as it is, for the GUI to judge).  A player that
    raises, or answers something that is no move, ends the engine: one line on stderr naming the exception and the
    line of its file, exit status 2, so whoever runs it sees the crash instead of a move played in its place."""

    def __init__(self, player: Player, exit: Callable[[str], None] | None = None) -> None:
        self.player = player
        self.exit = exit or _exit_engine

    def stop(self) -> None:
        """A player cannot be interrupted: its move is awaited (a GUI's time-out judges a slow one)."""

    def analyse(self, state: OthelloState, depth: int | None = None, time: float | None = None, exact: bool = False,
                multipv: int = 1, on_progress: PROGRESS | None = None) -> list[SearchResult]:
        from plies.match.record import where

        t0 = _now()
        try:
            move = self.player.choose(state)
        except Exception as e:
            self.exit(f"the player {self.player.name!r} raised {type(e).__name__}: {e}{where(e)}")
            return []
        if not (move == PASS or isinstance(move, int) and not isinstance(move, bool) and 0 <= move < state.n ** 2):
            self.exit(f"the player {self.player.name!r} chose {move!r}, which is not a move")
            return []
        last = getattr(self.player, "last_result", None)
        value = float(last.value) if last is not None and math.isfinite(last.value) else 0.0
        stats = Stats(nodes=last.stats.nodes if last is not None else 0, seconds=_now() - t0,
                      depth=last.stats.depth if last is not None else 0)
        return [SearchResult(value, move, [move], stats, self.player.name, "")]


def _exit_engine(text: str) -> None:
    """End ``plies nboard`` at once with ``text`` on stderr (from the search thread: nothing else may answer)."""
    import os
    import sys

    sys.stderr.write(f"plies: error: {text}\n")
    sys.stderr.flush()
    os._exit(2)


def _now() -> float:
    return time.perf_counter()


def _side_score(state: State) -> float:
    s = state.score()
    return s if state.to_move == 0 else -s


def disc_value(v: float) -> float:
    """A search value with the ±WIN offset of decided games removed (so a won endgame reads as its margin)."""
    if v >= WIN:
        return v - WIN
    if v <= -WIN:
        return v + WIN
    return v


def make_analyser(kind: str = "auto", evaluation: str | None = None, hash_mb: int = 64,
                  threads: int = 1) -> Analyser:
    """``fast`` = plies.engine.Engine, ``textbook`` = alpha-beta adapter, ``auto`` = fast when importable;
    ``evaluation`` for either (each refuses a name it does not know)."""
    if kind in ("auto", "fast", "engine"):
        try:
            engine_class = fast_engine_class()
            return engine_class(hash_mb=hash_mb, threads=threads, evaluation=evaluation or "default")
        except ImportError as e:  # plies installed without its compiled core: the textbook search answers
            if kind != "auto":
                raise PliesError(f"the fast engine (plies.engine.Engine) is not available: {e}") from None
    elif kind not in ("textbook", "alphabeta"):
        raise PliesError(f"unknown engine {kind!r}; use auto, fast or textbook")
    return TextbookAnalyser(evaluation)


def fast_engine_class() -> type[Engine]:
    """``plies.engine.Engine`` (imported lazily); ImportError when plies was installed without its compiled core."""
    from plies.engine import Engine

    return Engine



# --- formatting ---------------------------------------------------------------------------------------------

def move_text(state: OthelloState, move: int) -> str:
    """``F5`` / ``PA`` as NBoard writes moves."""
    return "PA" if move == PASS else square_name(move, state.n).upper()


def pv_text(state: OthelloState, pv: Iterable[int]) -> str:
    """A PV without spaces (``F5D6C3``); stops at the first move that does not replay."""
    out, s = [], state
    for m in pv:
        try:
            nxt = s.play(m)
        except IllegalMoveError:  # a variation cut by a table hit can end in a move of another line
            break
        out.append(move_text(s, m))
        s = nxt
    return "".join(out)


def eval_text(value: float) -> str:
    return f"{disc_value(value):.2f}"


def depth_text(r: SearchResult) -> str:
    """NBoard's depth field: ``100%`` for an exact solve, ``26@95%`` for a selective one, else the depth."""
    return "100%" if r.exact else r.depth_text(whole_percent=True)


class _Job:
    def __init__(self) -> None:
        self.cancelled = False
        self.thread: threading.Thread | None = None


class NBoardEngine:
    """The engine side of the NBoard protocol over any line writer.  ``handle(line)`` processes one command
    (returns False on ``quit``); ``serve(inp)`` runs the whole session."""

    def __init__(
        self,
        write: Callable[[str], None],
        analyser: Analyser | Callable[[], Analyser] | None = None,
        depth: int = 4,
        move_time: float | None = None,
        name: str = DEFAULT_NAME,
        exact_empties: int | None = None,
    ) -> None:
        self._write = write
        self._analyser_spec = analyser
        self._analyser: Analyser | None = None
        self.depth = depth
        self.move_time = move_time
        self.name = name
        self.exact_empties = exact_empties
        self.contempt = 0.0
        self.version = 0
        self.game = OthelloGame()
        self.state: OthelloState = self.game.start
        self._lock = threading.Lock()
        self._job: _Job | None = None
        self.output_closed = False
        self.output: TextIO | None = None  # the stream the lines go to, when known: its reader's end is watched

    # --- output ---------------------------------------------------------------------------------------------
    def send(self, line: str, job: _Job | None = None) -> None:
        """Write one line (flushed by the writer); a cancelled job's lines are dropped.  An output that can no
        longer be written (the GUI has gone: a broken pipe) ends the conversation: nothing more is written,
        the running search is cancelled and ``serve`` stops reading."""
        with self._lock:
            if self.output_closed or (job is not None and job.cancelled):
                return
            try:
                self._write(line)
            except OSError:  # BrokenPipeError and the like: nobody is listening any more
                self.output_closed = True
                if self._job is not None:
                    self._job.cancelled = True

    @property
    def analyser(self) -> Analyser:
        if self._analyser is None:
            spec = self._analyser_spec
            if spec is None:
                self._analyser = make_analyser()
            elif _is_analyser(spec):
                self._analyser = spec
            else:  # a factory (or a class) called on first use
                self._analyser = spec()
        return self._analyser

    # --- commands -------------------------------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Process one line from the GUI; False after ``quit``.  Errors become ``status`` lines."""
        words = line.strip().split(None, 1)
        if not words:
            return True
        cmd, arg = words[0], (words[1] if len(words) > 1 else "")
        try:
            return self._dispatch(cmd, arg.strip())
        except PliesError as e:
            self.send(f"status error: {e}")
        except Exception as e:  # a bug: keep the session alive
            self.send(f"status internal error: {type(e).__name__}: {e}")
        return True

    def _dispatch(self, cmd: str, arg: str) -> bool:
        if cmd == "nboard":
            self.version = _int(arg, 0)
            self.send(f"set myname {self.name}")
        elif cmd == "set":
            key, _, value = arg.partition(" ")
            value = value.strip()
            if key == "depth":
                depth = _int(value, 0)
                if not 1 <= depth <= MAX_DEPTH:  # said, and still acknowledged: the GUI waits for its 'set myname'
                    self.send(f"status error: bad depth {value[:20]!r} (1 to {MAX_DEPTH}); the depth stays "
                              f"{self.depth}")
                else:
                    self.depth = depth
                self.send(f"set myname {self.name}")
            elif key == "game":
                self.stop()
                self._set_game(value)
            elif key == "contempt":
                contempt = _float(value)
                if contempt is None:
                    raise PliesError(f"bad contempt {value!r}")
                self.contempt = contempt
        elif cmd == "move":
            self.stop()
            self._move(arg)
        elif cmd == "hint":
            count = _int(arg, 0) if arg.strip() else 1
            if not 1 <= count <= 64:
                raise PliesError(f"bad hint count {arg.strip()[:20]!r} (1 to 64 moves)")
            self._start(self._hint, count)
        elif cmd == "go":
            self._start(self._go)
        elif cmd == "analyze":
            self._start(self._analyze)
        elif cmd == "ping":
            self.stop()
            self.send(f"pong {arg}".rstrip())
        elif cmd == "learn":
            self.send("learned")
        elif cmd == "quit":
            self.stop()
            return False
        elif len(cmd) == 2 and cmd[0].lower() in "abcdefgh" and cmd[1] in "12345678" and not arg:
            self.stop()
            self._move(cmd)  # NBoard 1.1 sent bare moves
        return True

    def _set_game(self, text: str) -> None:
        game = read_ggf(text)
        state = game.final
        if state.n != 8:
            raise PliesError("NBoard games are 8x8")
        self.game, self.state = game, state

    def _move(self, arg: str) -> None:
        mtext = arg.split("/")[0].strip()
        s = self.state
        is_pass = mtext.lower() in ("pa", "pass", "ps", "--")
        implied_pass = not is_pass and s.legal_moves() == [PASS]  # a forced pass the GUI left out
        if implied_pass:
            s = s.play(PASS)
        move = PASS if is_pass else s.parse_move(mtext)
        after = s.play(move)  # a refused move raises before the game changes
        parts = arg.split("/")
        if implied_pass:
            self.game.moves.append(PASS)
            self.game.evals.append(None)
            self.game.times.append(None)
        self.game.moves.append(move)
        self.game.evals.append(_float(parts[1]) if len(parts) > 1 else None)
        self.game.times.append(_float(parts[2]) if len(parts) > 2 else None)
        self.state = after

    # --- the worker -----------------------------------------------------------------------------------------
    def _start(self, fn: Callable[..., None], *args: object) -> None:
        self.stop()
        job = _Job()
        t = threading.Thread(target=self._run, args=(job, fn, args), name="nboard-search", daemon=True)
        job.thread = t
        self._job = job
        t.start()

    def _run(self, job: _Job, fn: Callable[..., None], args: tuple[object, ...]) -> None:
        try:
            fn(job, *args)
        except Exception as e:  # the search thread's boundary: the GUI reads why, the session goes on
            self.send(f"status error: {type(e).__name__}: {e}", job)

    def busy(self) -> bool:
        return self._job is not None and self._job.thread is not None and self._job.thread.is_alive()

    def stop(self) -> None:
        """Cancel the running search (no more lines from it) and wait until its thread has ended."""
        job = self._job
        if job is None:
            return
        with self._lock:
            job.cancelled = True
        t = job.thread
        while t is not None and t.is_alive():
            if self._analyser is not None:
                self._analyser.stop()
            t.join(0.05)
        self._job = None

    def wait(self, timeout: float | None = None) -> None:
        """Block until the current search finishes (or ``timeout`` seconds), checking every 0.1 s so that
        Ctrl-C is not held up; returns early when the output has closed (the search's lines would go
        nowhere)."""
        job = self._job
        t = job.thread if job is not None else None
        deadline = None if timeout is None else _now() + timeout
        while t is not None and t.is_alive() and not self.output_closed:
            if _reader_gone(self.output):  # the GUI died at the end of its input: its answer would go nowhere
                self.output_closed = True
                if self._job is not None:
                    self._job.cancelled = True
                return
            left = 0.1 if deadline is None else min(0.1, deadline - _now())
            if left <= 0:
                return
            t.join(left)

    def _search(self, job: _Job, state: OthelloState, multipv: int, stream: bool,
                depth: int | None = None) -> list[SearchResult]:
        """Analyse ``state`` (a forced pass is handled here), streaming search/nodestats lines."""
        if state.legal_moves() == [PASS]:
            after = state.play(PASS)
            inner = self._search(job, after, 1, False, depth)
            out = []
            for r in inner[:1]:
                out.append(SearchResult(-r.value, PASS, [PASS, *r.pv], r.stats, r.algorithm, r.evaluation,
                                        r.exact))
            if stream:
                self._emit(job, state, out)
            return out
        last_key: list[_Key | None] = [None]

        def progress(results: list[SearchResult]) -> None:
            if job.cancelled:
                return
            if stream:
                self._emit(job, state, results[:multipv])
            if results:
                st = results[0].stats
                self.send(f"nodestats {st.nodes} {st.seconds:.2f}", job)
            last_key[0] = _key(results)

        analyser = self.analyser
        limit = self.exact_empties
        if limit is None:  # solve endgames exactly where the searcher can afford it
            limit = 0 if isinstance(analyser, TextbookAnalyser) else 14
        exact = state.empties() <= limit
        results = analyser.analyse(state, depth=None if exact else (depth or self.depth), time=self.move_time,
                                   exact=exact, multipv=multipv, on_progress=progress)
        results = [r for r in results if r.move is not None]
        if results and stream and last_key[0] != _key(results) and not job.cancelled:
            self._emit(job, state, results[:multipv])
        return results

    def _emit(self, job: _Job, state: OthelloState, results: list[SearchResult]) -> None:
        for r in results:
            pv = r.pv if r.pv and r.pv[0] == r.move else [r.move, *r.pv]
            text = f"{r.stats.nodes} nodes {r.stats.seconds:.2f}s"
            self.send(f"search {pv_text(state, pv)} {eval_text(r.value)} 0 {depth_text(r)} {text}", job)

    def _hint(self, job: _Job, n: int) -> None:
        state = self.state
        if state.is_over():
            self.send("status game over", job)
            return
        self.send(f"status {self.name} is thinking", job)
        self._search(job, state, n, True)
        self.send("status", job)

    def _go(self, job: _Job) -> None:
        state = self.state
        if state.is_over():
            self.send("status game over: no move", job)
            return
        t0 = _now()
        self.send(f"status {self.name} is thinking", job)
        try:
            results = self._search(job, state, 1, True)
        except Exception as e:  # answer anyway: a GUI waiting for '===' must not hang
            self.send(f"status search failed ({type(e).__name__}: {e}); playing the first legal move", job)
            results = []
        secs = _now() - t0
        if results:
            best = results[0]
            self.send(f"=== {move_text(state, best.move)}/{eval_text(best.value)}/{secs:.2f}", job)
        else:
            self.send(f"=== {move_text(state, state.legal_moves()[0])}", job)
        self.send(f"status {self.name} is waiting", job)

    def _analyze(self, job: _Job) -> None:
        """``analysis N EVAL`` for every position of the game, from the last back to the start: N moves played
        (passes counted), EVAL from the side to move's view."""
        states = self.game.states()
        self.send(f"status {self.name} is analysing the game", job)
        for k in range(len(states) - 1, -1, -1):
            if job.cancelled:
                return
            s = states[k]
            if s.is_over():
                value = _side_score(s)
            else:
                results = self._search(job, s, 1, False)
                if not results:
                    return
                value = results[0].value
            self.send(f"analysis {k} {eval_text(value)}", job)
        self.send("status", job)

    # --- the session ----------------------------------------------------------------------------------------
    def serve(self, inp: TextIO) -> None:
        """Read commands until ``quit`` or end of input.  A line longer than ``MAX_LINE`` characters is
        answered with a status error and skipped (a GGF game is a few kilobytes).  ``quit`` cancels a running
        search at once.  At the end of the input a search in progress is finished first and gives its answer
        (``printf 'nboard 2\\ngo\\n' | plies nboard`` prints its move; the search is bounded by its depth, or
        ``--time``); with none running the session ends at once.  A GUI that died leaves no search behind it:
        once the output is closed (a broken pipe) the search is cancelled and the session ends."""
        try:
            while not self.output_closed:
                try:
                    line = inp.readline(MAX_LINE + 1)
                except (UnicodeDecodeError, ValueError) as e:  # a stream that still decodes strictly
                    self.send(f"status error: unreadable input ({type(e).__name__})")
                    continue
                if not line:
                    self.wait()  # the end of the input: the search under way finishes and says its move
                    break
                if len(line) > MAX_LINE and not line.endswith("\n"):
                    while line and not line.endswith("\n"):  # skip the rest of the line, a bounded piece at a time
                        line = inp.readline(MAX_LINE + 1)
                    self.send(f"status error: line longer than {MAX_LINE} characters ignored")
                    continue
                if not self.handle(line):
                    break
        finally:  # quit, a closed output, Ctrl-C: no search left running
            self.stop()


def _key(results: list[SearchResult]) -> _Key | None:
    if not results:
        return None
    r = results[0]
    return (r.stats.depth, r.exact, r.move, round(r.value, 6), len(results))


def _int(text: str, default: int) -> int:
    try:
        return int(text.split()[0])
    except (ValueError, IndexError):
        return default


def _float(text: str) -> float | None:
    try:
        v = float(text)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def _reader_gone(out: TextIO | None) -> bool:
    """Whether ``out`` is a pipe whose reader has closed it (poll reports an error or hang-up on our end), seen
    without writing to it; False for anything else (a terminal, a file, a stream without a descriptor)."""
    if out is None or not hasattr(select, "poll"):
        return False
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    p = select.poll()
    p.register(fd, 0)  # error and hang-up are always reported
    return any(ev & (select.POLLERR | select.POLLHUP) for _, ev in p.poll(0))


def line_writer(out: TextIO) -> Callable[[str], None]:
    """A writer that puts one line on ``out`` and flushes it (the protocol's one hard rule)."""

    def write(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    return write


def run(inp: TextIO, out: TextIO, **options: Any) -> None:
    """A whole NBoard session on the given streams (``plies nboard`` uses stdin/stdout)."""
    engine = NBoardEngine(line_writer(out), **options)
    engine.output = out
    engine.serve(inp)


__all__ = ["Analyser", "NBoardEngine", "PlayerAnalyser", "TextbookAnalyser", "disc_value", "line_writer",
           "fast_engine_class", "make_analyser", "move_text", "pv_text", "run"]
