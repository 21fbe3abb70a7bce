"""Independent tests of the plies foundation: rules, heuristics, textbook search, players, CLI."""
