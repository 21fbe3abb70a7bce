"""Tests of the fast Othello engine (plies.engine), its CLI and the test-suite reader."""
