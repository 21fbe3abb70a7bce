"""Checks of the files the training commands read and write, so a wrong file is one readable line (``PliesError``),
never numpy's own message (which suggests loading with ``allow_pickle``, unsafe for a file of unknown origin).
Writing a whole file at once is ``plies.outfiles.write_whole``."""

from __future__ import annotations

import os
import zipfile
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from plies.game import PliesError

if TYPE_CHECKING:
    import numpy as np


def read_npz(path: str | Path, what: str, keys: Iterable[str]) -> dict[str, np.ndarray]:
    """The arrays ``keys`` of an .npz archive, refusing in one line a file that is not one or lacks them or holds
    pickled objects (never loaded); ``what`` names the kind of file in the message (e.g. "a weights file")."""
    import numpy as np

    if not os.path.exists(path):
        raise PliesError(f"{path}: no such file")
    if not zipfile.is_zipfile(path):
        raise PliesError(f"{path} is not {what} (not an .npz archive)")
    out: dict[str, np.ndarray] = {}
    try:
        with np.load(path, allow_pickle=False) as z:
            for key in keys:
                if key not in z.files:
                    raise PliesError(f"{path} is not {what} (it has no {key!r} array)")
                try:
                    out[key] = z[key]
                except ValueError:
                    raise PliesError(f"{path} is not {what} (its {key!r} array holds pickled objects)") from None
    except PliesError:
        raise
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as e:
        reason = "unreadable" if "pickle" in str(e) else str(e).split(".")[0] or type(e).__name__
        raise PliesError(f"{path} is not {what} ({reason})") from None
    return out


def check_out_dir(path: str | Path) -> None:
    """Refuse an output path whose folder does not exist, before hours of work that could not be written."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise PliesError(f"cannot write {path}: no folder {folder}")


def same_file(a: str | Path, b: str | Path) -> bool:
    """Whether two paths name one file (both existing), or the same path."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)
