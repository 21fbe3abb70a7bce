"""The error every format reader raises: a ParseError that knows the line and column (or byte offset) of the
fault, so a user can find the bad character in a file of thousands of games."""

from __future__ import annotations

from plies.game import ParseError


class FormatError(ParseError):
    """Malformed input in a known format; ``line``/``column`` are 1-based (None for binary files, which give
    ``offset`` in bytes instead).  ``str()`` reads ``where: what``."""

    def __init__(
        self,
        message: str,
        line: int | None = None,
        column: int | None = None,
        source: str | None = None,
        offset: int | None = None,
    ) -> None:
        self.reason = "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in message)  # one line
        self.line = line
        self.column = column
        self.source = source
        self.offset = offset
        super().__init__(self._text())

    def _text(self) -> str:
        where = []
        if self.source:
            where.append(self.source)
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {self.column}")
        if self.offset is not None and self.line is None:
            where.append(f"byte {self.offset}")
        return f"{', '.join(where)}: {self.reason}" if where else self.reason


def locate(text: str, index: int) -> tuple[int, int]:
    """(line, column), both 1-based, of character ``index`` of ``text``."""
    index = max(0, min(index, len(text)))
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


def error_at(text: str, index: int, message: str, source: str | None = None) -> FormatError:
    """A FormatError pointing at character ``index`` of ``text``."""
    line, column = locate(text, index)
    return FormatError(message, line, column, source)


def shift(err: FormatError, line_offset: int = 0, column_offset: int = 0, source: str | None = None) -> FormatError:
    """The same error re-anchored inside a bigger text (a game inside a file, a field inside a line)."""
    line = None if err.line is None else err.line + line_offset
    column = err.column
    if column is not None and err.line == 1:
        column += column_offset
    return FormatError(err.reason, line, column, source or err.source, err.offset)





def reanchor(err: FormatError, outer: str, base: int, inner: str) -> FormatError:
    """An error found in ``inner`` (a field that starts at index ``base`` of ``outer``) re-pointed at ``outer``."""
    if err.line is None or err.column is None:
        return error_at(outer, base, err.reason, err.source)
    lines = inner.split("\n")
    index = sum(len(x) + 1 for x in lines[: err.line - 1]) + err.column - 1
    return error_at(outer, base + index, err.reason, err.source)
__all__ = ["FormatError", "error_at", "locate", "reanchor", "shift"]
