"""Reading files of any size with bounded memory: what ``plies show`` and ``plies convert`` use.

A source up to ``SMALL`` bytes is read whole and parsed as before (``detect.load``).  A larger file is read a
piece at a time and its games or positions come one by one: WTHOR by 68-byte record, GGF by game (each game at
most ``MAX_GAME`` characters), transcripts, boards and OBF by line (each line at most ``MAX_LINE`` characters,
more than any game or board holds).  ``islice(stream.items, n)`` therefore reads no further than the n-th
item: ``--limit`` costs what it shows.  Every error is the usual located ``FormatError``.
"""

from __future__ import annotations

import io
import os
import re
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from . import board as board_fmt
from . import ggf, obf, tagged, transcript, wthor
from .detect import MAX_LINE, Loaded, load
from .errors import FormatError, shift
from .model import OthelloGame

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

SMALL = 1 << 20
"""Sources up to this many bytes are read whole."""
MAX_GAME = 1 << 20
"""Longest GGF game (characters); a game with comments is a few kilobytes."""
MAX_ARGUMENT = 1 << 20
"""Longest text given on the command line instead of a file."""
CHUNK = 1 << 16


@dataclass
class Stream:
    """What a source holds, one item at a time: ``kind`` is ``games``, ``positions`` or ``names``; ``total``
    is the number of items when it is known without reading them all (small sources, WTHOR headers)."""

    format: str
    kind: str
    items: Iterator[Any]
    total: int | None = None
    source: str | None = None


GAME_FILE_SUFFIXES = (".txt", ".ggf", ".wtb", ".jou", ".trn", ".sgf", ".obf", ".pgn", ".json", ".gam", ".csv")
"""An argument ending so names a file (a transcript or a board never does)."""


def path_kind(arg: str) -> str | None:
    """``"file"`` or ``"dir"`` when ``arg`` names one, ``"stream"`` for a FIFO or a device (``<(cmd)``,
    ``/dev/stdin``: read as far as they go, like ``-``), ``"other"`` for a socket; else None: no such path, or
    text that cannot be a path (a long transcript is too long a file name for the system, and must not be an
    error for being one)."""
    if len(arg) >= 4096 or "\n" in arg or "\0" in arg:
        return None
    try:
        mode = os.stat(arg).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "dir"
    if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "stream"
    return "other"


MAX_STREAM = 16 << 20
"""Most bytes ``read_bytes`` takes from a FIFO or a device (a regular file's size is known beforehand)."""


def read_bytes(path: str) -> bytes:
    """The bytes of the file, FIFO or device ``path``; FormatError when it cannot be read, or when a FIFO or device
    gives more than ``MAX_STREAM`` bytes (``/dev/zero`` would never end)."""
    try:
        with open(path, "rb") as f:
            if path_kind(path) == "file":
                return f.read()
            data = f.read(MAX_STREAM + 1)
    except OSError as e:
        raise FormatError(f"cannot read {path}: {e.strerror or e}") from None
    if len(data) > MAX_STREAM:
        raise FormatError(f"{path} gives more than {MAX_STREAM >> 20} MiB: not a game file")
    return data


def check_not_a_missing_file(arg: str) -> None:
    """FormatError when ``arg``, not an existing file, still reads as a file name: a directory, a name ending in a
    game file's suffix or one starting like a path (``/``, ``./``, ``../``, ``~/``), so the user hears "no such
    file", not that the name is no transcript."""
    kind = path_kind(arg)
    if kind in ("file", "stream") or len(arg) >= 4096 or "\n" in arg:
        return
    if kind == "other":
        raise FormatError(f"{arg} is a socket, not a game file")
    suffix = Path(arg).suffix.lower() if len(arg) < 4096 else ""
    if kind == "dir" and ("/" in arg or "\\" in arg or arg in (".", "..") or suffix):
        raise FormatError(f"{arg} is a directory, not a game file")
    if kind is None and (suffix in GAME_FILE_SUFFIXES or arg.startswith(("/", "./", "../", "~/"))):
        raise FormatError(f"no such file: {arg}")  # a path (no game, board or transcript starts so)


def open_source(arg: str, fmt: str | None = None) -> Stream:
    """``plies show``/``convert``'s argument: a file name if such a file exists (``-`` = stdin, ``@FILE`` a file),
    else the text itself; large files stream."""
    if arg == "-":
        return _unsized(sys.stdin.buffer, "<stdin>", fmt)
    if arg.startswith("@") and path_kind(arg[1:]) != "dir" and len(arg) > 1:  # '@FILE', as play and review take
        arg = arg[1:]
        if path_kind(arg) is None:
            raise FormatError(f"no such file: {arg}")
    p = Path(arg)
    if path_kind(arg) == "file":
        try:
            size = p.stat().st_size
            if size <= SMALL:
                return _loaded(load(p.read_bytes(), str(p), fmt))
            f = p.open("rb")
        except OSError as e:
            raise FormatError(f"cannot read {arg}: {e.strerror}") from None
        return _large(f, str(p), fmt, size)
    if path_kind(arg) == "stream":  # a FIFO (a shell's <(...)) or a device: read like stdin
        try:
            f = p.open("rb")  # a FIFO waits for its writer, as cat does
        except OSError as e:
            raise FormatError(f"cannot read {arg}: {e.strerror}") from None
        return _unsized(f, str(p), fmt)
    if path_kind(arg) == "dir":
        raise FormatError(f"{arg} is a directory, not a game file")
    check_not_a_missing_file(arg)
    if len(arg) > MAX_ARGUMENT:
        raise FormatError(f"the text given is {len(arg)} characters long; put more than {MAX_ARGUMENT} in a file")
    return _loaded(load(arg, None, fmt))


def _unsized(f: BinaryIO, name: str, fmt: str | None) -> Stream:
    """A source whose size is not known beforehand (stdin, a FIFO, a device): up to ``SMALL`` bytes read whole,
    a longer one streamed."""
    try:
        head = f.read(SMALL + 1)
    except OSError as e:
        raise FormatError(f"cannot read {name}: {e.strerror or e}") from None
    if len(head) <= SMALL:
        if f is not sys.stdin.buffer:
            f.close()
        return _loaded(load(head, name, fmt))
    return _large(_Chained(head, f), name, fmt, None)


def _loaded(data: Loaded) -> Stream:
    for kind in ("games", "positions", "names"):
        items = getattr(data, kind)
        if items:
            return Stream(data.format, kind, iter(items), len(items), data.source)
    return Stream(data.format, "games", iter(()), 0, data.source)


class _Chained(io.RawIOBase):
    """Bytes already read, then the rest of a stream (stdin after the first look)."""

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        self.head, self.rest = head, rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        buf = memoryview(buffer).cast("B")
        if self.head:
            n = min(len(buf), len(self.head))
            buf[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        data = self.rest.read(len(buf))
        buf[: len(data)] = data
        return len(data)


def _large(f: io.BufferedReader | io.RawIOBase, name: str, fmt: str | None, size: int | None) -> Stream:
    raw = f if isinstance(f, io.BufferedReader) else io.BufferedReader(f, CHUNK)
    head = raw.peek(CHUNK)[:CHUNK]
    kind = fmt or _detect(head, name, size)
    if kind == "wthor":
        return _wthor(raw, name, size)
    if kind in ("wthor-players", "wthor-tournaments"):
        width = wthor.PLAYER_NAME_SIZE if kind == "wthor-players" else wthor.TOURNAMENT_NAME_SIZE
        return _names(raw, name, kind, width, size)
    text = io.TextIOWrapper(raw, encoding=_encoding(head), errors="replace", newline=None)
    if kind == "ggf":
        return Stream("ggf", "games", _ggf_games(text, name), None, name)
    if kind == "tagged":
        return Stream("tagged", "games", tagged.iter_tagged(text, name), None, name)
    if kind in ("obf", "board", "transcript"):
        return Stream(kind, "games" if kind == "transcript" else "positions", _lines(text, name, kind), None, name)
    raise FormatError(f"unknown format {kind!r}", source=name)


def _encoding(head: bytes) -> str:
    """The text's encoding: UTF-8 (without its byte-order mark, which Windows editors write first), else Latin-1."""
    try:
        head.decode("utf-8")
        return "utf-8-sig"
    except UnicodeDecodeError as e:
        return "utf-8-sig" if e.start > len(head) - 4 else "latin-1"  # a character cut at the end of the look


def _detect(head: bytes, name: str, size: int | None) -> str:
    suffix = Path(name).suffix.lower()
    if suffix == ".jou":
        return "wthor-players"
    if suffix == ".trn":
        return "wthor-tournaments"
    if suffix == ".wtb" or (size is not None and len(head) >= wthor.HEADER_SIZE and (size - wthor.HEADER_SIZE)
                            % wthor.GAME_SIZE == 0 and int.from_bytes(head[4:8], "little") ==
                            (size - wthor.HEADER_SIZE) // wthor.GAME_SIZE and head[12] in (0, 8)):
        return "wthor"
    text = head.decode(_encoding(head), "replace")
    if ggf.looks_like_ggf(text):
        return "ggf"
    if tagged.looks_like_tagged(text):
        return "tagged"
    first, _, _ = text.lstrip("\ufeff").lstrip("\r\n").partition("\n")
    if len(first) >= MAX_LINE or ("\n" not in text and len(text) >= CHUNK):
        raise FormatError(f"longer than {MAX_LINE} characters: longer than any game or board; not a "
                          "transcript, board or OBF file", 1, None, name)
    if obf.looks_like_obf(text[: text.rfind("\n") + 1] or text):
        return "obf"
    if board_fmt.looks_like_board(first):
        return "board"
    if transcript.looks_like_transcript(first):
        return "transcript"
    raise FormatError("not a transcript, board, OBF, GGF or WTHOR file (its first line reads as none of them)",
                      1, None, name)


def _wthor(raw: BinaryIO, name: str, size: int | None) -> Stream:
    header_bytes = raw.read(wthor.HEADER_SIZE)
    header = wthor.WthorHeader.from_bytes(header_bytes, name)
    if header.board_size not in (0, 8):
        raise FormatError(f"only 8x8 WTHOR files are supported (board size byte {header.board_size})",
                          source=name, offset=12)
    count = header.n1
    if size is not None:
        body = size - wthor.HEADER_SIZE
        if body % wthor.GAME_SIZE:
            raise FormatError(f"{body} bytes after the header are not whole 68-byte games", source=name,
                              offset=wthor.HEADER_SIZE + body - body % wthor.GAME_SIZE)
        if header.n1 != body // wthor.GAME_SIZE:
            raise FormatError(f"header says {header.n1} games, file holds {body // wthor.GAME_SIZE}", source=name,
                              offset=4)
    players = tournaments = None
    if size is not None and os.path.isfile(name):
        players = _sibling_names(Path(name), "wthor.jou", wthor.PLAYER_NAME_SIZE)
        tournaments = _sibling_names(Path(name), "wthor.trn", wthor.TOURNAMENT_NAME_SIZE)

    def games() -> Iterator[OthelloGame]:
        with raw:
            for k in range(count):
                record = wthor.parse_record(raw.read(wthor.GAME_SIZE), k, name)
                yield record.to_game(players, tournaments, header.year, name, wthor.HEADER_SIZE + k * wthor.GAME_SIZE)

    return Stream("wthor", "games", games(), count, name)


def _sibling_names(path: Path, wanted: str, width: int) -> list[str] | None:
    for p in path.parent.iterdir():
        if p.name.lower() == wanted and p.stat().st_size <= 64 * SMALL:
            return wthor.read_names(p.read_bytes(), width, str(p))
    return None


def _names(raw: BinaryIO, name: str, kind: str, width: int, size: int | None) -> Stream:
    header = wthor.WthorHeader.from_bytes(raw.read(wthor.HEADER_SIZE), name)
    count = None if size is None else (size - wthor.HEADER_SIZE) // width
    if size is not None and (size - wthor.HEADER_SIZE) % width:
        raise FormatError(f"{size - wthor.HEADER_SIZE} bytes after the header are not whole {width}-byte names",
                          source=name, offset=size - (size - wthor.HEADER_SIZE) % width)
    if count is not None and header.n2 not in (0, count):
        raise FormatError(f"header says {header.n2} names, file holds {count}", source=name, offset=8)

    def names() -> Iterator[str]:
        with raw:
            while True:
                record = raw.read(width)
                if not record:
                    return
                yield record.split(b"\0", 1)[0].decode("latin-1")

    return Stream(kind, "names", names(), count, name)


_GGF_STOP = re.compile(r"[\[)]")
_VALUE_STOP = re.compile(r"[\]\\]")


def _ggf_games(text: io.TextIOBase, name: str) -> Iterator[OthelloGame]:
    """Every game of a GGF stream, each cut out of the text by its brackets and parsed on its own."""
    buf = ""
    line = 0  # lines before ``buf``
    found = False
    with text:
        while True:
            stripped = buf.lstrip()
            line += buf.count("\n", 0, len(buf) - len(stripped))
            buf = stripped
            while len(buf) < 2:
                more = text.read(CHUNK)
                if not more:
                    break
                buf += more
                stripped = buf.lstrip()
                line += buf.count("\n", 0, len(buf) - len(stripped))
                buf = stripped
            if not buf:
                if not found:
                    raise FormatError("no GGF game found (games start with '(;')", 1, 1, name)
                return
            if not buf.startswith("(;"):
                raise FormatError(f"expected a GGF game starting with '(;', found {buf[:10]!r}", line + 1, 1, name)
            end = _game_end(buf)
            while end is None:
                if len(buf) > MAX_GAME:
                    raise FormatError(f"a game longer than {MAX_GAME} characters (not closed with ';)')", line + 1,
                                      1, name)
                more = text.read(CHUNK)
                if not more:
                    end = len(buf)  # not closed: the parser says where
                    break
                buf += more
                end = _game_end(buf)
            game_text, buf = buf[:end], buf[end:]
            try:
                game, _ = ggf._read_one(game_text, 0, name)
            except FormatError as e:
                raise shift(e, line_offset=line, source=name) from None
            found = True
            line += game_text.count("\n")
            yield game


def _game_end(buf: str) -> int | None:
    """Index just past the ``)`` that closes the game at the start of ``buf`` (None: not in ``buf`` yet)."""
    pos = 2
    while True:
        m = _GGF_STOP.search(buf, pos)
        if m is None:
            return None
        if m.group() == ")":
            return m.end()
        pos = m.end()
        while True:  # inside a [value]: up to the ']' that is not escaped
            v = _VALUE_STOP.search(buf, pos)
            if v is None:
                return None
            if v.group() == "\\":
                pos = v.end() + 1
                if pos > len(buf):
                    return None
                continue
            pos = v.end()
            break


def _lines(text: io.TextIOBase, name: str, kind: str) -> Iterator[OthelloGame | obf.ObfPosition]:
    """Games (transcripts) or positions (boards, OBF) one line at a time; every line at most MAX_LINE."""
    with text:
        lineno = 0
        while True:
            line = text.readline(MAX_LINE + 1)
            if not line:
                return
            lineno += 1
            if len(line) > MAX_LINE and not line.endswith("\n"):
                raise FormatError(f"line longer than {MAX_LINE} characters: longer than any game or board", lineno,
                                  None, name)
            body = line.strip()
            if not body or (kind == "obf" and body.startswith(("#", "%"))):
                continue
            try:
                if kind == "transcript":
                    yield transcript.read_transcript(line, source=name)
                elif kind == "board":
                    yield obf.ObfPosition(board_fmt.read_board(line, name))
                else:
                    yield from obf.read_obf(line, name)
            except FormatError as e:
                raise shift(e, line_offset=lineno - 1, source=name) from None


__all__ = ["MAX_ARGUMENT", "MAX_GAME", "MAX_LINE", "MAX_STREAM", "SMALL", "Stream", "open_source", "path_kind",
           "read_bytes"]
