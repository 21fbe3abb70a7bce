"""The seeds' trees, ready to solve: document 000's worked example and a document-002-style exercise.

Document 002's exercise names its states with Greek numerals (α, β, ..., ιθ = 1..19); its figure is not in the
text we have, so ``DOC002_EXERCISE`` is an exercise of the same shape built for plies, with its answer checked by
hand (see ``docs/teach.md``): value 8, state δ chosen, ιδ and η (with ιστ, ιζ under it) pruned.
"""

from __future__ import annotations

from plies.i18n import N_
from plies.teach.schema import Preset, TreeDict

DOC000_EXAMPLE: dict[str, object] = {
    "label": "A",
    "children": [
        {"label": "B", "children": [3, 12, 8]},
        {"label": "C", "children": [2, 4, 6]},
        {"label": "D", "children": [14, 5, 2]},
    ],
}
"""Document 000: root A, children B, C, D with leaves (3,12,8), (2,4,6), (14,5,2) -> 3, move to B."""


def _leaf(label: str, value: float) -> TreeDict:
    return {"label": label, "value": value}


DOC002_EXERCISE: TreeDict = {
    "label": "α",
    "children": [
        {"label": "β", "children": [
            {"label": "ε", "children": [_leaf("ια", 5), _leaf("ιβ", 6)]},
            {"label": "στ", "children": [_leaf("ιγ", 7), _leaf("ιδ", 4)]},
        ]},
        {"label": "γ", "children": [
            {"label": "ζ", "children": [_leaf("ιε", 3)]},
            {"label": "η", "children": [_leaf("ιστ", 1), _leaf("ιζ", 9)]},
        ]},
        {"label": "δ", "children": [
            {"label": "θ", "children": [_leaf("ιη", 8)]},
            {"label": "ι", "children": [_leaf("ιθ", 9)]},
        ]},
    ],
}
"""Nineteen states α..ιθ, MAX at α; alpha-beta from the left: α = 8, chooses δ, prunes ιδ and η."""

DOC002_SLIDE: list[list[int]] = [[4, 10, 7], [5, -1, 6]]
"""Document 002's alpha-beta slide: the first branch (4, 10, 7) gives 4; the second finds 5 and -1 and stops,
since -1 < 4.  The slide does not say what the third leaf is — it never matters (6 here; change it and see)."""

PRESETS: dict[str, Preset] = {
    "doc000": {
        "title": N_("Document 000: the worked example (A, B, C, D)"),
        "tree": DOC000_EXAMPLE,
        "note": N_("Minimax gives 3 and the move to B; alpha-beta never looks at C's 2nd and 3rd leaves."),
    },
    "doc002": {
        "title": N_("Document 002-style exercise (states α … ιθ)"),
        "tree": DOC002_EXERCISE,
        "note": N_("Run alpha-beta, fill in the values, mark the pruned states with an X, say which state is "
                   "chosen."),
    },
    "doc002-slide": {
        "title": N_("Document 002's alpha-beta slide (4, 10, 7 | 5, −1, …)"),
        "tree": DOC002_SLIDE,
        "note": N_("After 5 and −1 the second branch stops: −1 < 4. Change the last leaf: the answer never moves."),
    },
}
"""Trees the Learn page and ``plies tree solve doc000`` offer by name."""
