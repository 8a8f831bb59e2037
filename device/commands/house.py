"""The box's house list: the table's own rulings, kept in its match store.

One place opens it for every command that reads or edits it (``cuberef lexicon house``,
``cuberef check --house``); the box itself reads it from the store it plays with."""

from __future__ import annotations

from pathlib import Path

from device.config.house_rules import with_settings
from device.config.service import box_settings, store_folder
from device.store.store import Store
from engine.house import HouseList


def box_store_folder(config: str | None) -> Path:
    """The store folder of the box that ``config`` (or the service's file) describes."""
    return store_folder(config)


def house_list(config: str | None, language: str) -> HouseList:
    """The box's house list in one language, with its ``[words]`` settings; an empty one
    where no store exists yet."""
    chosen = box_settings(config)
    folder = store_folder(config)
    if not (folder / "matches.db").exists():
        return with_settings(HouseList(language), chosen)
    store = Store(folder, read_only=True)
    try:
        return with_settings(store.house(language), chosen)
    finally:
        store.close()
