"""A game library: the Othello games of WTHOR (``.wtb``) and GGF files, indexed once in the background, for the
browser to list, search (by player, by opening, by position reached) and open.

The index holds, per game, only what searching needs: the file and byte offset the game came from, both players
and the date (numbers into one table of names), the result, the moves packed one byte a move, the first moves
again as a fixed-width row (openings are compared in bulk), and a 64-bit hash of the position after every move
(positions are found by comparing hashes in bulk).  Games are read a piece of a file at a time and replayed with
the compiled core; a game whose moves do not replay is skipped and counted.  Opening a game reads it again from
its file.  Searches answer from the games indexed so far while the rest are read.
"""

from __future__ import annotations

import bisect
import os
import re
import threading
import time
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import numpy as np

from plies.formats import ggf, wthor
from plies.formats.model import OthelloGame
from plies.game import PASS, PliesError
from plies.games.othello import OthelloState

PASS_BYTE = 64
"""A pass in the packed moves (squares are 0..63)."""
HEAD = 16
"""Moves kept in the fixed-width rows that openings are compared against."""
FIRST_CHUNK = 256
"""Games in the first block published: the first page waits for no more."""
CHUNK = 4096
"""Games in every later block."""
MAX_GAME = 1 << 20
"""Longest GGF game read (bytes)."""
MAX_PROBLEMS = 20
"""Skipped games whose reasons are kept (all are counted)."""
MAX_LIMIT = 200
"""Most games one page lists."""
SUFFIXES = (".ggf", ".wtb")
"""Files a folder's games are read from."""

_K1, _K2, _K3 = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F), np.uint64(0x94D049BB133111EB)
_START_BLACK, _START_WHITE = OthelloState.start().black, OthelloState.start().white


class LibraryError(PliesError):
    """A library path that cannot be read, or a search that cannot be understood."""


def _player() -> Callable[[int, int, int], tuple[int, int, int]]:
    """``play8(own, opp, sq)``: the compiled core's, or the same through the Python rules where it is not built."""
    try:
        from plies.core import lib

        fast: Callable[[int, int, int], tuple[int, int, int]] = lib.play8
        return fast
    except ImportError:
        def play8(own: int, opp: int, sq: int) -> tuple[int, int, int]:
            s = OthelloState(own, opp, 0)
            if sq not in s.legal_moves():
                return 0, 0, 0
            t = s.play(sq)
            return t.black, t.white, _mask(t.white, t.black)
        return play8


def _legal() -> Callable[[int, int], int]:
    """``legal_mask8(own, opp)``: squares where the owner of ``own`` may play (the compiled core's, or the rules')."""
    try:
        from plies.core import lib

        fast: Callable[[int, int], int] = lib.legal_mask8
        return fast
    except ImportError:
        def legal(own: int, opp: int) -> int:
            return sum(1 << m for m in OthelloState(own, opp, 0).legal_moves() if m != PASS)
        return legal


_mask = _legal()


def position_hash(black: np.ndarray, white: np.ndarray, side: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each position: the discs mixed, the lowest bit the side to move (0 Black, 1 White)."""
    with np.errstate(over="ignore"):
        h = black * _K1 ^ (white * _K2 + (white >> np.uint64(29)))
        h ^= h >> np.uint64(31)
        h *= _K3
        h ^= h >> np.uint64(29)
    return (h & ~np.uint64(1)) | side.astype(np.uint64)


@dataclass
class Chunk:
    """A block of indexed games.  Game ``i`` is number ``base + i`` of the library; its moves are
    ``moves[starts[i]:starts[i+1]]`` and the position after its ``k``-th move is hash ``starts[i] + i + k``."""

    base: int
    file: np.ndarray
    offset: np.ndarray
    black: np.ndarray
    white: np.ndarray
    date: np.ndarray
    result: np.ndarray
    standard: np.ndarray
    moves: bytes
    starts: np.ndarray
    head: np.ndarray
    hashes: np.ndarray

    def __len__(self) -> int:
        return len(self.file)


@dataclass
class _Raw:
    """One game as read from a file, before it is replayed."""

    offset: int
    black: str
    white: str
    date: str
    result: float | None
    start: tuple[int, int, int] | None  # (black, white, side), None: the standard start
    moves: list[tuple[int, int]]  # (side, square or PASS); side -1: either (WTHOR: passes implied)


class _Bad(Exception):
    """A game that is skipped, and why."""


@dataclass
class _Builder:
    """Games being gathered into the next chunk."""

    base: int
    file: list[int] = field(default_factory=list)
    offset: list[int] = field(default_factory=list)
    black: list[int] = field(default_factory=list)
    white: list[int] = field(default_factory=list)
    date: list[int] = field(default_factory=list)
    result: list[float] = field(default_factory=list)
    standard: list[bool] = field(default_factory=list)
    moves: bytearray = field(default_factory=bytearray)
    starts: list[int] = field(default_factory=lambda: [0])
    own: array[int] = field(default_factory=lambda: array("Q"))
    opp: array[int] = field(default_factory=lambda: array("Q"))
    ps: bytearray = field(default_factory=bytearray)

    def chunk(self) -> Chunk:
        n = len(self.file)
        starts = np.array(self.starts, dtype=np.int64)
        head = np.full((n, HEAD), 255, dtype=np.uint8)
        packed = np.frombuffer(bytes(self.moves), dtype=np.uint8)
        for i in range(n):
            row = packed[starts[i]:min(starts[i + 1], starts[i] + HEAD)]
            head[i, :len(row)] = row
        own, opp = np.frombuffer(self.own, dtype=np.uint64), np.frombuffer(self.opp, dtype=np.uint64)
        side = np.frombuffer(self.ps, dtype=np.uint8)
        white_moves = side.astype(bool)
        hashes = position_hash(np.where(white_moves, opp, own), np.where(white_moves, own, opp), side)
        return Chunk(self.base, np.array(self.file, dtype=np.uint16), np.array(self.offset, dtype=np.int64),
                     np.array(self.black, dtype=np.int32), np.array(self.white, dtype=np.int32),
                     np.array(self.date, dtype=np.int32), np.array(self.result, dtype=np.float32),
                     np.array(self.standard, dtype=bool), bytes(self.moves), starts, head, hashes)


@dataclass
class Found:
    """A search's games (library numbers, in file order) and, for a position search, the ply each reaches it."""

    games: np.ndarray
    plies: dict[int, int] = field(default_factory=dict)


def library_files(path: str | os.PathLike[str]) -> tuple[list[tuple[Path, str]], list[str]]:
    """The game files of ``path`` with their formats (``ggf``, ``wthor``): the file itself, or a folder's ``.ggf``
    and ``.wtb`` files (sorted, subfolders too), and why any of the folder's files is left out; LibraryError in one
    line when the path is missing or unreadable, when the file is neither format, or when the folder holds none."""
    p = Path(path)
    if not p.exists():
        raise LibraryError(f"no such file or folder: {p}")
    if p.is_file():
        return [(p, _kind(p))], []
    if not p.is_dir():
        raise LibraryError(f"{p} is neither a file nor a folder")
    try:
        names = sorted(f for f in p.rglob("*") if f.suffix.lower() in SUFFIXES and f.is_file())
    except OSError as e:
        raise LibraryError(f"cannot read the folder {p}: {e.strerror or e}") from None
    files, left_out = [], []
    for f in names:
        try:
            files.append((f, _kind(f)))
        except LibraryError as e:
            left_out.append(str(e))
    if not files:
        raise LibraryError(f"the folder {p} holds no .ggf or .wtb file" + (f" that reads ({left_out[0]})"
                                                                           if left_out else ""))
    return files, left_out


def _kind(path: Path) -> str:
    """``wthor`` or ``ggf``, from the file's name and first bytes; LibraryError when it is neither or unreadable."""
    try:
        with path.open("rb") as f:
            head = f.read(4096)
        size = path.stat().st_size
    except OSError as e:
        raise LibraryError(f"cannot read {path}: {e.strerror or e}") from None
    if path.suffix.lower() == ".wtb" or (len(head) >= wthor.HEADER_SIZE and wthor.looks_like_wtb(
            head[:wthor.HEADER_SIZE] + b"\0" * (size - wthor.HEADER_SIZE))):
        if size < wthor.HEADER_SIZE:
            raise LibraryError(f"{path} is too short for a WTHOR file ({size} bytes)")
        return "wthor"
    if head.lstrip().startswith(b"(;"):
        return "ggf"
    raise LibraryError(f"{path} is neither a GGF file (games start with '(;') nor a WTHOR .wtb file")


# --- reading --------------------------------------------------------------------------------------------------

_PROP = re.compile(rb"(?<![A-Za-z0-9])(GM|PB|PW|RE|DT|BO)\[((?:[^\]\\]|\\.)*)\]", re.S)
_MOVE = re.compile(rb"(?<![A-Za-z0-9])([BW])\[\s*([A-Za-z]{1,4}[0-9]{0,2})")
_VALUE_END = re.compile(rb"\[(?:[^\]\\]|\\.)*\]|\)", re.S)
_SQUARE = re.compile(r"([a-h])([1-8])")
_TOKENS: dict[tuple[bytes, bytes], tuple[int, int]] = {
    (colour, word): (side, move)
    for side, colour in enumerate((b"B", b"W"))
    for name, move in [(f"{c}{r}", (r - 1) * 8 + k) for k, c in enumerate("abcdefgh") for r in range(1, 9)]
    + [(p, PASS) for p in ("pa", "pass", "ps")]
    for word in {name.encode(), name.upper().encode(), name.capitalize().encode()}}
"""A GGF move's colour and text (``F5``, ``f5``, ``PA``) -> (side, square or PASS)."""


def _text(raw: bytes) -> str:
    try:
        return raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        return raw.decode("latin-1").strip()


def game_end(buf: bytes | bytearray, start: int) -> int | None:
    """Index just past the ``)`` that closes the GGF game starting at ``buf[start]`` (None: not in ``buf``)."""
    pos = start + 2
    while True:
        close = buf.find(b")", pos)
        if close < 0:
            return None
        seg = buf[start:close]
        if b"\\" not in seg:
            if seg.count(b"[") == seg.count(b"]"):
                return close + 1
            pos = close + 1  # a ')' inside a value
            continue
        at = start + 2  # escapes: value by value
        while True:
            m = _VALUE_END.search(buf, at)
            if m is None:
                return None
            if m.group() == b")":
                return m.end()
            at = m.end()


def _ggf_records(path: Path, stop: threading.Event) -> Iterator[tuple[int, bytes | None, int]]:
    """(byte offset, the game's bytes or None when it is too long, bytes read so far) for every game of a GGF file,
    reading a megabyte at a time."""
    block = 1 << 20
    with path.open("rb") as f:
        buf = bytearray()
        base = 0  # file offset of buf[0]
        pos = 0
        eof = False
        while not stop.is_set():
            start = buf.find(b"(;", pos)
            end = None if start < 0 else game_end(buf, start)
            if end is None:
                if eof:
                    if start >= 0:
                        yield base + start, bytes(buf[start:]), base + len(buf)
                    return
                if start >= 0 and len(buf) - start > MAX_GAME:
                    yield base + start, None, base + len(buf)
                    pos = start + 2
                    continue
                keep = start if start >= 0 else max(pos, len(buf) - 1)
                del buf[:keep]
                base += keep
                pos = 0
                more = f.read(block)
                if not more:
                    eof = True
                buf += more
                continue
            yield base + start, bytes(buf[start:end]), base + end
            pos = end


def _ggf_game(offset: int, game: bytes | None) -> _Raw:
    if game is None:
        raise _Bad(f"a game longer than {MAX_GAME} bytes")
    props: dict[bytes, bytes] = {}
    for m in _PROP.finditer(game):
        props.setdefault(m.group(1), m.group(2))
    gm = props.get(b"GM")
    if gm is not None and gm.strip().lower() not in (b"othello", b"reversi"):
        raise _Bad(f"not an Othello game: GM[{_text(gm)[:20]}]")
    start = None
    if b"BO" in props:
        start = _bo(_text(props[b"BO"]))
    found = _MOVE.findall(game)
    moves = [_TOKENS.get(x) for x in found]
    if None in moves:
        c, w = found[moves.index(None)]
        raise _Bad(f"not a move: {c.decode()}[{w.decode('latin-1')}]")
    if gm is None and start is None and not moves:
        raise _Bad("not a GGF game: no GM, BO or moves")
    result = ggf.parse_result(_text(props[b"RE"])) if b"RE" in props else None
    return _Raw(offset, _text(props.get(b"PB", b"")), _text(props.get(b"PW", b"")), _text(props.get(b"DT", b""))[:10],
                result, start, cast(list[tuple[int, int]], moves))


BLACK_CHARS, WHITE_CHARS, EMPTY_CHARS = "Xx*Bb#", "OoWw0", "-._"
"""How a square or the side to move is written, in a GGF ``BO[]`` or the search box (one alphabet for both)."""


def _squares(cells: str) -> tuple[int, int, int]:
    """(black, white) bitboards of 64 written squares, and the index of the first square that is none of them (-1
    when all are)."""
    black = white = 0
    for i, c in enumerate(cells):
        if c in BLACK_CHARS:
            black |= 1 << i
        elif c in WHITE_CHARS:
            white |= 1 << i
        elif c not in EMPTY_CHARS:
            return black, white, i
    return black, white, -1


def _side(c: str) -> int:
    """0 (Black) or 1 (White) to move, written as a square of that colour; -1 for anything else."""
    return 0 if c in BLACK_CHARS else 1 if c in WHITE_CHARS else -1


def _bo(value: str) -> tuple[int, int, int] | None:
    parts = value.split()
    if not parts or parts[0] != "8":
        raise _Bad(f"not an 8x8 board: BO[{value[:12]}]")
    cells = "".join(parts[1:])
    if len(cells) != 65:
        raise _Bad("BO is not 64 squares and the side to move")
    black, white, bad = _squares(cells[:64])
    if bad >= 0:
        raise _Bad(f"BO square {cells[bad]!r} is not *, O or -")
    side = _side(cells[64])
    if side < 0:
        raise _Bad("BO does not say who moves")
    if black == _START_BLACK and white == _START_WHITE and side == 0:
        return None
    return black, white, side


def _wthor_records(path: Path, stop: threading.Event) -> Iterator[tuple[_Raw | _Bad, int]]:
    """Every game of a .wtb file (player names from a WTHOR.JOU beside it), with the bytes read so far."""
    try:
        with path.open("rb") as f:
            header = wthor.WthorHeader.from_bytes(f.read(wthor.HEADER_SIZE), str(path))
            players = _players(path)
            date = str(header.year) if header.year else ""
            offset = wthor.HEADER_SIZE
            while not stop.is_set():
                block = f.read(wthor.GAME_SIZE * 4096)
                if not block:
                    return
                for k in range(0, len(block), wthor.GAME_SIZE):
                    record = block[k:k + wthor.GAME_SIZE]
                    at = offset + k
                    if len(record) < wthor.GAME_SIZE:
                        yield _Bad(f"a game cut short: {len(record)} of 68 bytes"), at + len(record)
                        continue
                    number = (at - wthor.HEADER_SIZE) // wthor.GAME_SIZE
                    try:
                        g = wthor.parse_record(record, number, str(path))
                    except PliesError as e:
                        yield _Bad(str(e)), at + wthor.GAME_SIZE
                        continue
                    black = players[g.black].strip() if 0 <= g.black < len(players) else f"player #{g.black}"
                    white = players[g.white].strip() if 0 <= g.white < len(players) else f"player #{g.white}"
                    yield (_Raw(at, black, white, date, float(2 * g.score - 64), None, [(-1, m) for m in g.moves]),
                           at + wthor.GAME_SIZE)
                offset += len(block)
    except PliesError as e:
        yield _Bad(str(e)), 0


def _players(path: Path) -> list[str]:
    for p in path.parent.iterdir():
        if p.name.lower() == "wthor.jou" and p.stat().st_size <= 4 << 20:
            try:
                return wthor.read_players(p.read_bytes(), str(p))
            except (PliesError, OSError):
                return []
    return []


# --- the library ----------------------------------------------------------------------------------------------

class Library:
    """The games of ``path`` (a GGF file, a .wtb file or a folder of them).  ``start()`` indexes them on a
    background thread (``build()`` on this one); ``status``, ``search`` and ``open`` may be called meanwhile."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        found, left_out = library_files(self.path)
        self.files = [f for f, _ in found]
        self.kinds = [k for _, k in found]
        self.total_bytes = sum(f.stat().st_size for f in self.files)
        self.read_bytes = 0
        self.chunks: list[Chunk] = []
        self.count = 0
        self.skipped = 0
        self.problems: list[str] = left_out[:MAX_PROBLEMS]
        self.left_out = len(left_out)
        self.names: list[str] = [""]
        self._ids: dict[str, int] = {"": 0}
        self.done = False
        self.error = ""
        self.seconds = 0.0
        self.first_seconds: float | None = None
        self._began = time.perf_counter()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._cache: dict[tuple[str, str, str], Found] = {}
        self._play8 = _player()

    # --- indexing
    def start(self) -> None:
        """Index the games on a background thread (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self.build, name="plies-library", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop indexing (what is indexed stays searchable)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the index to be complete; whether it is."""
        if self._thread is not None:
            self._thread.join(timeout)
        return self.done

    def build(self) -> None:
        """Read every file and index its games."""
        began = self._began = time.perf_counter()
        try:
            builder = _Builder(0)
            limit = FIRST_CHUNK
            done_before = 0
            for number, (path, kind) in enumerate(zip(self.files, self.kinds, strict=True)):
                for raw, read in self._raws(path, kind):
                    self.read_bytes = done_before + read
                    if isinstance(raw, _Bad):
                        self._skip(path, raw, None)
                        continue
                    try:
                        self._add(builder, number, raw)
                    except _Bad as e:
                        self._skip(path, e, raw.offset)
                        continue
                    if len(builder.file) >= limit:
                        builder = self._publish(builder)
                        limit = CHUNK
                done_before += path.stat().st_size
                self.read_bytes = done_before
                if self._stop.is_set():
                    break
            self._publish(builder)
        except Exception as e:  # a bug or a file gone: what is indexed stays, the page says why it stopped
            self.error = f"{type(e).__name__}: {e}"
        finally:
            self.seconds = time.perf_counter() - began
            self.done = True

    def _raws(self, path: Path, kind: str) -> Iterator[tuple[_Raw | _Bad, int]]:
        if kind == "wthor":
            yield from _wthor_records(path, self._stop)
            return
        for offset, game, read in _ggf_records(path, self._stop):
            try:
                yield _ggf_game(offset, game), read
            except _Bad as e:
                e.args = (f"byte {offset}: {e.args[0]}",)
                yield e, read

    def _skip(self, path: Path, why: _Bad, offset: int | None) -> None:
        self.skipped += 1
        if len(self.problems) < MAX_PROBLEMS:
            where = f"{path.name}" + (f", byte {offset}" if offset is not None else "")
            self.problems.append(f"{where}: {why}")

    def _name(self, name: str) -> int:
        i = self._ids.get(name)
        if i is None:
            i = self._ids[name] = len(self.names)
            self.names.append(name)
        return i

    def _add(self, b: _Builder, number: int, raw: _Raw) -> None:
        """Replay ``raw`` into the builder; _Bad (nothing added) when a move is illegal."""
        play8 = self._play8
        black, white, side = raw.start or (_START_BLACK, _START_WHITE, 0)
        own, opp = (black, white) if side == 0 else (white, black)
        moves = bytearray()
        owns, opps, sides = array("Q", [own]), array("Q", [opp]), bytearray([side])
        keep_own, keep_opp, keep_side, keep_move = owns.append, opps.append, sides.append, moves.append
        mobile = _mask(own, opp)
        for k, (colour, sq) in enumerate(raw.moves, 1):
            if colour != side and (colour >= 0 or not mobile):
                if mobile or sq == PASS:
                    raise _Bad(f"move {k} is out of turn")
                own, opp, side = opp, own, 1 - side  # a forced pass left out
                mobile = _mask(own, opp)
                keep_move(PASS_BYTE)
                keep_own(own)
                keep_opp(opp)
                keep_side(side)
            if sq == PASS:
                if mobile:
                    raise _Bad(f"move {k} passes while a move exists")
                own, opp, side = opp, own, 1 - side
                mobile = _mask(own, opp)
                keep_move(PASS_BYTE)
            else:
                after_own, after_opp, mobile = play8(own, opp, sq)
                if not after_own:
                    raise _Bad(f"move {k} ({'abcdefgh'[sq % 8]}{sq // 8 + 1}) is illegal")
                own, opp, side = after_opp, after_own, 1 - side
                keep_move(sq)
            keep_own(own)
            keep_opp(opp)
            keep_side(side)
        result = raw.result
        if result is None and not mobile and not _mask(opp, own):
            bl, wh = (own, opp) if side == 0 else (opp, own)
            d = bl.bit_count() - wh.bit_count()
            empties = 64 - bl.bit_count() - wh.bit_count()
            result = float(d + empties if d > 0 else d - empties if d < 0 else 0)
        b.file.append(number)
        b.offset.append(raw.offset)
        b.black.append(self._name(raw.black))
        b.white.append(self._name(raw.white))
        b.date.append(self._name(raw.date))
        b.result.append(np.nan if result is None else result)
        b.standard.append(raw.start is None)
        b.moves += moves
        b.starts.append(len(b.moves))
        b.own.extend(owns)
        b.opp.extend(opps)
        b.ps.extend(sides)

    def _publish(self, b: _Builder) -> _Builder:
        if b.file:
            chunk = b.chunk()
            self.chunks.append(chunk)
            self.count = chunk.base + len(chunk)
            if self.first_seconds is None:
                self.first_seconds = time.perf_counter() - self._began
        return _Builder(self.count)

    # --- answers
    def status(self) -> dict[str, object]:
        """How far indexing is: games indexed (``indexed``), games skipped (and the first reasons), share read."""
        return {"indexed": self.count, "skipped": self.skipped, "problems": list(self.problems),
                "indexing": not self.done, "progress": 1.0 if self.done else
                round(self.read_bytes / self.total_bytes, 3) if self.total_bytes else 0.0,
                "files": len(self.files), "files_left_out": self.left_out, "path": str(self.path),
                "error": self.error,
                "seconds": round(self.seconds, 2) if self.done else None}

    def search(self, player: str = "", opening: str = "", position: str = "") -> Found:
        """The games (all of them when nothing is asked) where ``player`` is part of a player's name (any case),
        whose moves begin with ``opening`` (or a symmetric equivalent of it), and that reach ``position``."""
        key = (player.strip().lower(), opening.strip().lower(), position.strip())
        if self.done and key in self._cache:
            return self._cache[key]
        ids = self._players(key[0]) if key[0] else None
        prefixes = openings(key[1]) if key[1] else None
        target = read_position(key[2]) if key[2] else None
        parts: list[np.ndarray] = []
        plies: dict[int, int] = {}
        for c in list(self.chunks):
            mask = np.ones(len(c), dtype=bool)
            if ids is not None:
                mask &= np.isin(c.black, ids) | np.isin(c.white, ids)
            if prefixes is not None:
                mask &= self._opening(c, prefixes, mask)
            if target is not None:
                mask &= self._position(c, target, plies)
            parts.append(np.nonzero(mask)[0] + c.base)
        found = Found(np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64), plies)
        if self.done:
            if len(self._cache) > 32:
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = found
        return found

    def _players(self, text: str) -> np.ndarray:
        names = self.names[: len(self.names)]
        return np.array([i for i, n in enumerate(names) if n and text in n.lower()], dtype=np.int32)

    @staticmethod
    def _opening(c: Chunk, prefixes: list[bytes], among: np.ndarray) -> np.ndarray:
        hit = np.zeros(len(c), dtype=bool)
        for p in prefixes:
            row = np.frombuffer(p[:HEAD], dtype=np.uint8)
            hit |= (c.head[:, :len(row)] == row).all(axis=1)
        hit &= c.standard & among
        if max(len(p) for p in prefixes) > HEAD:
            for i in np.nonzero(hit)[0]:
                hit[i] = any(c.moves.startswith(p, int(c.starts[i])) and int(c.starts[i + 1] - c.starts[i]) >= len(p)
                             for p in prefixes)
        return hit

    @staticmethod
    def _position(c: Chunk, target: tuple[int, int, int | None], plies: dict[int, int]) -> np.ndarray:
        black, white, side = target
        h = position_hash(np.array([black], dtype=np.uint64), np.array([white], dtype=np.uint64),
                          np.array([side or 0], dtype=np.uint64))[0]
        where = np.nonzero(c.hashes == h if side is not None else (c.hashes | np.uint64(1)) == (h | np.uint64(1)))[0]
        hit = np.zeros(len(c), dtype=bool)
        if len(where):
            firsts = c.starts + np.arange(len(c.starts), dtype=np.int64)  # hash index of each game's start
            games = np.searchsorted(firsts, where, side="right") - 1
            hit[games] = True
            for g, at in zip(games[::-1].tolist(), where[::-1].tolist(), strict=True):  # the first ply wins
                plies[c.base + g] = at - int(firsts[g])
        return hit

    def page(self, found: Found, offset: int = 0, limit: int = 50) -> list[dict[str, object]]:
        """Rows of ``found`` from ``offset``: number, players, date, result, moves, file, and the ply a position
        search found."""
        out: list[dict[str, object]] = []
        for n in found.games[offset: offset + max(0, min(limit, MAX_LIMIT))].tolist():
            c, i = self._locate(n)
            result = float(c.result[i])
            row: dict[str, object] = {
                "id": n, "black": self.names[c.black[i]], "white": self.names[c.white[i]],
                "date": self.names[c.date[i]], "result": None if np.isnan(result) else f"{result:+g}",
                "moves": int(c.starts[i + 1] - c.starts[i]) - c.moves.count(PASS_BYTE, int(c.starts[i]),
                                                                           int(c.starts[i + 1])),
                "file": self.files[int(c.file[i])].name}
            if n in found.plies:
                row["ply"] = found.plies[n]
            out.append(row)
        return out

    def _locate(self, n: int) -> tuple[Chunk, int]:
        chunks = self.chunks
        k = bisect.bisect_right([c.base for c in chunks], n) - 1
        if k < 0 or n >= chunks[k].base + len(chunks[k]):
            raise LibraryError(f"no game number {n} in the library")
        return chunks[k], n - chunks[k].base

    def open(self, n: int) -> tuple[OthelloGame, str]:
        """Game ``n`` read again from its file, and where it came from (``file, game at byte ...``)."""
        if n < 0 or n >= self.count:
            raise LibraryError(f"no game number {n} in the library ({self.count} games indexed)")
        c, i = self._locate(n)
        path, kind, offset = self.files[int(c.file[i])], self.kinds[int(c.file[i])], int(c.offset[i])
        try:
            with path.open("rb") as f:
                f.seek(offset)
                if kind == "wthor":
                    number = (offset - wthor.HEADER_SIZE) // wthor.GAME_SIZE
                    record = wthor.parse_record(f.read(wthor.GAME_SIZE), number, str(path))
                    game = record.to_game(None, None, 0, str(path), offset)
                    game.black, game.white = self.names[c.black[i]], self.names[c.white[i]]
                    game.date = self.names[c.date[i]]
                    game.props.pop("tournament", None)
                    game.place = ""
                    return game, f"{path.name}, game {number + 1}"
                data = bytearray()
                end = None
                while end is None and len(data) <= MAX_GAME:
                    more = f.read(1 << 16)
                    if not more:
                        end = len(data)
                        break
                    data += more
                    end = game_end(data, 0)
        except OSError as e:
            raise LibraryError(f"cannot read {path}: {e.strerror or e}") from None
        text = bytes(data[:end]).decode("utf-8", "replace")
        game, _ = ggf._read_one(text, 0, path.name)
        return game, f"{path.name}, byte {offset}"


def openings(text: str) -> list[bytes]:
    """The packed moves of an opening (``f5d6c3``, ``f5 d6 c3``) and of its three symmetric equivalents from the
    standard start; LibraryError when the text is not moves."""
    squares = _SQUARE.findall(text.lower())
    if not squares or re.sub(r"[a-h][1-8]|[\s,;.-]", "", text.lower()):
        raise LibraryError(f"an opening is moves such as f5d6c3, not {text[:40]!r}")
    moves = [(int(r) - 1) * 8 + ord(c) - 97 for c, r in squares]
    out = []
    for f in (lambda r, c: (r, c), lambda r, c: (c, r), lambda r, c: (7 - c, 7 - r), lambda r, c: (7 - r, 7 - c)):
        p = bytes(f(m // 8, m % 8)[0] * 8 + f(m // 8, m % 8)[1] for m in moves)
        if p not in out:
            out.append(p)
    return out


def read_position(text: str) -> tuple[int, int, int | None]:
    """(black, white, side to move or None) of a board: 64 squares X/O/- (``*``, ``.`` too), then, if given, the
    side to move; LibraryError otherwise."""
    compact = "".join(text.split())
    if len(compact) not in (64, 65):
        raise LibraryError(f"a position is 64 squares (X, O or -), then the side to move if you like; "
                           f"this one has {len(compact)} characters")
    black, white, bad = _squares(compact[:64])
    if bad >= 0:
        raise LibraryError(f"square {bad + 1} of the position is {compact[bad]!r}: squares are X, O or -")
    side: int | None = None
    if len(compact) == 65:
        ch = compact[64]
        side = _side(ch)
        if side < 0:
            raise LibraryError(f"the last character says who moves: X or O, not {ch!r}")
    return black, white, side


__all__ = ["Found", "Library", "LibraryError", "library_files", "openings", "position_hash", "read_position"]
