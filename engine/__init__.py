"""The referee's rules: cubes, boards, lexicons, solvers and scoring. Pure Python, no I/O
beyond reading its own data files."""
