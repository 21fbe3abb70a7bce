"""A broken hand-in: it does not even import (it registers a class it never defined)."""
from plies.players import register

register("grace", GracePlayer)  # noqa: F821
