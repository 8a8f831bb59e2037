"""The subcommands of ``cuberef``, one module each."""
