"""GGF (Generic Game Format, used by GGS and NBoard) for Othello games, read and written:

    (;GM[Othello]PC[NBoard]DT[2014-02-21]PB[alice]PW[bob]RB[1800]RW[1750]TI[15:00]TY[8]RE[+10.000]
      BO[8 ---------------------------O*------*O--------------------------- *]B[F5//1.23]W[D6/0.50/2.1];)

``BO`` is the start position (size, squares with ``*`` black ``O`` white ``-`` empty, side to move); each
``B[..]``/``W[..]`` is ``move/eval/time`` (eval and time optional, pass ``PA``); ``RE`` is Black's disc
difference (``?`` unknown, ``:r``/``:t`` suffixes for resignation/time).  A file may hold many games.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from plies.game import PASS, IllegalMoveError
from plies.games.othello import OthelloState, square_name

from .board import read_board, write_board
from .errors import FormatError, error_at, reanchor
from .model import OthelloGame

HEADER_KEYS = ("GM", "PC", "DT", "PB", "PW", "RB", "RW", "TI", "TY", "RE")
_KEY = re.compile(r"[A-Z][A-Z0-9]*")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")
_VALUE = re.compile(r"((?:[^\]\\]|\\.)*)\]", re.S)
_UNESCAPE = re.compile(r"\\(.)", re.S)
_TIME = re.compile(r"(?:(\d+):)?(?:(\d+):)?(\d+(?:\.\d*)?)")


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _properties(text: str, pos: int, source: str | None) -> tuple[list[tuple[str, str, int]], int]:
    """(key, value, index of value) from ``pos`` (just after ``(;``) to the closing ``;)``; returns the end."""
    props: list[tuple[str, str, int]] = []
    while True:
        pos = _skip_ws(text, pos)
        if pos >= len(text):
            raise error_at(text, pos, "game not closed: expected ';)'", source)
        if text.startswith(";)", pos):
            return props, pos + 2
        if text[pos] == ")":
            return props, pos + 1
        if text[pos] == ";":  # some writers put ';' between nodes
            pos += 1
            continue
        m = _KEY.match(text, pos)
        if not m:
            raise error_at(text, pos, f"expected a property like PB[name] or the end ';)', found {text[pos]!r}",
                           source)
        key = m.group(0)
        pos = _skip_ws(text, m.end())
        if pos >= len(text) or text[pos] != "[":
            raise error_at(text, pos, f"property {key} has no [value]", source)
        start = pos + 1
        v = _VALUE.match(text, start)
        if v is None:
            raise error_at(text, pos, f"value of {key} is not closed with ']'", source)
        raw = v.group(1)
        props.append((key, _UNESCAPE.sub(r"\1", raw) if "\\" in raw else raw, start))
        pos = v.end()


def _number(text: str) -> float | None:
    t = text.strip()
    if not t:
        return None
    if _NUMBER.fullmatch(t):
        return float(t)
    m = _TIME.fullmatch(t)
    if m:  # [[h:]m:]s
        parts = [p for p in m.groups() if p is not None]
        total = 0.0
        for p in parts:
            total = total * 60 + float(p)
        return total
    raise ValueError(t)


def parse_result(text: str) -> float | None:
    """Black's disc difference from an RE value (``+10.000``, ``-64:r``, ``?``); None when unknown."""
    t = text.strip().split(":")[0]
    if not t or t == "?":
        return None
    try:
        return float(t)
    except ValueError:
        return None


def _read_one(text: str, pos: int, source: str | None) -> tuple[OthelloGame, int]:
    begin = pos
    props, end = _properties(text, pos + 2, source)
    game = OthelloGame()
    state: OthelloState | None = None
    seen_board = False
    for key, value, at in props:
        if key == "GM":
            if value.strip().lower() not in ("othello", "reversi"):
                raise error_at(text, at, f"not an Othello game: GM[{value}]", source)
        elif key == "TY":
            ty = value.strip().lower()
            if not re.fullmatch(r"\d*r?\d*", ty):
                raise error_at(text, at, f"unsupported game type TY[{value}] (only plain and random-start "
                                         "Othello)", source)
            game.props["TY"] = value
        elif key == "BO":
            if game.moves:
                raise error_at(text, at, "BO[...] must come before the moves", source)
            state = _read_bo(text, value, at, source)
            game.start = state
            seen_board = True
        elif key in ("B", "W"):
            if state is None:
                state = game.start
            state = _read_move(game, state, key, value, text, at, source)
        elif key == "PB":
            game.black = value
        elif key == "PW":
            game.white = value
        elif key == "DT":
            game.date = value
        elif key == "PC":
            game.place = value
        elif key == "RE":
            game.result = parse_result(value)
            game.props["RE"] = value
        else:
            game.props[key] = value
    if not seen_board and not any(k in ("B", "W") for k, _, _ in props) and not any(k == "GM" for k, _, _ in props):
        raise error_at(text, begin, "not a GGF game: no GM, BO or moves", source)
    return game, end


def _read_bo(text: str, value: str, at: int, source: str | None) -> OthelloState:
    v = value.lstrip()
    lead = len(value) - len(v)
    m = re.match(r"(\d+)\s+", v)
    if not m:
        raise error_at(text, at + lead, f"BO must start with the board size, e.g. BO[8 ... *], got {value[:12]!r}",
                       source)
    size = int(m.group(1))
    body = v[m.end():]
    try:
        state = read_board(body)
    except FormatError as e:
        raise reanchor(e, text, at + lead + m.end(), body) from None
    if state.n != size:
        raise error_at(text, at, f"BO says size {size} but has {state.n * state.n} squares", source)
    return state


def _read_move(game: OthelloGame, state: OthelloState, key: str, value: str, text: str, at: int,
               source: str | None) -> OthelloState:
    parts = value.split("/")
    mtext = parts[0].strip()
    side = 0 if key == "B" else 1
    try:
        ev = _number(parts[1]) if len(parts) > 1 else None
        tm = _number(parts[2]) if len(parts) > 2 else None
    except ValueError as e:
        raise error_at(text, at + len(parts[0]) + 1, f"bad number {e} in {key}[{value}] (move/eval/time)",
                       source) from None
    is_pass = mtext.lower() in ("pa", "pass", "ps", "--")
    try:
        if state.to_move != side:
            # a missing forced pass of the side to move is implied; anything else is out of turn
            if state.legal_moves() == [PASS] and not is_pass:
                game.moves.append(PASS)
                state = state.play(PASS)
            else:
                who = "Black" if state.to_move == 0 else "White"
                raise error_at(text, at - 2, f"{key}[{value}] is out of turn: {who} is to move", source)
        if is_pass:
            move = PASS
        else:
            move = _square(mtext, state.n)
        after = state.play(move)
    except FormatError:
        raise
    except IllegalMoveError as e:
        raise error_at(text, at, f"illegal move {key}[{value}] (move {len(game.moves) + 1}): {e}", source) from None
    except ValueError as e:
        raise error_at(text, at, f"not a move: {key}[{value}] ({e})", source) from None
    game.moves.append(move)
    game.evals.append(ev)
    game.times.append(tm)
    # keep evals/times aligned with passes that were implied above
    while len(game.evals) < len(game.moves):
        game.evals.insert(len(game.evals) - 1, None)
        game.times.insert(len(game.times) - 1, None)
    return after


def _square(name: str, n: int) -> int:
    m = re.fullmatch(r"([a-jA-J])(10|[1-9])", name)
    if not m:
        raise ValueError("squares look like F5; a pass is PA")
    c = ord(m.group(1).lower()) - 97
    r = int(m.group(2)) - 1
    if not (0 <= r < n and 0 <= c < n):
        raise IllegalMoveError(f"{name} is off the {n}x{n} board")
    return r * n + c


def iter_ggf(text: str, source: str | None = None) -> Iterator[OthelloGame]:
    """Every game of a GGF text (one game, or a file of many separated by white space)."""
    pos = _skip_ws(text, 0)
    found = False
    while pos < len(text):
        if not text.startswith("(;", pos):
            raise error_at(text, pos, f"expected a GGF game starting with '(;', found {text[pos:pos + 10]!r}",
                           source)
        game, pos = _read_one(text, pos, source)
        found = True
        yield game
        pos = _skip_ws(text, pos)
    if not found:
        raise error_at(text, 0, "no GGF game found (games start with '(;')", source)


def read_ggf_games(text: str, source: str | None = None) -> list[OthelloGame]:
    return list(iter_ggf(text, source))


def read_ggf(text: str, source: str | None = None) -> OthelloGame:
    """Exactly one game; FormatError if the text holds none or several."""
    games = read_ggf_games(text, source)
    if len(games) != 1:
        raise FormatError(f"expected one GGF game, found {len(games)}", source=source)
    return games[0]


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _num(x: float) -> str:
    return f"{x:.2f}" if abs(x - round(x, 2)) < 1e-9 else repr(float(x))


def write_ggf(game: OthelloGame, place: str = "plies") -> str:
    """One game as a single GGF line (passes as ``PA``, eval and time after the move when known)."""
    score = game.score()
    re_text = game.props.get("RE")
    if re_text is None or parse_result(re_text) != score:
        re_text = "?" if score is None else f"{score:+.3f}"
    fields = [
        ("GM", "Othello"),
        ("PC", game.place or place),
        ("DT", game.date),
        ("PB", game.black),
        ("PW", game.white),
        ("RB", game.props.get("RB", "")),
        ("RW", game.props.get("RW", "")),
        ("TI", game.props.get("TI", "")),
        ("TY", game.props.get("TY", str(game.start.n))),
        ("RE", re_text),
    ]
    out = ["(;"]
    for key, value in fields:
        if value or key in ("GM", "PB", "PW", "TY", "RE"):
            out.append(f"{key}[{_escape(value)}]")
    for key, value in game.props.items():
        if key not in HEADER_KEYS and _KEY.fullmatch(key):  # other formats' notes (WTHOR's) are not GGF
            out.append(f"{key}[{_escape(value)}]")
    out.append(f"BO[{game.start.n} {write_board(game.start, black='*', white='O', empty='-')}]")
    s = game.start
    for m, ev, tm in zip(game.moves, game.evals, game.times, strict=False):
        key = "B" if s.to_move == 0 else "W"
        name = "PA" if m == PASS else square_name(m, s.n).upper()
        extra = ""
        if ev is not None or tm is not None:
            extra = "/" + ("" if ev is None else _num(ev))
            if tm is not None:
                extra += "/" + _num(tm)
        out.append(f"{key}[{name}{extra}]")
        s = s.play(m)
    out.append(";)")
    return "".join(out)


def write_ggf_games(games: list[OthelloGame]) -> str:
    """Many games, one per line (the usual layout of GGF files)."""
    return "".join(write_ggf(g) + "\n" for g in games)


def looks_like_ggf(text: str) -> bool:
    return text.lstrip().startswith("(;")


def holds(state: object) -> bool:
    """Whether GGF can hold a game from ``state``: Othello, on any board size."""
    return isinstance(state, OthelloState)


__all__ = ["holds", "iter_ggf", "looks_like_ggf", "parse_result", "read_ggf", "read_ggf_games", "write_ggf",
           "write_ggf_games"]
