"""Moved to ``plies.engine.patterns`` (the engine evaluates with the patterns; training only fits them).
This module re-exports it so ``from plies.train import patterns`` keeps working."""

from __future__ import annotations

from typing import Any

from plies.engine import patterns as _patterns
from plies.engine.patterns import *  # noqa: F403


def __getattr__(name: str) -> Any:
    return getattr(_patterns, name)
