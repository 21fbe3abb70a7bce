"""The fast Othello engine (8x8): compiled bitboards, PVS search, exact endgame solver, levels."""
