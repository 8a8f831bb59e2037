"""The house list in the match store: kept across restarts, older stores brought up to it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from device.store.store import Store, StoreError


def test_rulings_are_kept_per_language_and_survive_a_restart(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.rule_word("en", "gonna", False, 1.0, match=3)
    store.rule_word("en", "qi", True, 2.0)
    store.rule_word("cs", "gonna", True, 2.0)
    store.close()
    store = Store(tmp_path)
    assert store.house("en").refused == {"gonna"} and store.house("en").allowed == {"qi"}
    assert store.house("cs").allowed == {"gonna"} and not store.house("cs").refused
    store.rule_word("en", "gonna", True, 3.0)  # a later ruling replaces the earlier one
    store.rule_word("en", "qi", None, 4.0)
    assert store.house("en").allowed == {"gonna"} and not store.house("en").refused
    store.close()
    reader = Store(tmp_path, read_only=True)
    assert reader.house("en").allowed == {"gonna"}
    with pytest.raises(StoreError, match="read-only"):
        reader.rule_word("en", "cat", False, 5.0)
    reader.close()


def test_a_store_from_before_the_house_list_gets_one(tmp_path: Path) -> None:
    Store(tmp_path).close()
    db = sqlite3.connect(tmp_path / "matches.db")
    db.execute("DROP TABLE house")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    store = Store(tmp_path)
    assert store.house("en").allowed == frozenset()
    store.rule_word("en", "zen", True, 1.0)
    assert store.house("en").allowed == {"zen"}
    store.close()
