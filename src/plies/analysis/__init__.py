"""What every front-end asks about a game beyond its rules: who plays at a difficulty, whether the fast engine
plays here, every move of a position valued, hints, the review of a game, and values that print themselves.

``plies play``, ``plies review``, ``plies analyse`` and the browser app all read these; none of it imports the
engine until a search needs it, so ``--help`` stays fast.
"""

from plies.analysis.levels import (
    DEFAULT_ANALYSIS_LEVEL,
    MAX_LEVEL,
    Difficulty,
    difficulty,
    engine_applies,
    engine_games,
    engine_status,
)
from plies.analysis.position import Analysis, MoveValue, analyse_position, hints, move_value, textbook_analysis
from plies.analysis.review import Review, review, review_game
from plies.analysis.value import Value, discs_text, from_search

__all__ = ["DEFAULT_ANALYSIS_LEVEL", "MAX_LEVEL", "Analysis", "Difficulty", "MoveValue", "Review", "Value",
           "analyse_position", "difficulty", "discs_text", "engine_applies", "engine_games", "engine_status",
           "from_search", "hints", "move_value", "review", "review_game", "textbook_analysis"]
