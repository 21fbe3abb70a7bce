"""``python -m plies`` runs the ``plies`` command."""

from plies.cli import run

run()
