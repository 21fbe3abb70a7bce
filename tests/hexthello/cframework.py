"""The course framework's C ``server`` as it behaves, byte for byte, written again in Python for the tests
(``server.c``, ``comm.c`` and ``board.c`` of TUC HexThello v0.98b as published in students' repositories):

- accept two connections: the first is WHITE (102), the second BLACK (103);
- 106 to the first, read its name; 106 to the second, read its name.  ``getName`` reads the length byte as
  a (signed) ``char``, then ``recv(size)`` once, keeps at most 8 bytes: a length of 128 or more is negative
  and the read fails ("ERROR: Network problem"), the name is then left as it was;
- each game: ``initPosition`` (holes = ILLEGAL cells, "to add illegal tiles change ONLY this function"), 101 +
  228 bytes to both; loop: 104 to the side to move, read 2 bytes; when the side cannot move anything but a row
  of -50 is a technical loss; otherwise ``isLegalMove`` (an ILLEGAL cell is not EMPTY); game over when neither
  can move (the last move is not forwarded); else 105 + the two bytes exactly as received;
- with ``-s``, after every game (the last one too): to playerOne then playerTwo, their new colours;
- at the end 107 to both.

Every byte each side sent is recorded, so a test compares the exchanges with what the C programs do.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass, field

from plies.game import PASS
from plies.games.hexthello import HexThelloState
from plies.net.hexthello import protocol as P

from .netutil import recv_exact

TIMEOUT = 20.0


@dataclass
class Player:
    sock: socket.socket
    colour: int  # course value: WHITE 0, BLACK 1
    name: bytes = b""
    sent: bytearray = field(default_factory=bytearray)  # what the server sent to this player
    received: bytearray = field(default_factory=bytearray)  # what this player sent to the server


@dataclass
class GameLog:
    moves: list[bytes] = field(default_factory=list)
    illegal: str | None = None
    final: HexThelloState | None = None


class CServer:
    """``server [-g games] [-s]`` with ``holes`` in its ``initPosition`` (or an ``initPosition`` that sets up
    ``start``); ``serve()`` runs one session."""

    def __init__(self, games: int = 1, swap: bool = False, holes: int = 0, start: HexThelloState | None = None) -> None:
        self.games, self.swap, self.holes = games, swap, holes
        self.start = start  # an initPosition of another position (None: the course's start with the holes)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.log: list[GameLog] = []
        self.players: list[Player] = []
        self.name_errors: list[str] = []
        self.accepted = 0

    def _send(self, p: Player, data: bytes) -> None:
        p.sent += data
        p.sock.sendall(data)

    def _recv_once(self, p: Player, n: int) -> bytes:
        """One ``recv(n)`` as the C code calls it (it does not loop); fewer bytes is the C's error case."""
        data = p.sock.recv(n) if n > 0 else b""
        p.received += data
        return data

    def _recv_exact(self, p: Player, n: int) -> bytes:
        data = recv_exact(p.sock, n)
        p.received += data
        return data

    def _get_name(self, p: Player) -> None:
        size = self._recv_exact(p, 1)[0]
        size = size - 256 if size > 127 else size  # char size_char; size = (int) size_char
        if size < 0:
            self.name_errors.append(f"negative name length {size}")  # recv(…, (size_t) size) fails
            return
        data = self._recv_once(p, size) if size else b""
        if len(data) != size:
            self.name_errors.append("short name")
            return
        p.name = data[:P.MAX_NAME]

    def serve(self) -> None:
        self.listener.settimeout(TIMEOUT)
        one, _ = self.listener.accept()
        self.accepted = 1
        two, _ = self.listener.accept()
        self.accepted = 2
        for s in (one, two):
            s.settimeout(TIMEOUT)
            # the C server leaves Nagle on, so its 105 + 104 pairs wait for a delayed ACK (40 ms a move):
            # same bytes, the test just does not wait for them
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        p1, p2 = Player(one, 0), Player(two, 1)  # colours: WHITE 0, BLACK 1
        self.players = [p1, p2]
        self._send(p1, bytes([P.COLOR_W]))
        self._send(p2, bytes([P.COLOR_B]))
        self._send(p1, bytes([P.REQUEST_NAME]))
        self._get_name(p1)
        self._send(p2, bytes([P.REQUEST_NAME]))
        self._get_name(p2)
        for _ in range(self.games):
            self._game(p1, p2)
            if self.swap:
                if p1.colour == 1:
                    self._send(p1, bytes([P.COLOR_W]))
                    self._send(p2, bytes([P.COLOR_B]))
                    p1.colour, p2.colour = 0, 1
                else:
                    self._send(p1, bytes([P.COLOR_B]))
                    self._send(p2, bytes([P.COLOR_W]))
                    p1.colour, p2.colour = 1, 0
        self._send(p1, bytes([P.QUIT]))
        self._send(p2, bytes([P.QUIT]))
        for p in (p1, p2):
            p.sock.close()
        self.listener.close()

    def _game(self, p1: Player, p2: Player) -> None:
        state = HexThelloState.start(self.holes) if self.start is None else self.start
        log = GameLog()
        self.log.append(log)
        for p in (p1, p2):
            self._send(p, bytes([P.NEW_POSITION]) + P.encode_position(state))
        while True:
            turn = 1 if state.to_move == 0 else 0  # course colour of the side to move
            playing, waiting = (p1, p2) if p1.colour == turn else (p2, p1)
            self._send(playing, bytes([P.REQUEST_MOVE]))
            data = self._recv_exact(playing, 2)
            log.moves.append(data)
            row, col = P.decode_move(data)
            if state.legal_moves() == [PASS]:
                if row != P.NULL_MOVE:
                    log.illegal = f"({row}, {col})"
                    break
                move = PASS
            else:
                try:
                    move = P.move_from_rowcol(row, col)
                except P.ProtocolError:
                    log.illegal = f"({row}, {col})"
                    break
                if move == PASS or move not in state.legal_moves():
                    log.illegal = "NULL MOVE" if move == PASS else f"({row}, {col})"
                    break
            state = state.play(move)
            if state.is_over():
                break
            self._send(waiting, bytes([P.PREPARE_TO_RECEIVE_MOVE]) + data)  # the bytes as received
        log.final = state
