"""Which layout a match store's tables have: this cuberef's, an older cuberef's (brought up
to date when the box opens it to write), or one no cuberef wrote, which the store treats
as damage: the file is kept aside whole and a new store begun.

A layout is read from SQLite itself (each table's columns with their types, NOT NULL and
key, its indexes; any view or trigger) and compared with every layout a cuberef wrote:
the tables of ``SCHEMA`` (``events``, ``house``, ``quarantine``, each added in its turn,
so an older store lacks the later ones) and the first stores' ``events`` without its
``round`` column. Anything else, a column missing or added, another type, an index, a
table, a view or a trigger no cuberef made, is foreign: the box could not read such a
store, nor write to it safely.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from functools import cache

#: A column as SQLite describes it: name, declared type, NOT NULL, place in the key.
Column = tuple[str, str, bool, int]
#: An index: unique, how it was made (``c``, ``pk``, ``u``), partial, its columns.
Index = tuple[bool, str, bool, tuple[str | None, ...]]


@dataclass(frozen=True)
class Shape:
    columns: frozenset[Column]
    indexes: frozenset[Index]


@dataclass(frozen=True)
class Layout:
    """``kind``: ``new`` (no tables yet), ``current``, ``older`` (``missing`` says what
    it lacks) or ``foreign`` (``why`` says what no cuberef made); ``tables``: those it has."""

    kind: str
    version: int
    tables: frozenset[str]
    missing: tuple[str, ...] = ()
    why: str = ""

    def words(self) -> str:
        """The layout in words, as ``cuberef doctor`` says it."""
        if self.kind == "new":
            return "new, with no tables yet"
        if self.kind == "current":
            return f"of this cuberef's layout (schema {self.version})"
        if self.kind == "older":
            return (
                f"of an older cuberef's layout (schema {self.version}: "
                f"{', '.join(self.missing)}), which the box brings up to date when it opens it"
            )
        return f"not of any layout a cuberef wrote ({self.why})"


#: The first stores' events, before the ``round`` column (which is added as 0).
FIRST_EVENTS = """
CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    match INTEGER NOT NULL,
    kind TEXT NOT NULL,
    at REAL NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX events_by_match ON events (match, id);
"""


def layout_of(db: sqlite3.Connection, schema: str, version: int) -> Layout:
    """The layout of the store open in ``db``, against ``schema`` (``version``)."""
    found = int(db.execute("PRAGMA user_version").fetchone()[0])
    tables: dict[str, Shape] = {}
    try:
        for kind, name in db.execute(
            "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
            " ORDER BY name"
        ).fetchall():
            if kind == "table":
                tables[str(name)] = shape_of(db, str(name))
            elif kind != "index":  # an index is judged with its table
                return _foreign(found, tables, f"a {kind} {name!r} that no cuberef made")
    except sqlite3.OperationalError as error:  # a virtual table of a module SQLite lacks
        return _foreign(found, tables, str(error))
    if not tables and found == 0:
        return Layout("new", found, frozenset())
    known = _known(schema)
    missing = [f"no {name} table" for name in known if name not in tables]
    for name, shape in tables.items():
        if name not in known:
            return _foreign(found, tables, f"a table {name!r} that no cuberef made")
        made = next((k for k in known[name] if fits(shape, k)), None)
        if made is None:
            return _foreign(found, tables, difference(name, shape, known[name][0]))
        if made is not known[name][0]:
            missing.append(f"{name} without its round column")
        if shape.indexes != made.indexes:
            missing.append(f"no index on {name}")
    if found < 0:
        return _foreign(found, tables, f"schema {found}, which no cuberef wrote")
    if missing or found < version:
        return Layout("older", found, frozenset(tables), tuple(missing) or ("its number",))
    return Layout("current", found, frozenset(tables))


def fits(shape: Shape, made: Shape) -> bool:
    """The columns a cuberef made, and none but its indexes (one it lacks is made again)."""
    return shape.columns == made.columns and shape.indexes <= made.indexes


def _foreign(version: int, tables: dict[str, Shape], why: str) -> Layout:
    return Layout("foreign", version, frozenset(tables), why=why)


def shape_of(db: sqlite3.Connection, table: str) -> Shape:
    quoted = '"' + table.replace('"', '""') + '"'
    columns = frozenset(
        (str(name), str(kind).upper(), bool(not_null), int(key))
        for _cid, name, kind, not_null, _default, key in db.execute(f"PRAGMA table_info({quoted})")
    )
    indexes = []
    for _seq, name, unique, origin, partial in db.execute(f"PRAGMA index_list({quoted})"):
        named = '"' + str(name).replace('"', '""') + '"'
        listed = tuple(row[2] for row in db.execute(f"PRAGMA index_info({named})"))
        indexes.append((bool(unique), str(origin), bool(partial), listed))
    return Shape(columns, frozenset(indexes))


@cache
def _known(schema: str) -> dict[str, list[Shape]]:
    """Each table a cuberef made -> its shapes, today's first."""
    shapes: dict[str, list[Shape]] = {}
    for script in (schema, FIRST_EVENTS):
        db = sqlite3.connect(":memory:")
        try:
            db.executescript(script)
            for (name,) in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
            ):
                shapes.setdefault(str(name), []).append(shape_of(db, str(name)))
        finally:
            db.close()
    return shapes


def difference(table: str, shape: Shape, known: Shape) -> str:
    """What first sets ``shape`` apart from the table as a cuberef made it, in words."""
    have = {column[0]: column for column in shape.columns}
    want = {column[0]: column for column in known.columns}
    for name in sorted(want.keys() - have.keys()):
        if (table, name) != ("events", "round"):  # the first stores lack it
            return f"{table} has no column {name}"
    for name in sorted(have.keys() - want.keys()):
        return f"{table} has a column {name} that no cuberef made"
    for name in sorted(have.keys() & want.keys()):
        if have[name] != want[name]:
            return f"{table}'s column {name} is {_said(have[name])}, not {_said(want[name])}"
    return f"{table} has an index that no cuberef made"


def _said(column: Column) -> str:
    _name, kind, not_null, key = column
    words = [kind or "untyped"] + ["NOT NULL"] * not_null + ["in the key"] * bool(key)
    return " ".join(words)
