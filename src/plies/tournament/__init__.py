"""Many games between many players: configuration (TOML), standings, cross table, Elo with intervals, export.

The games themselves are planned, played and stored by ``plies.match`` (a match is a two-player event).
"""

from __future__ import annotations

from plies.tournament.elo import EloEstimate, fit_ratings, match_elo
from plies.tournament.standings import Standings, tabulate

__all__ = ["EloEstimate", "Standings", "fit_ratings", "match_elo", "tabulate"]
