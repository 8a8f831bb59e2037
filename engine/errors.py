"""The one exception type a player can cause, and its kinds.

Every message is one sentence that says what is wrong and what to do; the command
line prints it and exits with code 2.
"""


class CuberefError(ValueError):
    """Something a player or an owner did that the referee cannot accept."""


class NotationError(CuberefError):
    """Text that does not parse: a board, a roll, a face, a grid, a word list."""


class RuleError(CuberefError):
    """Well-formed input that the game's rules do not allow."""


class MachineError(RuntimeError):
    """The machine failed, not the player: a camera, a model file, a full disk.

    The command line prints the sentence and exits with code 1.
    """
