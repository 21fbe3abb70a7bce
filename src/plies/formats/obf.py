"""OBF (Othello Board File, Edax's test-suite format) and the FFO list form, read through ``suite.py`` (the one
suite reader) and written here.  An OBF line:

    --XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O; G3:-12; C7:-12; G2:-14; % FFO #43

the board and side to move, then ``move:score;`` fields (exact scores for the side to move) or a lone
``score;``; ``%`` starts a comment.  Errors carry the line and the column of the bad field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from plies.game import PASS, IllegalMoveError, ParseError
from plies.games.othello import OthelloState, square_name

from . import suite
from .board import read_board, write_board
from .errors import FormatError, reanchor

_FIELD = re.compile(r"\s*([A-Ja-j](?:10|[1-9])|PA|pa|ps|PS)\s*:\s*([+-]?\d+)\s*$")
_SCORE = re.compile(r"\s*([+-]?\d+)\s*$")


@dataclass
class ObfPosition:
    """A position with known answers: per-move scores (square index or PASS -> score for the side to move),
    or just the best score ``best`` and the best moves ``best_given`` (the FFO list form)."""

    state: OthelloState
    scores: dict[int, int] = field(default_factory=dict)
    best: int | None = None
    comment: str = ""
    id: int | None = None
    best_given: list[int] = field(default_factory=list)

    @property
    def best_score(self) -> int | None:
        if self.scores:
            return max(self.scores.values())
        return self.best

    @property
    def best_moves(self) -> list[int]:
        if self.scores:
            b = self.best_score
            return [m for m, s in self.scores.items() if s == b]
        return list(self.best_given)

    @classmethod
    def from_suite(cls, p: suite.SuitePosition) -> ObfPosition:
        if p.move_scores:
            return cls(p.state, dict(p.move_scores), None, p.comment, p.id)
        return cls(p.state, {}, p.score, p.comment, p.id, list(p.best_moves))


def read_obf(text: str, source: str | None = None) -> list[ObfPosition]:
    """Every position of an OBF (or FFO-list) text; FormatError names the line and column of a bad field."""
    label = source or "<obf>"
    try:
        positions = suite.parse_suite(text, label)
    except ParseError as e:
        raise _located(text, str(e), label, source) from None
    lines = text.splitlines()
    out = []
    for p in positions:
        for m in p.move_scores:  # suite.py checks the best moves; the other scored moves must be legal too
            if m != PASS and m not in p.state.legal_moves():
                line = lines[p.line - 1]
                name = square_name(m).upper()
                col = _find_move(line, m)
                try:
                    p.state.play(m)
                    why = "not a legal move"
                except IllegalMoveError as err:
                    why = str(err)
                raise FormatError(f"{name} is not a legal move here: {why}", p.line, col, source)
        out.append(ObfPosition.from_suite(p))
    if not out:
        raise FormatError("no OBF position found", source=source)
    return out


def _find_move(line: str, move: int) -> int | None:
    name = square_name(move)
    m = re.search(rf"(?i)(?<![a-z]){name}\s*:", line)
    return m.start() + 1 if m else None


def _located(text: str, message: str, label: str, source: str | None) -> FormatError:
    """suite.py's ``source:line: what`` error, with the column of the bad field found here."""
    m = re.match(rf"{re.escape(label)}:(\d+): (.*)$", message, flags=re.S)
    if not m:
        return FormatError(message, source=source)
    lineno, reason = int(m.group(1)), m.group(2)
    lines = text.splitlines()
    line = lines[lineno - 1] if 0 < lineno <= len(lines) else ""
    return FormatError(reason, lineno, _bad_column(line), source)


def _bad_column(line: str) -> int | None:
    """1-based column of the first field of an OBF/FFO line that does not read (None if none is found)."""
    body = line.partition("%")[0]
    lead = len(body) - len(body.lstrip())
    if ";" not in body:  # FFO form: id board side moves score
        words = [(m.start(), m.group(0)) for m in re.finditer(r"\S+", body)]
        if len(words) >= 3:
            try:
                read_board(words[1][1] + " " + words[2][1])
            except FormatError as e:
                return words[1][0] + (e.column or 1)
        return (words[0][0] + 1) if words else lead + 1
    fields = body.split(";")
    try:
        state = read_board(fields[0])
    except FormatError as e:
        return reanchor(e, line, 0, fields[0]).column
    at = len(fields[0]) + 1
    for f in fields[1:]:
        col = at + len(f) - len(f.lstrip()) + 1
        at += len(f) + 1
        if not f.strip() or _SCORE.fullmatch(f):
            if f.strip() and abs(int(f)) > 64:
                return col
            continue
        m = _FIELD.fullmatch(f)
        if not m or abs(int(m.group(2))) > 64:
            return col
        name = m.group(1).lower()
        if name in ("pa", "ps"):
            if state.legal_moves() != [PASS]:
                return col
            continue
        sq = (int(name[1:]) - 1) * state.n + ord(name[0]) - 97
        if sq not in state.legal_moves():
            return col
    return None


def write_obf(positions: list[ObfPosition]) -> str:
    """OBF lines (``X``/``O``/``-`` board, scores with a sign, best first).  FFO-form positions become their
    best moves with the best score."""
    lines = []
    for p in positions:
        parts = [write_board(p.state) + ";"]
        scores = dict(p.scores)
        if not scores and p.best is not None:
            scores = {m: p.best for m in p.best_given}
        for m, s in sorted(scores.items(), key=lambda kv: -kv[1]):
            name = "PA" if m == PASS else square_name(m, p.state.n).upper()
            parts.append(f"{name}:{s:+d};")
        if not scores and p.best is not None:
            parts.append(f"{p.best:+d};")
        line = " ".join(parts)
        comment = p.comment or (f"#{p.id}" if p.id is not None and p.best_given else "")
        if comment:
            line += f" % {comment}"
        lines.append(line)
    return "".join(x + "\n" for x in lines)


def looks_like_obf(text: str) -> bool:
    """The first position line reads as an OBF or FFO-list line."""
    for line in text.splitlines():
        body = line.strip()
        if not body or body.startswith(("#", "%")):
            continue
        try:
            if ";" in body:
                suite.parse_obf_line(body)
            else:
                suite.parse_ffo_line(body)
            return True
        except (ParseError, ValueError):
            return False
    return False


__all__ = ["ObfPosition", "looks_like_obf", "read_obf", "write_obf"]
