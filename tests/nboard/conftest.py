"""A scripted NBoard GUI: feeds lines to an NBoardEngine and waits for its answers."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from plies.net.nboard import NBoardEngine, TextbookAnalyser, fast_engine_class

START_GGF = ("(;GM[Othello]PC[NBoard]PB[gui]PW[plies]RE[?]TI[15:00]TY[8]"
             "BO[8 ---------------------------O*------*O--------------------------- *]{moves};)")


def ggf(moves: str = "") -> str:
    """The start position plus ``moves`` like ``B[F5]W[F6]``, as NBoard sends it."""
    return START_GGF.format(moves=moves)


def ggf_of(transcript: str) -> str:
    from plies.formats.ggf import write_ggf
    from plies.formats.transcript import read_transcript

    return write_ggf(read_transcript(transcript))


def random_game(seed: int, max_moves: int):
    """A reproducible random game of at most ``max_moves`` moves (passes included)."""
    import random

    from plies.formats.model import OthelloGame
    from plies.games.othello import OthelloState

    rng = random.Random(seed)
    s = OthelloState.start()
    g = OthelloGame(start=s)
    while not s.is_over() and len(g.moves) < max_moves:
        m = rng.choice(s.legal_moves())
        g.moves.append(m)
        s = s.play(m)
    return g


class GUI:
    """Plays NBoard's side of the conversation against an in-process engine."""

    def __init__(self, analyser_kind: str, depth: int = 2) -> None:
        self.lines: list[str] = []
        self.cond = threading.Condition()
        analyser = TextbookAnalyser() if analyser_kind == "textbook" else fast_engine_class()(hash_mb=8)
        self.engine = NBoardEngine(self.write, analyser=analyser, depth=depth)
        self.seen = 0

    def write(self, line: str) -> None:
        assert "\n" not in line
        with self.cond:
            self.lines.append(line)
            self.cond.notify_all()

    def send(self, *commands: str) -> None:
        for c in commands:
            assert self.engine.handle(c) is not False or c == "quit"

    def new(self) -> list[str]:
        """Lines written since the last call."""
        with self.cond:
            out = self.lines[self.seen:]
            self.seen = len(self.lines)
        return out

    def until(self, pred: Callable[[str], bool], timeout: float = 120.0) -> list[str]:
        """Lines from the last read up to and including the first that satisfies ``pred``."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for i in range(self.seen, len(self.lines)):
                    if pred(self.lines[i]):
                        out = self.lines[self.seen:i + 1]
                        self.seen = i + 1
                        return out
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no expected line within {timeout}s; got {self.lines[self.seen:]}")
                self.cond.wait(left)


def _fast_available() -> bool:
    try:
        fast_engine_class()
        return True
    except ImportError:
        return False


@pytest.fixture(params=["textbook", "fast"])
def gui(request):
    if request.param == "fast" and not _fast_available():
        pytest.skip("needs the compiled engine (plies was installed without a C compiler)")
    g = GUI(request.param)
    yield g
    g.engine.stop()
