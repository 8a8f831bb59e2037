"""A TCP relay between a box and the broker that a test can cut and mend: a box cut off
from the broker as a pulled cable or a dead access point cuts it."""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading


class Relay:
    """Listens on a free loopback port and relays each connection to ``target``."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open = threading.Event()
        self.open.set()
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        self.stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.stopped:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.open.is_set():
                client.close()  # cut off: refused at once
                continue
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.pairs.append((client, server))
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, client: socket.socket, server: socket.socket) -> None:
        chooser = selectors.DefaultSelector()
        chooser.register(client, selectors.EVENT_READ, server)
        chooser.register(server, selectors.EVENT_READ, client)
        try:
            while True:
                for key, _ in chooser.select():
                    data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                    if not data:
                        return
                    key.data.sendall(data)
        except OSError:
            return
        finally:
            for end in (client, server):
                with contextlib.suppress(OSError):
                    end.close()

    def cut(self) -> None:
        """Every connection dropped, and new ones refused, until ``mend``."""
        self.open.clear()
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for end in pair:
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def mend(self) -> None:
        self.open.set()

    def close(self) -> None:
        self.stopped = True
        self.cut()
        self.listener.close()
