"""The box: button, buzzer, timer, camera, screen, the referee's flow, the match store,
configuration and the ``cuberef`` command line."""

from device.base import stopping as _stopping

# The command answers Ctrl-C and SIGTERM with its sentence from its first import on.
if _stopping.is_the_command():
    _stopping.guard_start()

import os as _os  # noqa: E402

# pygame prints a greeting on import; the command line's stdout belongs to its output.
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
