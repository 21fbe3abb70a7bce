"""Playing games between players: one game -> a GameRecord (see ``record``); matches and tournaments."""

from __future__ import annotations

from plies.match.record import GameRecord, play_game

__all__ = ["GameRecord", "play_game"]
