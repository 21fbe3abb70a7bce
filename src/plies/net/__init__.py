"""network front-ends: protocols, servers, clients"""

from __future__ import annotations

import shlex

from plies.game import ParseError


def split_spec(raw: str, options: tuple[str, ...], what: str) -> tuple[list[str], dict[str, str]]:
    """``[KEY=VALUE ...] PROGRAM [ARGS...]`` -> (the program's words, the leading options named in *options*)."""
    try:
        words = shlex.split(raw)
    except ValueError as e:
        raise ParseError(f"bad {what} command line {raw!r}: {e}") from None
    opts: dict[str, str] = {}
    while words and "=" in words[0] and words[0].split("=", 1)[0].lower() in options:
        k, v = words.pop(0).split("=", 1)
        opts[k.lower()] = v
    return words, opts
