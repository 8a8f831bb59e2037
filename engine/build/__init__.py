"""Scripts that rebuild the engine's data from named sources (run by ``cuberef lexicon build``)."""
