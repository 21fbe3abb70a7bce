"""The TUC HexThello wire protocol, byte for byte (see PROTOCOLS.md): 1-byte messages, 2-byte moves,
1+n-byte names and 228-byte positions.  Pure encoding and decoding; the server and client do the IO.
"""

from __future__ import annotations

import socket

from plies.game import PASS, PliesError
from plies.games.hexthello import BLACK, CELLS, SIZE, WHITE, HexThelloState, on_board

DEFAULT_PORT = 6002

NEW_POSITION = 101
COLOR_W = 102
COLOR_B = 103
REQUEST_MOVE = 104
PREPARE_TO_RECEIVE_MOVE = 105
REQUEST_NAME = 106
QUIT = 107

MESSAGES = {
    NEW_POSITION: "NEW_POSITION", COLOR_W: "COLOR_W", COLOR_B: "COLOR_B", REQUEST_MOVE: "REQUEST_MOVE",
    PREPARE_TO_RECEIVE_MOVE: "PREPARE_TO_RECEIVE_MOVE", REQUEST_NAME: "REQUEST_NAME", QUIT: "QUIT",
}

NULL_MOVE = -50
"""Row byte of a pass (0xCE on the wire); the column byte is ignored (the course's client leaves there the
column of its previous move, and its server forwards the two bytes as they came)."""
POSITION_BYTES = CELLS + 3
MAX_NAME = 8
"""The framework's MAX_NAME_LENGTH: a client sends at most this many bytes, the server keeps at most these."""
MAX_NAME_BYTES = 127
"""The largest length byte the course's server can read: it reads the length as a (signed) ``char``."""


class ProtocolError(PliesError):
    """Bytes that break the protocol (an unknown message, a short read, a bad position)."""


def recv_exact(sock: socket.socket, n: int) -> bytes:
    """Exactly ``n`` bytes from ``sock``, however the stream splits them (ConnectionError when it closes first)."""
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("the server closed the connection")
        data += chunk
    return data


def colour_of(player: int) -> int:
    """plies player (0 Black, 1 White) -> course colour value (BLACK 1, WHITE 0)."""
    return BLACK if player == 0 else WHITE


def player_of(colour: int) -> int:
    """Course colour value -> plies player."""
    if colour not in (WHITE, BLACK):
        raise ProtocolError(f"bad colour value {colour}")
    return 0 if colour == BLACK else 1


def _signed(b: int) -> int:
    return b - 256 if b > 127 else b


def encode_move(move: int, pass_column: int = 0) -> bytes:
    """Two signed bytes, row then column; a pass is row -50 and ``pass_column`` (0 unless given)."""
    if move == PASS:
        return bytes([NULL_MOVE & 0xFF, pass_column & 0xFF])
    i, j = divmod(move, SIZE)
    return bytes([i, j])


def decode_move(data: bytes) -> tuple[int, int]:
    """The (row, col) of two move bytes, as signed numbers (a pass has row -50)."""
    if len(data) != 2:
        raise ProtocolError(f"a move is 2 bytes, got {len(data)}")
    return _signed(data[0]), _signed(data[1])


def move_from_rowcol(row: int, col: int) -> int:
    """(row, col) from the wire -> a HexThelloState move; ProtocolError names an off-board cell."""
    if row == NULL_MOVE:
        return PASS
    if not on_board(row, col):
        raise ProtocolError(f"({row}, {col}) is not a cell of the board")
    return row * SIZE + col


def name_bytes(name: str) -> bytes:
    """The bytes a client sends for ``name``: UTF-8, cut to MAX_NAME (8) bytes at a character boundary (the
    course's server keeps 8 bytes and breaks on a length of 128 or more)."""
    raw = name.encode("utf-8", "replace")
    if len(raw) <= MAX_NAME:
        return raw
    cut = raw[:MAX_NAME]
    while cut:
        try:
            cut.decode("utf-8")
            return cut
        except UnicodeDecodeError:
            cut = cut[:-1]
    return raw[:MAX_NAME]  # pragma: no cover - only for names that are not text at all


def encode_name(name: str) -> bytes:
    """Length byte then the name's bytes (no NUL), at most MAX_NAME (8) bytes as the framework's clients send."""
    raw = name_bytes(name)
    return bytes([len(raw)]) + raw


def name_length(byte: int) -> int:
    """The name length the course's server reads from its length byte: a signed ``char``, so 128..255 are
    negative; ProtocolError for those (the C server fails on them)."""
    n = _signed(byte)
    if n < 0:
        raise ProtocolError(f"name length byte {byte} is negative as the course reads it (a signed char): "
                            f"names are 0..{MAX_NAME_BYTES} bytes, and the framework keeps {MAX_NAME}")
    return n


def decode_name(raw: bytes) -> str:
    """The name the server keeps: at most 8 characters, printable (others become ``?``)."""
    text = raw.decode("utf-8", "replace")
    return "".join(ch if ch.isprintable() else "?" for ch in text)[:MAX_NAME].strip() or "anon"


def encode_position(state: HexThelloState) -> bytes:
    """101's 228-byte body: 225 board values row-major (ILLEGAL 3 on a hole), score[WHITE], score[BLACK], turn
    (WHITE 0/BLACK 1)."""
    b, w = state.counts()
    return state.to_array() + bytes([w & 0xFF, b & 0xFF, colour_of(state.to_move)])


def decode_position(data: bytes) -> HexThelloState:
    """A 228-byte position -> state (the scores are recounted from the board; the turn byte gives the side)."""
    if len(data) != POSITION_BYTES:
        raise ProtocolError(f"a position is {POSITION_BYTES} bytes, got {len(data)}")
    try:
        return HexThelloState.from_array(data[:CELLS], data[CELLS + 2])
    except PliesError as e:
        raise ProtocolError(f"bad position: {e}") from None


__all__ = [
    "COLOR_B", "COLOR_W", "DEFAULT_PORT", "MAX_NAME", "MAX_NAME_BYTES", "MESSAGES", "NEW_POSITION", "NULL_MOVE",
    "POSITION_BYTES", "PREPARE_TO_RECEIVE_MOVE", "QUIT", "REQUEST_MOVE", "REQUEST_NAME", "ProtocolError", "colour_of",
    "decode_move", "decode_name", "decode_position", "encode_move", "encode_name", "encode_position",
    "move_from_rowcol", "name_bytes", "name_length", "player_of",
]
