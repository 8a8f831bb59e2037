"""`make pi-check` judges the demo in the emulated Pi against the demo here: what each run
draws afresh (the page's port, the join code) and the time-limited best crossword may
differ, nothing else."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "systemd" / "pi_check.py"
spec = importlib.util.spec_from_file_location("pi_check", SCRIPT)
assert spec is not None and spec.loader is not None
pi_check = importlib.util.module_from_spec(spec)
sys.modules.setdefault("pi_check", pi_check)  # its dataclasses look their module up
spec.loader.exec_module(pi_check)


def _run(*lines: str) -> dict[str, str]:
    return {"demo": "\n".join(lines), "demo (exit)": "0", "demo (stderr)": ""}


def test_the_page_address_and_join_code_of_each_run_are_not_differences():
    pi = _run("players' page: http://127.0.0.1:60823/ code SFNZ", "read: A B")
    here = _run("players' page: http://127.0.0.1:52079/ code RVRV", "read: A B")
    assert pi_check.judge("demo", pi, here) == ("identical output (2 lines)", True)


def test_a_different_reading_is_a_difference_and_a_slower_search_is_not():
    pi = _run("read: A B", "scored: crossword AB scores 5 (valid); best 58")
    slower = _run("read: A B", "scored: crossword AB scores 5 (valid); best 60")
    assert pi_check.judge("demo", pi, slower)[1]
    misread = _run("read: A C", "scored: crossword AB scores 5 (valid); best 58")
    assert pi_check.judge("demo", pi, misread) == (
        "1 of 2 lines identical; the others DIFFER",
        False,
    )
