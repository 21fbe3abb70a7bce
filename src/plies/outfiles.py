"""Writing an output file whole: a failed or stopped command leaves the old file as it was and no half-made one
(used by ``plies convert`` and the training commands)."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path


def write_whole(path: str | Path, write: Callable[[str], None]) -> None:
    """Write ``path`` through ``write(temporary path)`` beside it, then move the result into place in one step.

    The path is followed to its real file (a link keeps pointing at it, now holding the new contents), which
    keeps its permissions; anything that exists but is not a regular file (a device, a pipe) is handed to
    ``write`` itself and written straight through.  The temporary name ends in ``.npz``, so numpy's writers add
    no suffix (nor to ``path``, whatever it is called), and it is private to this call: no file of the user's
    is overwritten or removed on the way."""
    real = os.path.realpath(path)
    if os.path.exists(real) and not os.path.isfile(real):
        write(real)
        return
    fd, tmp = tempfile.mkstemp(prefix=".plies-", suffix=".tmp.npz", dir=os.path.dirname(real))
    os.close(fd)
    try:
        write(tmp)
        umask = os.umask(0o022)
        os.umask(umask)  # the old file's mode, or the one a plain open() would give (not mkstemp's private one)
        os.chmod(tmp, stat.S_IMODE(os.stat(real).st_mode) if os.path.exists(real) else 0o666 & ~umask)
        os.replace(tmp, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


__all__ = ["write_whole"]
