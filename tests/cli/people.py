"""A person at the terminal, for the tests of ``plies play``: the lines they type."""

from __future__ import annotations

from collections.abc import Callable


def scripted(lines: list[str]) -> Callable[[str], str]:
    """A person who types ``lines``, one a prompt, then closes the input (EOFError, as Ctrl-D does)."""
    it = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read
