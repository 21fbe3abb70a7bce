"""The whole suite: plies speaks English in it whatever the machine's locale (the Greek tests ask for Greek)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

os.environ["PLIES_LANG"] = "en"  # read by the commands, and by the programs the tests start


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """Every test starts, and leaves the next one, in English (a command run with --lang el chooses Greek)."""
    from plies import i18n

    i18n.set_language("en")
    yield
    i18n.set_language("en")
