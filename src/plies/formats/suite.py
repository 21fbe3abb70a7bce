"""Endgame and analysis test suites: the FFO list form and OBF lines, read into positions with answers.

FFO form (the bundled suite ``ffo``, ``plies/formats/data/ffo-endgame.txt``): ``id board64 side best_moves
score``, e.g.
``40 O--OOOOX...-------- X A2 +38``; best moves comma-separated.  OBF form (Edax's):
``<64 chars> <side>; G3:-12; C7:-12; B7:-14; % comment`` — the best score's moves are the best moves; a lone
``score;`` field gives the score without moves.  Blank lines and ``#``/``%`` comment lines are skipped.  A bad
line raises ``ParseError`` saying ``file:line: what is wrong``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from plies.game import PASS, ParseError, PliesError
from plies.games.othello import OthelloState

_SQUARE = re.compile(r"^([a-hA-H])([1-8])$")


@dataclass
class SuitePosition:
    """One test position: ``id`` (FFO number or line number), the state, the best moves and the exact score
    for the side to move (None when the suite gives none), and where it came from."""

    id: int
    state: OthelloState
    best_moves: list[int] = field(default_factory=list)
    score: int | None = None
    move_scores: dict[int, int] = field(default_factory=dict)
    comment: str = ""
    source: str = ""
    line: int = 0

    @property
    def empties(self) -> int:
        return self.state.empties()

    def best_names(self) -> list[str]:
        return [self.state.move_str(m) for m in self.best_moves]


def _square(text: str) -> int:
    t = text.strip()
    if t.upper() in ("PA", "PASS", "PS"):
        return PASS
    m = _SQUARE.match(t)
    if not m:
        raise ParseError(f"bad move {text!r}")
    return (int(m.group(2)) - 1) * 8 + ord(m.group(1).lower()) - 97


def _score(text: str) -> int:
    t = text.strip()
    if not re.fullmatch(r"[+-]?\d+", t):
        raise ParseError(f"bad score {text!r}")
    v = int(t)
    if not -64 <= v <= 64:
        raise ParseError(f"score {v} is outside -64..64")
    return v


def _board(text: str, side: str) -> OthelloState:
    if len(text) != 64:
        raise ParseError(f"the board has {len(text)} characters, not 64")
    return OthelloState.from_text(text + side)


def parse_ffo_line(line: str, lineno: int = 0) -> SuitePosition:
    """``id board64 side best_moves score`` (best moves may be absent)."""
    parts = line.split()
    if len(parts) < 3:
        raise ParseError("expected 'id board side best_moves score'")
    if not parts[0].lstrip("#").isdigit():
        raise ParseError(f"bad position id {parts[0]!r}")
    state = _board(parts[1], parts[2])
    best: list[int] = []
    score = None
    rest = parts[3:]
    if rest and not re.fullmatch(r"[+-]?\d+", rest[0]):
        best = [_square(m) for m in rest[0].split(",") if m]
        rest = rest[1:]
    if rest:
        score = _score(rest[0])
    return SuitePosition(int(parts[0].lstrip("#")), state, best, score, line=lineno)


def parse_obf_line(line: str, lineno: int = 0) -> SuitePosition:
    """``board64 side; move:score; ...; % comment``."""
    text, _, comment = line.partition("%")
    fields = [f.strip() for f in text.split(";")]
    head = fields[0].split()
    if len(head) == 1 and len(head[0]) == 65:
        head = [head[0][:64], head[0][64]]
    if len(head) != 2:
        raise ParseError("expected '<64 board characters> <side to move>;' first")
    state = _board(head[0], head[1])
    scores: dict[int, int] = {}
    score = None
    for f in fields[1:]:
        if not f:
            continue
        if ":" in f:
            mv, _, sc = f.partition(":")
            scores[_square(mv)] = _score(sc)
        else:
            score = _score(f)
    best: list[int] = []
    if scores:
        top = max(scores.values())
        best = [m for m, v in scores.items() if v == top]
        score = top if score is None else score
    m = re.search(r"#\s*(\d+)", comment)
    pid = int(m.group(1)) if m else lineno
    return SuitePosition(pid, state, best, score, scores, comment.strip(), line=lineno)


def parse_suite(text: str, source: str = "<suite>") -> list[SuitePosition]:
    """All positions of a suite text (FFO or OBF lines, even mixed); ParseError names ``source:line``."""
    out = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(("#", "%")):
            continue
        try:
            pos = parse_obf_line(line, lineno) if ";" in line else parse_ffo_line(line, lineno)
        except PliesError as e:
            raise ParseError(f"{source}:{lineno}: {e}") from None
        pos.source = source
        for m in pos.best_moves:
            if m not in pos.state.legal_moves():
                raise ParseError(f"{source}:{lineno}: best move {pos.state.move_str(m)} is not legal here")
        out.append(pos)
    return out


BUNDLED_SUITES = {"ffo": "ffo-endgame.txt"}
"""Suites shipped inside the package, by name: ``ffo`` is the FFO endgame suite, positions #40-#79."""


def bundled_suite_path(name: str) -> Path:
    """The file of a bundled suite (``ffo``); ParseError for an unknown name."""
    try:
        return Path(__file__).with_name("data") / BUNDLED_SUITES[name.lower()]
    except KeyError:
        raise ParseError(f"no bundled suite {name!r} (bundled: {', '.join(BUNDLED_SUITES)})") from None


def bundled_name(path: str | Path) -> tuple[str, str] | None:
    """``ffo:40-44`` -> ("ffo", "40-44"), ``ffo`` -> ("ffo", ""): a bundled suite's name and the ids written after
    it, or None (a path; an existing file is always a file)."""
    if not isinstance(path, str):
        return None
    try:
        if Path(path).exists():
            return None
    except (OSError, ValueError):  # not a possible file name: not a suite's name either
        return None
    name, _, ids = path.partition(":")
    return (name.lower(), ids.strip()) if name.lower() in BUNDLED_SUITES else None


def read_suite(path: str | Path) -> list[SuitePosition]:
    """Read a suite file; ParseError (not a traceback) for a missing file or a bad line.

    A name that is not an existing file may name a bundled suite: ``ffo`` (every position), or ``ffo:40-44``
    (those ids, as :func:`parse_ids` reads them)."""
    p = Path(path)
    bundled = bundled_name(path)
    if bundled is not None:
        name, ids = bundled
        if not ids and ":" in str(path):
            raise ParseError(f"no ids after '{name}:' (write e.g. {name}:40-49, or {name} for every position)")
        positions = read_suite(bundled_suite_path(name))
        for pos in positions:
            pos.source = name
        return select(positions, parse_ids(ids)) if ids else positions
    try:
        text = p.read_text(encoding="utf-8-sig")
    except OSError as e:
        raise ParseError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise ParseError(f"cannot read {path}: not a UTF-8 text file") from None
    return parse_suite(text, str(path))


MAX_ID_RANGE = 100_000


def parse_ids(spec: str | None) -> set[int] | None:
    """``40-49``, ``40,42,45-47`` -> a set of ids (None: all)."""
    if not spec:
        return None
    ids: set[int] = set()
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r"(\d+)\s*-\s*(\d+)|(\d+)", part)
        if not m:
            raise ParseError(f"bad id range {part!r} (write e.g. 40-49 or 40,42)")
        if m.group(3):
            ids.add(int(m.group(3)))
        else:
            a, b = int(m.group(1)), int(m.group(2))
            if a > b:
                raise ParseError(f"bad id range {part!r}: {a} > {b}")
            if b - a >= MAX_ID_RANGE:
                raise ParseError(f"id range {part!r} is too long (at most {MAX_ID_RANGE:,} ids)")
            ids.update(range(a, b + 1))
    if not ids:
        raise ParseError(f"no id in {spec!r} (write e.g. 40-49 or 40,42)")
    return ids


def select(positions: list[SuitePosition], ids: set[int] | None) -> list[SuitePosition]:
    """The positions whose id is in ``ids`` (all for None); ParseError when none match."""
    if ids is None:
        return positions
    out = [p for p in positions if p.id in ids]
    if not out:
        raise ParseError(f"no position with id in {min(ids)}-{max(ids)}")
    return out


__all__ = ["BUNDLED_SUITES", "SuitePosition", "bundled_suite_path", "parse_ffo_line", "parse_ids", "parse_obf_line",
           "parse_suite", "read_suite", "select"]
