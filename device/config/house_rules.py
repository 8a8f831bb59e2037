"""The box's settings that widen the table's house list: ``[words] offensive = "allow"``
counts the words the word list refuses as offensive.

>>> from device.config.sections import Settings, WordsSettings
>>> with_settings(HouseList("en"), Settings()).offensive
False
>>> with_settings(HouseList("en"), Settings(words=WordsSettings("allow"))).offensive
True
"""

from __future__ import annotations

import dataclasses

from device.config.sections import Settings
from engine.house import HouseList


def with_settings(house: HouseList, settings: Settings) -> HouseList:
    """The house list as the box's settings extend it."""
    return dataclasses.replace(house, offensive=settings.words.offensive == "allow")
