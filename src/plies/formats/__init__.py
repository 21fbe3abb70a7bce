"""Reading and writing standard files: transcripts, game databases, position and test-suite formats."""
