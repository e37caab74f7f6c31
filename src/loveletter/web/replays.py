"""Replays in the browser: a game record (shared RECORD.md) as frames to step through, move by move.

A record holds the whole game, decks included, so a frame shows everything: every hand, the deck
size, the discards, and the story so far. Records are validated by replaying them through the engine
(:func:`loveletter.record.replay`); each frame is the record cut after one more turn, replayed again.
"""

from __future__ import annotations

import copy
from typing import Any

from loveletter.engine import Round
from loveletter.i18n import Translator
from loveletter.narrate import narrate_all
from loveletter.record import replay, to_record
from loveletter.web.messages import card_face

MAX_RECORD_BYTES = 1_000_000


def record_of(match: Any, names: list[str]) -> dict[str, Any]:
    """The record of a web table's match; names made distinct as RECORD.md asks."""
    distinct = [name if names.count(name) == 1 else f"{name} ({seat})" for seat, name in enumerate(names)]
    return to_record(match, distinct)


def frames(doc: Any, t: Translator) -> list[dict[str, Any]]:
    """Every step of the record ``doc``: the deal of each round, then each turn. A bad record raises
    :class:`~loveletter.record.RecordError` (one line, naming the round and turn)."""
    whole = replay(doc)  # validates first: the cut records below are then valid too
    names = whole.names
    shown: list[dict[str, Any]] = []
    for r, rnd in enumerate(doc["rounds"]):
        turns = rnd.get("turns", [])
        for cut in range(len(turns) + 1):
            partial = copy.deepcopy(doc)
            partial["rounds"] = partial["rounds"][: r + 1]
            partial["rounds"][r]["turns"] = turns[:cut]
            match = replay(partial).match
            shown.append(_frame(match.round, r + 1, cut, list(match.tokens), names, t))
    return shown


def _frame(rnd: Round, number: int, turn: int, tokens: list[int], names: list[str], t: Translator
           ) -> dict[str, Any]:
    def faces(cards: Any) -> list[dict[str, Any]]:
        return [card_face(c, rnd.edition, t) for c in cards]

    return {
        "round": number,
        "turn": turn,
        "names": names,
        "hands": [faces(hand) for hand in rnd.hands],
        "discards": [faces(pile) for pile in rnd.discards],
        "face_up": faces(rnd.face_up),
        "alive": list(rnd.alive),
        "protected": list(rnd.protected),
        "current": rnd.current,
        "deck_size": len(rnd.deck),
        "tokens": tokens,
        "winners": list(rnd.winners),
        "log": narrate_all(rnd.log or (), names, t, number),
    }

