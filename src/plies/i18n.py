"""plies in English and Greek: messages are marked with ``_()`` and translated through gettext catalogs.

The catalogs live in ``plies/locale/LANG/LC_MESSAGES/DOMAIN.po`` (the source, edited by translators; the domain
``plies`` for the program's messages, ``notebooks`` for the course notebooks' text) and ship compiled beside it as
``DOMAIN.mo``; ``tools/i18n.py`` extracts the messages with Babel, updates the ``.po`` files and compiles them.
The language is chosen by ``set_language`` (the CLI's ``--lang``; ``None``: ``PLIES_LANG``, else the locale of the
environment, ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English.  A server request picks its own
with ``using(lang)``, which holds for the current context (thread or task) only.
"""

from __future__ import annotations

import functools
import gettext
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

DOMAIN = "plies"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = {"en": "English", "el": "Ελληνικά"}
"""The languages plies speaks: code -> the language's own name.  English is the source language."""
DEFAULT = "en"

_chosen = DEFAULT
_context: ContextVar[str | None] = ContextVar("plies_language", default=None)


def normalize(tag: str | None) -> str | None:
    """The plies language of a locale or browser tag (``el_GR.UTF-8``, ``el-GR``, ``EN``), None for another."""
    if not tag:
        return None
    code = tag.strip().replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    return code if code in LANGUAGES else None


def from_environment(env: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: ``PLIES_LANG`` when it names one plies speaks, else the first of
    gettext's variables that is set (``LANGUAGE`` may list several, ``el:en``; ``LC_ALL=C`` means English), else
    English."""
    env = os.environ if env is None else env
    chosen = normalize(env.get("PLIES_LANG"))
    if chosen is not None:
        return chosen
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            return next((lang for lang in map(normalize, value.split(":")) if lang is not None), DEFAULT)
    return DEFAULT


def set_language(lang: str | None) -> str:
    """Choose the language of everything that follows (None: from the environment); returns the code."""
    global _chosen
    _chosen = from_environment() if lang is None else _checked(lang)
    return _chosen


def _checked(lang: str) -> str:
    code = normalize(lang)
    if code is None:
        raise ValueError(f"unknown language {lang!r}; choose from: {', '.join(LANGUAGES)}")
    return code


def language() -> str:
    """The language in force: the current context's (``using``), else the one chosen."""
    return _context.get() or _chosen


@contextmanager
def using(lang: str) -> Iterator[str]:
    """Speak ``lang`` inside the ``with`` block, in this context only (a server request, a test)."""
    token = _context.set(_checked(lang))
    try:
        yield language()
    finally:
        _context.reset(token)


@functools.cache
def translations(lang: str, domain: str = DOMAIN) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English: the messages as written); FileNotFoundError if it is missing.
    ``domain`` ``notebooks`` holds the course notebooks' text, a cell a message."""
    if _checked(lang) == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(domain, LOCALE_DIR, languages=[lang])


def _(message: str) -> str:
    """``message`` in the language in force (as written when it has no translation)."""
    return translations(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the language in force."""
    return translations(language()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks ``message`` for the catalog without translating it now (a table built at import time)."""
    return message


def catalog(lang: str, domain: str = DOMAIN) -> dict[str, str]:
    """Every translated message of ``lang`` as ``{English: translation}`` (English: empty), for the browser."""
    table = getattr(translations(lang, domain), "_catalog", {})
    return {k: v for k, v in table.items() if isinstance(k, str) and k}


__all__ = ["DEFAULT", "LANGUAGES", "N_", "catalog", "from_environment", "language", "ngettext", "normalize",
           "set_language", "translations", "using"]
