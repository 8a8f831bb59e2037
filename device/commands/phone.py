"""The demo's phones: HTTP clients of a box's players' page, as the page's script is."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any


class Phone:
    """A player's phone: an HTTP client of the players' page, as the page's script is."""

    def __init__(self, address: str, code: str, name: str) -> None:
        self.address, self.code, self.name = address, code, name
        self.token = str(self.post("join", {"name": name})["token"])

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        data = json.dumps({"code": self.code, **body}).encode()
        request = urllib.request.Request(self.address + path, data=data, method="POST")
        request.add_header("Content-Type", "application/json")
        return self._answer(request)

    def state(self) -> dict[str, Any]:
        query = f"state?code={self.code}&token={self.token}"
        return self._answer(urllib.request.Request(self.address + query))

    def type(self, word: str) -> str:
        answer = self.post("word", {"token": self.token, "word": word})
        return str(answer.get("why") or answer.get("status") or answer.get("error"))

    @staticmethod
    def _answer(request: urllib.request.Request) -> dict[str, Any]:
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return dict(json.loads(answer.read()))
        except urllib.error.HTTPError as refused:
            return dict(json.loads(refused.read()))
