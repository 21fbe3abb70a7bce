"""Teaching views: watch minimax and alpha-beta work, step by step, on the seeds' trees and on real games.

``trace`` replays a textbook search (``plies.search``) into nodes and steps; ``draw`` turns a trace into a
picture (plies' own SVG, PNG/PDF by matplotlib; ``dot`` draws with Graphviz where asked); ``stepper`` steps a
trace forward and back (and its Jupyter widget); ``quiz`` makes random exercises and checks answers;
``examples`` holds the seeds' trees; ``study`` measures node counts and the horizon effect; ``web`` serves the
browser's Learn page.
"""

from __future__ import annotations

from plies.teach.trace import NodeInfo, Step, Trace, solve_tree, trace_search

__all__ = ["NodeInfo", "Step", "Trace", "solve_tree", "trace_search"]
