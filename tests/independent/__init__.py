"""A second renderer of test scenes, written from the rulebooks and the cube sets only
(issue 48, item 7): it knows nothing of ``models/`` or ``vision/``, so the reader is
measured on photos it was not trained to expect. ``scenes`` renders, ``measure`` reads
the renders with the public ``cuberef`` commands and prints the figures."""
