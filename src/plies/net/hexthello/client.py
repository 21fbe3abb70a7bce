"""A HexThello agent for the course's server (or ``plies hexthello server``), byte for byte.

It connects (retrying every second while the server is not up yet, as the course's client does), answers 106
with its name (at most 8 bytes, the framework's limit), keeps its own copy of the position from 101 (holes,
the ILLEGAL cells, included), applies 105 moves for the opponent, answers 104 with its move (and applies it),
and leaves on 107 or when the server closes.  Messages are accepted in any order, as the course's client does.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from plies.game import PASS, PliesError
from plies.games.hexthello import SIZE, HexThelloState, move_text, on_board
from plies.heuristics import hexthello as _hex_heuristics  # noqa: F401  (registers the hexthello heuristics)
from plies.match.record import where
from plies.net.hexthello import protocol as P
from plies.players import Player


@dataclass
class ClientLog:
    """What the client saw: colours, games started, moves sent and received, whether QUIT came."""

    colours: list[str] = field(default_factory=list)
    positions: int = 0
    sent: list[int] = field(default_factory=list)
    received: list[int] = field(default_factory=list)
    quit: bool = False


class HexClient:
    """Plays ``player`` (any plies Player for HexThello) over one TCP connection.

    ``connect_wait``: seconds to keep retrying (every ``retry`` seconds) while nobody listens yet; None retries
    for ever, as the course's client; 0 tries once.  Every player plays positions with holes (the compiled
    searchers take them as walls).  ``strict`` sends whatever cell the player chooses (the server judges it, as
    the course's does: an illegal move loses the game); otherwise a move that is not legal on the client's
    board is replaced by the first legal one.  A player that raises ends the session with a PliesError that
    names the exception and the line it came from."""

    def __init__(self, player: Player, name: str = "plies", host: str = "127.0.0.1", port: int = P.DEFAULT_PORT,
                 log: Callable[[str], None] | None = None, timeout: float | None = None,
                 connect_wait: float | None = 0.0, retry: float = 1.0, strict: bool = False) -> None:
        self.player, self.name, self.host, self.port = player, name, host, port
        self.strict = strict  # send the player's move as it chose it (a student's agent), legal or not
        self.say = log or (lambda text: None)
        self.timeout = timeout
        self.connect_wait, self.retry = connect_wait, retry
        self.state = HexThelloState.start()
        self.me = 0  # plies player: 0 Black, 1 White
        self.record = ClientLog()
        self.last_column = 0  # what the course's client leaves in a pass's column byte
        self.depth = 0  # the depth the player's search reached for the last move (0: not a search)

    def connect(self) -> socket.socket:
        """Connect, retrying every ``retry`` seconds for ``connect_wait`` seconds (None: for ever)."""
        deadline = None if self.connect_wait is None else time.monotonic() + self.connect_wait
        tries = 0
        while True:
            tries += 1
            try:
                return socket.create_connection((self.host, self.port), timeout=self.timeout or 10.0)
            except OSError as e:
                why = e.strerror or str(e)
                if deadline is not None and time.monotonic() + self.retry > deadline:
                    extra = f" (tried {tries} times)" if tries > 1 else ""
                    raise PliesError(f"cannot connect to {self.host}:{self.port}: {why}{extra}") from None
                if tries == 1:
                    self.say(f"cannot connect to {self.host}:{self.port} ({why}); retrying every "
                             f"{self.retry:g} s")
                time.sleep(self.retry)

    def run(self) -> ClientLog:
        """Connect and play until QUIT (or until the server closes the connection)."""
        sock = self.connect()
        sock.settimeout(self.timeout)
        with sock:
            try:
                self._loop(sock)
            except ConnectionError as e:
                self.say(f"connection ended: {e}")
        return self.record

    def _loop(self, sock: socket.socket) -> None:
        while True:
            msg = P.recv_exact(sock, 1)[0]
            if msg == P.REQUEST_NAME:
                sock.sendall(P.encode_name(self.name))
            elif msg in (P.COLOR_W, P.COLOR_B):
                self.me = 1 if msg == P.COLOR_W else 0
                self.record.colours.append("white" if self.me else "black")
                self.say(f"playing {'white' if self.me else 'black'}")
            elif msg == P.NEW_POSITION:
                self.state = P.decode_position(P.recv_exact(sock, P.POSITION_BYTES))
                self.record.positions += 1
                self.player.new_game(self.state)
                holes = self.state.holes.bit_count()
                self.say("new game" + (f" ({holes} hole(s) on the board)" if holes else ""))
            elif msg == P.PREPARE_TO_RECEIVE_MOVE:
                move = P.move_from_rowcol(*P.decode_move(P.recv_exact(sock, 2)))
                self.record.received.append(move)
                self._apply(move, 1 - self.me)
            elif msg == P.REQUEST_MOVE:
                move = self._choose()
                sock.sendall(P.encode_move(move, self.last_column))
                if move != PASS:
                    self.last_column = move % 15
                self.record.sent.append(move)
                self.say(f"my move: {move_text(move)}" + (f" (depth {self.depth})" if self.depth else ""))
                self._apply(move, self.me)
            elif msg == P.QUIT:
                self.record.quit = True
                self.say("server says quit")
                return
            else:
                raise P.ProtocolError(f"unknown message byte {msg}")

    def _as_side(self, side: int) -> HexThelloState:
        return self.state.with_side(side)

    def _apply(self, move: int, side: int) -> None:
        state = self._as_side(side)
        try:
            self.state = state.play(move)
        except PliesError as e:  # the other side's bad move: keep our copy, say so
            self.say(f"cannot apply {move_text(move)} for {'white' if side else 'black'}: {e}")

    def _choose(self) -> int:
        self.depth = 0
        state = self._as_side(self.me)
        moves = state.legal_moves()
        if not moves or moves == [PASS]:
            return PASS
        try:
            move = self.player.choose(state)
        except Exception as e:  # a student's bug: one line that says what and where, then the session ends
            raise PliesError(f"the player {self.player.name!r} raised {type(e).__name__}: {e}{where(e)}") from None
        stats = getattr(getattr(self.player, "last_result", None), "stats", None)
        self.depth = int(getattr(stats, "depth", 0) or 0)  # the depth the search reached, for the log
        if self.strict and move not in moves:
            if not _is_move(move):
                raise PliesError(f"the player {self.player.name!r} chose {move!r}, which is not a move (a cell "
                                 "index row * 15 + col, or PASS)")
            self.say(f"the player chose {move_text(move)}, not a legal move here; sending it as it is")
            return move
        if move not in moves:  # never send an illegal move the player's own board allowed
            self.say(f"the player chose {move_text(move)}, not a legal move here; playing {move_text(moves[0])}")
            return moves[0]
        return move


def _is_move(move: object) -> bool:
    """Whether ``move`` can go on the wire: PASS or a cell of the board (legal or not)."""
    return move == PASS or (isinstance(move, int) and not isinstance(move, bool) and 0 <= move < SIZE * SIZE
                            and on_board(*divmod(move, SIZE)))



__all__ = ["ClientLog", "HexClient"]
