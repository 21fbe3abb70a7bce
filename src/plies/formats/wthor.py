"""WTHOR databases (the French Othello Federation's game archive), read and written.

``.wtb`` games file: a 16-byte header — century, year, month, day (1 byte each, the file's date), N1 the
number of games (4 bytes little-endian), N2 (2 bytes, the record count of .JOU/.TRN files), the games' year
(2 bytes), P1 board size (1 byte: 0 or 8), P2 type (1 byte: 0 games, 1 solitaires), P3 depth of the
theoretical scores (1 byte), reserved (1 byte) — then 68 bytes per game: tournament number, black player
number, white player number (2 bytes LE each), Black's actual score and Black's theoretical score (discs,
1 byte each), and 60 move bytes ``10*row + col`` (1-based: 11 = a1, 18 = h1, 88 = h8), 0 after the last move.
Passes are not stored.  ``.JOU`` (players) and ``.TRN`` (tournaments) files have the same header, then names
of 20 and 26 bytes (latin-1, NUL-padded).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from plies.game import PASS, IllegalMoveError
from plies.games.othello import OthelloState
from plies.games.record import GameRecord

from .errors import FormatError
from .model import OthelloGame

HEADER_SIZE = 16
GAME_SIZE = 68
PLAYER_NAME_SIZE = 20
TOURNAMENT_NAME_SIZE = 26
_HEADER = struct.Struct("<BBBBIHHBBBB")
_GAME_HEAD = struct.Struct("<HHHBB")


@dataclass
class WthorHeader:
    """The 16-byte header shared by .wtb, .JOU and .TRN files."""

    created: date = field(default_factory=date.today)
    n1: int = 0
    n2: int = 0
    year: int = 0
    board_size: int = 8
    kind: int = 0
    depth: int = 0
    reserved: int = 0

    def to_bytes(self) -> bytes:
        c = self.created
        return _HEADER.pack(c.year // 100, c.year % 100, c.month, c.day, self.n1, self.n2, self.year,
                            self.board_size, self.kind, self.depth, self.reserved)

    @classmethod
    def from_bytes(cls, data: bytes, source: str | None = None) -> WthorHeader:
        if len(data) < HEADER_SIZE:
            raise FormatError(f"file too short for a WTHOR header: {len(data)} bytes, need 16", source=source,
                              offset=0)
        century, yy, month, day, n1, n2, year, p1, p2, p3, res = _HEADER.unpack_from(data, 0)
        try:
            created = date(century * 100 + yy, month or 1, day or 1)
        except ValueError:
            raise FormatError(f"bad file date {century:02d}{yy:02d}-{month:02d}-{day:02d} in the WTHOR header",
                              source=source, offset=0) from None
        return cls(created, n1, n2, year, p1, p2, p3, res)


@dataclass
class WthorGame:
    """One 68-byte game record: numbers into the .TRN/.JOU lists, scores in Black's discs, moves as square
    indices (a1 = 0 ... h8 = 63) without passes."""

    tournament: int = 0
    black: int = 0
    white: int = 0
    score: int = 32
    theoretical: int = 32
    moves: list[int] = field(default_factory=list)

    def to_bytes(self) -> bytes:
        if len(self.moves) > 60:
            raise FormatError(f"a WTHOR game holds at most 60 moves, not {len(self.moves)}")
        body = bytes(10 * (m // 8 + 1) + (m % 8 + 1) for m in self.moves)
        return _GAME_HEAD.pack(self.tournament, self.black, self.white, self.score, self.theoretical) + \
            body.ljust(60, b"\0")

    def to_game(self, players: list[str] | None = None, tournaments: list[str] | None = None, year: int = 0,
                source: str | None = None, offset: int = 0) -> OthelloGame:
        """Replay into an OthelloGame (forced passes written in); FormatError at the byte of an illegal move."""
        state = OthelloState.start()
        moves: list[int] = []
        for i, sq in enumerate(self.moves):
            try:
                try:
                    state = state.play(sq)
                except IllegalMoveError:
                    if state.legal_moves() != [PASS]:
                        raise
                    moves.append(PASS)  # WTHOR leaves forced passes out
                    state = state.play(PASS).play(sq)
            except IllegalMoveError as e:
                number = (offset - HEADER_SIZE) // GAME_SIZE + 1
                raise FormatError(f"game {number}: move {i + 1} is illegal: {e}", source=source,
                                  offset=offset + 8 + i) from None
            moves.append(sq)
        g = OthelloGame(start=OthelloState.start(), moves=moves,
                        black=_name(players, self.black, "player"), white=_name(players, self.white, "player"),
                        result=float(2 * self.score - 64), date=str(year) if year else "")
        g.props["tournament"] = g.place = _name(tournaments, self.tournament, "tournament")
        g.props["theoretical"] = str(2 * self.theoretical - 64)
        return g

    @classmethod
    def from_game(cls, game: OthelloGame, black: int = 0, white: int = 0, tournament: int = 0) -> WthorGame:
        """The WTHOR record of a standard-start 8x8 game (passes dropped, score from the final position).  WTHOR
        keeps Black's discs at the end; a game cut short without a stated result keeps its disc difference so far
        (Black's count as if the game ended there: 32 + difference / 2), so that it reads back as that
        difference rather than as a heavy loss."""
        if game.start != OthelloState.start():
            raise FormatError("WTHOR stores only games from the standard 8x8 start")
        final = game.final
        b, w = final.counts()
        if final.is_over():
            empties = final.empties()
            score = b + (empties if b > w else 0) if b != w else 32
        else:
            diff = b - w if game.result is None else game.result
            score = int(round((diff + 64) / 2))
        theo = int(game.props.get("theoretical", 2 * score - 64))
        return cls(tournament, black, white, score, (theo + 64) // 2, [m for m in game.moves if m != PASS])


def _name(names: list[str] | None, number: int, what: str) -> str:
    if names is not None and 0 <= number < len(names):
        return names[number]
    return f"{what} #{number}"


@dataclass
class WthorFile:
    header: WthorHeader
    games: list[WthorGame]


def read_wtb(data: bytes, source: str | None = None) -> WthorFile:
    """Parse a .wtb games file; FormatError (with the byte offset) for a wrong size or a bad move byte."""
    header = WthorHeader.from_bytes(data, source)
    if header.board_size not in (0, 8):
        raise FormatError(f"only 8x8 WTHOR files are supported (board size byte {header.board_size})",
                          source=source, offset=12)
    body = len(data) - HEADER_SIZE
    if body % GAME_SIZE:
        raise FormatError(f"{body} bytes after the header are not whole 68-byte games", source=source,
                          offset=HEADER_SIZE + body - body % GAME_SIZE)
    count = body // GAME_SIZE
    if header.n1 != count:
        raise FormatError(f"header says {header.n1} games, file holds {count}", source=source, offset=4)
    games = [parse_record(data[HEADER_SIZE + k * GAME_SIZE: HEADER_SIZE + (k + 1) * GAME_SIZE], k, source)
             for k in range(count)]
    return WthorFile(header, games)


def parse_record(record: bytes, k: int, source: str | None = None) -> WthorGame:
    """Game ``k`` (0-based) of a .wtb file from its 68 bytes; FormatError with the file offset of a bad byte."""
    off = HEADER_SIZE + k * GAME_SIZE
    if len(record) != GAME_SIZE:
        raise FormatError(f"game {k + 1} is cut short: {len(record)} of 68 bytes", source=source, offset=off)
    trn, black, white, score, theo = _GAME_HEAD.unpack_from(record, 0)
    if score > 64 or theo > 64:
        raise FormatError(f"game {k + 1}: score byte {max(score, theo)} is over 64", source=source,
                          offset=off + (6 if score > 64 else 7))
    moves = []
    for i, b in enumerate(record[8:GAME_SIZE]):
        if b == 0:
            break
        row, col = divmod(b, 10)
        if not (1 <= row <= 8 and 1 <= col <= 8):
            raise FormatError(f"game {k + 1}: move byte {b} is not a square (11..88)", source=source,
                              offset=off + 8 + i)
        moves.append((row - 1) * 8 + col - 1)
    return WthorGame(trn, black, white, score, theo, moves)


def write_wtb(games: list[WthorGame], year: int = 0, depth: int = 0, created: date | None = None) -> bytes:
    """A .wtb file holding ``games``."""
    header = WthorHeader(created or date.today(), len(games), 0, year, 8, 0, depth)
    return header.to_bytes() + b"".join(g.to_bytes() for g in games)


def read_names(data: bytes, width: int, source: str | None = None) -> list[str]:
    """Names of a .JOU (width 20) or .TRN (width 26) file, in number order."""
    header = WthorHeader.from_bytes(data, source)
    body = len(data) - HEADER_SIZE
    if body % width:
        raise FormatError(f"{body} bytes after the header are not whole {width}-byte names", source=source,
                          offset=HEADER_SIZE + body - body % width)
    count = body // width
    if header.n2 not in (0, count):
        raise FormatError(f"header says {header.n2} names, file holds {count}", source=source, offset=8)
    return [data[HEADER_SIZE + k * width : HEADER_SIZE + (k + 1) * width].split(b"\0", 1)[0].decode("latin-1")
            for k in range(count)]


def write_names(names: list[str], width: int, created: date | None = None) -> bytes:
    header = WthorHeader(created or date.today(), 0, len(names), 0, 0, 0, 0)
    out = [header.to_bytes()]
    for name in names:
        raw = name.encode("latin-1", errors="replace")[: width - 1]
        out.append(raw.ljust(width, b"\0"))
    return b"".join(out)


def read_players(data: bytes, source: str | None = None) -> list[str]:
    return read_names(data, PLAYER_NAME_SIZE, source)


def read_tournaments(data: bytes, source: str | None = None) -> list[str]:
    return read_names(data, TOURNAMENT_NAME_SIZE, source)


def wthor_games(data: bytes, players: list[str] | None = None, tournaments: list[str] | None = None,
                source: str | None = None) -> list[OthelloGame]:
    """Every game of a .wtb file as an OthelloGame, with player and tournament names when given."""
    f = read_wtb(data, source)
    return [g.to_game(players, tournaments, f.header.year, source, HEADER_SIZE + k * GAME_SIZE)
            for k, g in enumerate(f.games)]


def wthor_records(data: bytes, players: list[str] | None = None, tournaments: list[str] | None = None,
                  source: str | None = None) -> list[GameRecord]:
    """Every game of a .wtb file as a GameRecord (e.g. to train an evaluation or browse games)."""
    return [g.to_record() for g in wthor_games(data, players, tournaments, source)]


def _sibling(path: Path, names: tuple[str, ...]) -> Path | None:
    for p in path.parent.iterdir():
        if p.name.lower() in names:
            return p
    return None


def load_wthor(path: str | Path, players: str | Path | None = None,
               tournaments: str | Path | None = None) -> list[OthelloGame]:
    """Read a .wtb file; ``WTHOR.JOU``/``WTHOR.TRN`` beside it are used for names when not given."""
    p = Path(path)
    jou = Path(players) if players else _sibling(p, ("wthor.jou",))
    trn = Path(tournaments) if tournaments else _sibling(p, ("wthor.trn",))
    names = read_players(jou.read_bytes(), str(jou)) if jou else None
    events = read_tournaments(trn.read_bytes(), str(trn)) if trn else None
    return wthor_games(p.read_bytes(), names, events, str(p))


def looks_like_wtb(data: bytes) -> bool:
    """A plausible .wtb: header count matches the size and the board size byte is 0 or 8."""
    if len(data) < HEADER_SIZE or (len(data) - HEADER_SIZE) % GAME_SIZE:
        return False
    n1 = struct.unpack_from("<I", data, 4)[0]
    return n1 == (len(data) - HEADER_SIZE) // GAME_SIZE and data[12] in (0, 8)


__all__ = [
    "GAME_SIZE", "HEADER_SIZE", "WthorFile", "WthorGame", "WthorHeader", "load_wthor", "looks_like_wtb", "parse_record",
    "read_names", "read_players", "read_tournaments", "read_wtb", "write_names", "write_wtb", "wthor_games",
    "wthor_records",
]
