"""``python -m plies`` runs the ``plies`` command."""

from plies.cli import run

if __name__ == "__main__":
    run()
