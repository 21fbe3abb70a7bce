"""Keep plies' translations: extract the marked messages with Babel, update each language's catalogs, compile
them to the ``.mo`` files that ship beside them, and check that nothing is missing or stale.

    python tools/i18n.py update     # the messages -> every src/plies/locale/LANG/LC_MESSAGES/DOMAIN.po
    python tools/i18n.py compile    # every DOMAIN.po -> DOMAIN.mo
    python tools/i18n.py check      # exit 1 when a message is untranslated or fuzzy, or a .po/.mo is stale

Two domains.  ``plies``: the Python sources (``_()``, ``N_()``, ``ngettext()``), the scripts of the Learn page and
of the browser app (``plies web``: ``_()``, each argument a string literal) and their HTML (the text of an element
marked ``data-i18n``, and the value of each ``data-i18n-ATTR`` attribute).
``notebooks``: the course notebooks in docs/notebooks, each text (markdown) cell one message.
Needs Babel (the ``test`` extra installs it); plies itself reads the compiled catalogs with the standard gettext.
"""

from __future__ import annotations

import gettext
import io
import json
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "plies"
LOCALE = PACKAGE / "locale"
NOTEBOOKS = ROOT / "docs" / "notebooks"
LANGS = ("el",)
DOMAINS = ("plies", "notebooks")
KEYWORDS: dict[str, Any] = {"_": None, "N_": None, "ngettext": (1, 2)}
COMMENT_TAGS = ("Translators:",)
VOLATILE = (b'"POT-Creation-Date:', b'"PO-Revision-Date:', b'"Generated-By:', b'"Report-Msgid-Bugs-To:',
            b'"Project-Id-Version:')
"""Header lines that change with each run or Babel version and say nothing to gettext: left out of the files."""
HEADER = """{name} translations of plies' messages.  The English originals are in the sources; edit the msgstr lines,
then run: python tools/i18n.py compile  (python tools/i18n.py update brings in new messages)."""


class _Marked(HTMLParser):
    """Collects the text of elements marked ``data-i18n`` and the values of ``data-i18n-*`` attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, int, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        for name, value in attrs:
            if name.startswith("data-i18n-") and value:
                self.found.append((line, value))
        if any(name == "data-i18n" for name, _ in attrs):
            self._open.append((tag, line, []))

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][2].append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            _, line, parts = self._open.pop()
            self.found.append((line, " ".join("".join(parts).split())))


def extract_html(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[Any]:
    """Babel extraction method for the Learn page's HTML: ``(line, None, message, [])`` for each marked text."""
    parser = _Marked()
    parser.feed(fileobj.read().decode("utf-8"))
    for line, text in parser.found:
        yield line, None, text, []


def sources() -> list[tuple[Path, Any]]:
    """Every file with messages and the Babel method that reads it."""
    files: list[tuple[Path, Any]] = [(p, "python") for p in sorted(PACKAGE.rglob("*.py"))]
    static = PACKAGE / "teach" / "static"
    files += [(static / "learn.js", "javascript"), (static / "learn.html", extract_html)]
    app = PACKAGE / "web" / "static"  # the browser app: its modules and its page
    files += [(p, "javascript") for p in sorted(app.glob("*.js"))] + [(app / "index.html", extract_html)]
    return files


def extract_notebook(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[Any]:
    """Babel extraction method for a notebook: ``(cell number, None, text, [])`` for each text cell."""
    for i, cell in enumerate(json.loads(fileobj.read().decode("utf-8"))["cells"]):
        text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if cell["cell_type"] == "markdown" and text.strip():
            yield i, None, text, []


def template(domain: str = "plies") -> Catalog:
    """The catalog of every message of ``domain``, with where each is used (a notebook's: its cell number)."""
    cat = Catalog(project="plies", domain=domain, charset="utf-8", fuzzy=False)
    files = sources() if domain == "plies" else [(p, extract_notebook) for p in sorted(NOTEBOOKS.glob("*.ipynb"))]
    for path, method in files:
        with path.open("rb") as f:
            options = {"parse_template_string": True} if method == "javascript" else {}
            for line, message, comments, context in extract(method, f, KEYWORDS, COMMENT_TAGS, options):
                where = (str(path.relative_to(ROOT)), line)
                cat.add(message, None, [where], auto_comments=comments, context=context)
    return cat


def po_path(lang: str, domain: str = "plies") -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"


def read(path: Path, lang: str) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=path.stem)


def po_bytes(cat: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, cat, width=116, omit_header=False, ignore_obsolete=True, include_previous=False)
    return b"".join(line for line in out.getvalue().splitlines(keepends=True) if not line.startswith(VOLATILE))


def mo_bytes(cat: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, cat, use_fuzzy=False)
    return out.getvalue()


def updated(lang: str, pot: Catalog, domain: str = "plies") -> Catalog:
    """``lang``'s catalog with the template's messages: translations kept, new messages empty, gone ones dropped."""
    path = po_path(lang, domain)
    cat = read(path, lang) if path.exists() else Catalog(locale=lang, domain=domain, project="plies", fuzzy=False)
    cat.update(pot, no_fuzzy_matching=True, update_creation_date=False)
    cat.header_comment = "\n".join("# " + line for line in HEADER.format(name=cat.locale.english_name).splitlines())
    cat.last_translator = cat.language_team = "The plies authors"
    return cat


def update() -> None:
    for domain in DOMAINS:
        pot = template(domain)
        for lang in LANGS:
            path = po_path(lang, domain)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(po_bytes(updated(lang, pot, domain)))
            print(f"{path.relative_to(ROOT)}: {len(pot)} messages")


def compile_all() -> None:
    for domain in DOMAINS:
        for lang in LANGS:
            mo = po_path(lang, domain).with_suffix(".mo")
            compiled = mo_bytes(read(po_path(lang, domain), lang))
            if mo.exists() and _messages(mo.read_bytes()) == _messages(compiled):
                continue  # the same messages: the file stays as it is (its header's date would change)
            mo.write_bytes(compiled)
            print(f"{mo.relative_to(ROOT)} written")


def problems() -> list[str]:
    """What ``check`` reports: messages in the sources but not in a catalog (or the reverse), untranslated or
    fuzzy messages, and a ``.mo`` that is not the compiled ``.po``."""
    out = []
    for domain, lang in ((d, la) for d in DOMAINS for la in LANGS):
        wanted = {m.id for m in template(domain) if m.id}
        cat = read(po_path(lang, domain), lang)
        have = {m.id for m in cat if m.id}
        name = po_path(lang, domain).relative_to(ROOT)
        out += [f"{name}: missing {m!r} (run tools/i18n.py update)" for m in sorted(wanted - have, key=str)]
        out += [f"{name}: no longer used {m!r} (run tools/i18n.py update)" for m in sorted(have - wanted, key=str)]
        for m in cat:
            if m.id and (m.fuzzy or not (all(m.string) if isinstance(m.string, tuple) else m.string)):
                out.append(f"{name}: {'fuzzy' if m.fuzzy else 'untranslated'} {m.id!r}")
        mo = po_path(lang, domain).with_suffix(".mo")
        if not mo.exists() or _messages(mo.read_bytes()) != _messages(mo_bytes(cat)):
            out.append(f"{mo.relative_to(ROOT)} is not the compiled {name} (run tools/i18n.py compile)")
    return out


def _messages(mo: bytes) -> dict[object, str]:
    """A compiled catalog's messages, as gettext reads them (the header, which carries a date, left out)."""
    table = getattr(gettext.GNUTranslations(io.BytesIO(mo)), "_catalog", {})
    return {k: v for k, v in table.items() if k != ""}


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "check":
        found = problems()
        print("\n".join(found) if found else "translations complete")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
