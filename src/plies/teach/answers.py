"""Answers checked without showing them: what an exercise notebook calls when a student asks.

A notebook's exercise version (``plies.teach.notebooks``) keeps, for each answer, only a digest of it: a salted
SHA-256 of the answer written in a normal form.  ``check(answers, key)`` writes each of the student's answers
in the same normal form and says right, not right yet, or not answered — never what the answer is.  (A digest
of a small number can be found by trying numbers: hidden, not secret; a class's marks come from
``plies class mark``.)

Normal form: numbers by value (``3``, ``3.0`` and ``"3"`` agree; ``−2`` with the minus sign too), text without
case, surrounding space or separators (``"f, g"`` is ``"F G"``), a list item by item; an answer whose order
does not count (``sorted`` in the key) in sorted order.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from plies.i18n import _

SALT = "plies-answer-v1"


def normal(value: object, any_order: bool = False) -> str | None:
    """``value`` in the normal form digests are taken of; None for no answer (``...`` or None)."""
    if value is None or value is Ellipsis:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        v = float(value)
        if not math.isfinite(v):
            return "inf" if v > 0 else "-inf" if v < 0 else "nan"
        return f"{v + 0.0:g}"
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [normal(v) or "" for v in value]
        if any_order or isinstance(value, (set, frozenset)):
            items.sort()
        return " ".join(items)
    text = str(value).strip().replace("−", "-")
    if re.fullmatch(r"[-+]?\d+([.,]\d+)?", text):
        return normal(float(text.replace(",", ".")))
    return _words(text, any_order)


def _words(text: str, any_order: bool) -> str:
    words = [w for w in re.split(r"[\s,;/|]+", text.casefold()) if w]
    if any_order:
        words.sort()
    return " ".join(words)


def digest(name: str, value: object, any_order: bool = False) -> str:
    """The digest of answer ``name`` = ``value`` (what an exercise notebook keeps instead of the answer)."""
    form = normal(value, any_order)
    return hashlib.sha256(f"{SALT}\n{name}\n{form}".encode()).hexdigest()[:20]


def make_key(answers: Mapping[str, object], any_order: list[str] | tuple[str, ...] = ()) -> dict[str, list[str]]:
    """The key of a set of answers: name -> [``sorted`` or ``""``, digest]."""
    return {name: ["sorted" if name in any_order else "", digest(name, value, name in any_order)]
            for name, value in answers.items()}


@dataclass
class Checked:
    """The verdicts of one check: name -> ``right``, ``wrong`` or ``missing``."""

    verdicts: dict[str, str] = field(default_factory=dict)

    @property
    def all_right(self) -> bool:
        return bool(self.verdicts) and all(v == "right" for v in self.verdicts.values())

    def lines(self) -> list[str]:
        words = {"right": _("✓ right"), "wrong": _("✗ not right yet"), "missing": _("— not answered yet")}
        return [f"{name}: {words[v]}" for name, v in self.verdicts.items()]

    def __bool__(self) -> bool:
        return self.all_right

    def __repr__(self) -> str:
        right = sum(v == "right" for v in self.verdicts.values())
        return "\n".join(self.lines() + [_("{right} of {total} right").format(right=right, total=len(self.verdicts))])


def check(answers: Mapping[str, object], key: dict[str, list[str]], quiet: bool = False) -> Checked:
    """Compare ``answers`` (name -> the student's value) with ``key`` (``make_key``); print and return the
    verdicts."""
    out = Checked()
    for name, (mode, want) in key.items():
        given = answers.get(name)
        if normal(given) is None:
            out.verdicts[name] = "missing"
        else:
            out.verdicts[name] = "right" if digest(name, given, mode == "sorted") == want else "wrong"
    if not quiet:
        print(repr(out))
    return out


__all__ = ["Checked", "check", "digest", "make_key", "normal"]
