"""The box: button, buzzer, timer, camera, screen, the referee's flow, the match store,
configuration and the ``cuberef`` command line."""

import os as _os

# pygame prints a greeting on import; the command line's stdout belongs to its output.
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
