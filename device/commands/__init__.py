"""The ``cuberef`` command line: a module a subcommand, and their output, folder, sandbox, house."""
