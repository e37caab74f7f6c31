"""Small clients for the web tests: a seat (or a spectator) on a WebSocket, speaking JSON."""

from __future__ import annotations

import json
import random
from typing import Any

from starlette.testclient import TestClient

from loveletter.web.table import GameTable


def create(client: TestClient, **settings: Any) -> dict[str, Any]:
    answer = client.post("/api/tables", json={"name": "Ann", **settings})
    assert answer.status_code == 200, answer.text
    return answer.json()


OPEN: list[Seat] = []  # closed by the client fixture, so a failing test does not hang at teardown


class Seat:
    """One browser tab: says hello, then reads states and errors."""

    def __init__(self, client: TestClient, code: str, secret: str | None, lang: str = "en") -> None:
        self.context = client.websocket_connect(f"/ws/{code}")
        self.socket = self.context.__enter__()
        OPEN.append(self)
        self.send({"type": "hello", "secret": secret, "lang": lang})
        self.state = self.receive()

    def send(self, message: Any) -> None:
        self.socket.send_text(message if isinstance(message, str) else json.dumps(message))

    def receive(self) -> dict[str, Any]:
        """The next state or error. Who is away comes on the side, as the page takes it: kept in
        the state, whenever it comes (:meth:`receive_away` waits for it)."""
        return self._next("away")

    def receive_away(self) -> list[int]:
        """Wait for the next message saying who is away (states and errors before it are kept as
        :meth:`receive` keeps them)."""
        return self._next("state", "error")["away"]

    def _next(self, *passed: str) -> dict[str, Any]:
        """The next message of a type not ``passed`` (those passed are kept, as the page keeps them)."""
        while True:
            message = self.socket.receive_json()
            if message["type"] == "away":
                self.state["away"], self.state["away_for"] = message["away"], message["away_for"]
            elif message["type"] == "state":
                self.state = message
            if message["type"] not in passed:
                return message

    def move(self, move: str, at: int | None = None) -> dict[str, Any]:
        self.send({"type": "move", "move": move, "at": self.state["moves"] if at is None else at})
        return self.receive()

    def random_move(self, rng: random.Random) -> dict[str, Any]:
        return self.move(rng.choice(self.state["legal"])["move"])

    def next_after_a_ping(self) -> dict[str, Any]:
        """The next message after a ping: its pong, where nothing else was on its way."""
        self.send({"type": "ping"})
        answer: dict[str, Any] = self.socket.receive_json()
        return answer

    def close(self) -> None:
        if self in OPEN:
            OPEN.remove(self)
            self.context.__exit__(None, None, None)


def close_all() -> None:
    for seat in list(OPEN):
        seat.close()


def join(table: GameTable, name: str) -> tuple[int, str]:
    """Seat a person called ``name`` at ``table``'s first free seat, stored here and now (the server
    stores off its event loop: :func:`loveletter.web.lobby.seated`): the seat and its credential."""
    seating = table.seating(name)
    table.store_seat(seating)
    table.take(seating)
    return seating.seat, seating.secret
