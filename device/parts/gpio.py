"""Claiming GPIO pins through gpiozero, with one sentence for each way it can fail.

Off a Pi no pin factory loads (gpiozero's ``BadPinFactory``); on a Pi a pin the
running service holds is busy; and lgpio, gpiozero's factory on a Pi 5 and on
Bookworm, writes its notification pipes into its working folder (``LG_WD``, else the
current folder), so a hand-run command in a folder it cannot write finds no lgpio.
"""

from __future__ import annotations

import os
import tempfile
import warnings
from collections.abc import Callable
from typing import TypeVar

from engine.errors import MachineError

T = TypeVar("T")

STOP_SERVICE = "sudo systemctl stop cuberef"


def claim(make: Callable[[], T], part: str, pin: int) -> T:
    """``make()`` a gpiozero device for ``part`` on GPIO ``pin``, or say why it cannot be."""
    if "LG_WD" not in os.environ and not os.access(os.getcwd(), os.W_OK):
        os.environ["LG_WD"] = tempfile.gettempdir()
    from gpiozero import BadPinFactory, GPIOPinInUse, GPIOZeroError, PinFactoryFallback

    with warnings.catch_warnings(record=True) as fallbacks:
        warnings.simplefilter("always", PinFactoryFallback)
        try:
            return make()
        except BadPinFactory:
            tried = "; ".join(str(w.message).removeprefix("Falling back from ") for w in fallbacks)
            raise MachineError(
                f"No GPIO pins can be driven on this machine ({tried or 'no pin factory'}), "
                f"so the {part} on GPIO{pin} cannot work; on a laptop use cuberef run "
                "--simulate, on a Pi install python3-lgpio."
            ) from None
        except GPIOPinInUse as error:
            raise MachineError(
                f"GPIO{pin} for the {part} is in use ({error}); stop whatever holds it, "
                f"such as the cuberef service ({STOP_SERVICE})."
            ) from None
        except (GPIOZeroError, OSError) as error:
            busy = "busy" in str(error).lower()
            fix = (
                f"stop the cuberef service first ({STOP_SERVICE})"
                if busy
                else "add the user to the gpio group (sudo usermod -a -G gpio $USER), log in again"
            )
            raise MachineError(
                f"GPIO{pin} for the {part} cannot be used ({error.__class__.__name__}: "
                f"{error}); {fix}."
            ) from None
